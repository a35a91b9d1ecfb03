//! What a run writes besides the per-game rows' stream: the per-game files opened, the summary
//! files, histograms, plot and state written atomically, and the report.

use std::io::{self, Write};

use crate::batch::{BatchError, RecordSink};
use crate::config::{ConfigError, RunOptions};
use crate::export::{
    AnotherWriter, CsvEnd, GameCsv, GameFiles, GameParquet, LeadKind, Lost, RoomShort, RunInfo,
    StoppedWaiting, Stream, Summary, Target, Which, discard_saved_tail, write_atomically,
    write_hdr_log, write_histogram_csv, write_summary_csv, write_summary_json, write_text_report,
};
use crate::plot::draw_run;
use crate::state::State;
use crate::stats::Stats;

use super::kept::ParquetLeft;
use super::{RunError, plot_titles, resumable};

/// Opens the per-game outputs asked for (`(flag, target)` of the CSV and the Parquet file);
/// `leads` name a sweep's leading columns.
pub fn open_game_files(
    csv: (&'static str, Option<&Target>, bool),
    parquet: (&'static str, Option<&Target>),
    leads: &[(&str, LeadKind)],
) -> Result<GameFiles, ConfigError> {
    let open = |flag: &'static str, target: &Target| {
        Stream::create(target).map_err(|e| {
            if let Some(status) = StoppedWaiting::status_of(&e) {
                let (path, reason) = (target.to_string(), e.to_string());
                return ConfigError::Stopped {
                    flag,
                    path,
                    reason,
                    status,
                };
            }
            let reason = match AnotherWriter::is(&e) {
                true => format!("{e}: wait for it to end, or give this run its own file"),
                false => format!("cannot be created ({e}): choose a writable path"),
            };
            ConfigError::from(crate::export::OutputError {
                flag,
                path: target.to_string(),
                reason,
            })
        })
    };
    let names: Vec<&str> = leads.iter().map(|(name, _)| *name).collect();
    let csv = match csv {
        (flag, Some(target), header) => {
            let csv = GameCsv::with_columns(open(flag, target)?, &names);
            Some(if header { csv } else { csv.without_header() })
        }
        _ => None,
    };
    let parquet = match parquet {
        (flag, Some(target)) => match open(flag, target) {
            Ok(stream) => {
                // Emptied, the file no longer holds what a tail saved beside it was cut from.
                let parquet = GameParquet::new(stream, leads);
                Some(match target {
                    Target::File(path) => {
                        discard_saved_tail(path);
                        parquet.named(path)
                    }
                    Target::Stdout => parquet,
                })
            }
            Err(error) => {
                if let Some(csv) = csv {
                    csv.discard_if_empty();
                }
                return Err(error);
            }
        },
        _ => None,
    };
    Ok(GameFiles::new(csv, parquet))
}

/// Writes one output file's contents.
pub type OutputWriter<'a> = &'a dyn Fn(&mut dyn Write) -> io::Result<()>;

/// The names a run's summaries and histograms go by in its messages, shared by their writing
/// and the closing message, which finds by name the ones that failed.
pub(crate) const SUMMARY_CSV: &str = "the summary CSV";
pub(crate) const SUMMARY_JSON: &str = "the summary JSON";
pub(crate) const LENGTH_HISTOGRAM: &str = "the length histogram";
pub(crate) const HDR_LOG: &str = "the HdrHistogram log";
pub(crate) const STATE_FILE: &str = "the state file";

/// Writes the summary CSV and JSON and the histogram (each atomically), and the state, which
/// records where the per-game CSV ends (`csv_end`); returns what failed.
pub(crate) fn write_result_files(
    options: &RunOptions,
    info: &RunInfo,
    stats: &Stats,
    csv_end: &CsvEnd,
) -> Vec<RunError> {
    let summary = Summary::new(info, stats);
    let outputs: [(&'static str, &Option<Target>, OutputWriter); 6] = [
        (SUMMARY_CSV, &options.summary, &|out| {
            write_summary_csv(out, &summary)
        }),
        (SUMMARY_JSON, &options.json, &|out| {
            write_summary_json(out, &summary)
        }),
        (LENGTH_HISTOGRAM, &options.histogram, &|out| {
            write_histogram_csv(out, stats)
        }),
        (HDR_LOG, &options.hdr, &|out| {
            write_hdr_log(out, &[(info, stats)])
        }),
        (STATE_FILE, &options.state, &|out| {
            let mut state = State::of_run(info, stats);
            state.resume = resumable(&options.command, &options.csv, csv_end);
            state.write(out)
        }),
        ("the plot", &options.plot, &|out| {
            let (title, subtitle) = plot_titles(info, stats);
            let svg = draw_run(&title, &subtitle, stats, options.survival_scale)?;
            out.write_all(svg.as_bytes())
        }),
    ];
    write_each(&outputs)
}

/// Writes each output asked for (`what`, where, how) atomically; returns what failed, so that
/// one failure does not keep the others from being written.
pub fn write_each(outputs: &[(&'static str, &Option<Target>, OutputWriter)]) -> Vec<RunError> {
    let mut failures = Vec::new();
    for &(what, target, write) in outputs {
        let Some(target) = target else { continue };
        if let Err(source) = write_atomically(target, write) {
            failures.push(RunError::Write {
                what,
                target: target.to_string(),
                source,
                kept: String::new(),
            });
        }
    }
    failures
}

/// The report, on standard output unless an output took it (then on standard error).
pub(crate) fn write_report(
    options: &RunOptions,
    info: &RunInfo,
    stats: &Stats,
) -> Result<(), RunError> {
    write_report_with(options.stdout_taken(), &|out| {
        write_text_report(out, info, stats)
    })
}

/// Writes a report on standard output, or on standard error when an output took standard
/// output (`stdout_taken`).
pub(crate) fn write_report_with(stdout_taken: bool, write: OutputWriter) -> Result<(), RunError> {
    let (mut report, report_target): (Box<dyn Write>, &str) = if stdout_taken {
        (Box::new(io::stderr()), "standard error")
    } else {
        (Box::new(io::stdout().lock()), "standard output")
    };
    write(&mut report)
        .and_then(|()| report.flush())
        .map_err(|source| RunError::Write {
            what: "the report",
            target: report_target.to_string(),
            source,
            kept: String::new(),
        })
}

/// The output whose write stopped a batch: a per-game file, or the state file at a checkpoint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stopper {
    /// The per-game CSV or the Parquet file.
    Games(Which),
    /// The state file, saving a checkpoint.
    Checkpoint,
}

/// The write error that stopped a batch, and what it left.
#[derive(Debug)]
pub struct StopFailure {
    /// The output that failed first.
    pub stopper: Stopper,
    /// The games the per-game files hold.
    pub written: u64,
    /// Its error.
    pub source: io::Error,
    /// The Parquet file's own error, when ending it failed after that (the same full disk).
    pub parquet_lost: Option<io::Error>,
    /// The games a Parquet file whose write failed still holds (its whole row groups).
    pub parquet_kept: Option<u64>,
    /// Whether that file holds every game all the same: ended at a checkpoint, it failed to
    /// write on after it ([`GameFiles::parquet_left_whole`]).
    pub parquet_whole: bool,
}

impl StopFailure {
    /// The failure of a batch stopped by a write error ([`BatchError::Write`]: the checkpoint's,
    /// or that of the per-game file that noted one), and the statistics of the games written;
    /// any other error as it was.
    pub fn of_batch(
        error: BatchError,
        files: &GameFiles,
    ) -> Result<(Stats, StopFailure), BatchError> {
        let BatchError::Write {
            written,
            checkpoint,
            source,
            stats,
        } = error
        else {
            return Err(error);
        };
        let stopper = match checkpoint {
            true => Stopper::Checkpoint,
            false => Stopper::Games(files.stopper().unwrap_or(Which::Csv)),
        };
        Ok((*stats, StopFailure::new(stopper, written, source)))
    }

    /// A failure of `stopper` with `written` games kept.
    pub fn new(stopper: Stopper, written: u64, source: io::Error) -> StopFailure {
        StopFailure {
            stopper,
            written,
            source,
            parquet_lost: None,
            parquet_whole: false,
            parquet_kept: None,
        }
    }

    /// Ends the per-game files (the Parquet file's footer, carrying `summary()`) and notes
    /// what that left in `failure`: a new failure when none came before, else a lost Parquet
    /// file. Both files are made durable first (`fdatasync`), since the summaries and any state
    /// about to be written count their rows: a crash of the machine just after the run must not
    /// leave them shorter than the figures that describe them.
    pub fn close(
        failure: &mut Option<StopFailure>,
        mut files: GameFiles,
        summary: impl FnOnce() -> String,
        written: u64,
    ) {
        if failure.is_none()
            && let Err(source) = files.persist()
        {
            // Either file: the Parquet file too is looked at for rows lost.
            let which = files.stopper().unwrap_or(Which::Csv);
            *failure = Some(StopFailure::new(Stopper::Games(which), written, source));
        }
        match (files.close(summary), &mut *failure) {
            (Ok(()), _) => {}
            (Err((which, source)), failure @ None) => {
                *failure = Some(StopFailure::new(Stopper::Games(which), written, source));
            }
            (Err((_, source)), Some(failure)) => failure.parquet_lost = Some(source),
        }
        if let Some(failure) = failure {
            failure.parquet_kept = files.parquet_salvaged();
            failure.parquet_whole = files.parquet_left_whole();
        }
    }

    /// How to play on after a batch stopped by a disk nearly full, a full one, a quota or a
    /// file size limit, for its closing message: as after an interrupt
    /// ([`play_on`](super::play_on)), once that is mended and if the state is written (it is
    /// not among the outputs `unwritten`, named `state_named`). Empty after any other failure.
    /// A per-game CSV moved while written (`csv_moved`: its name) must be put back first, as
    /// `warsim resume` looks for it there.
    pub fn play_on(
        &self,
        (state, parquet): (&Option<Target>, &Option<Target>),
        (unwritten, state_named): (&[RunError], &str),
        csv_moved: Option<&Target>,
    ) -> String {
        let state_written = !unwritten.iter().any(|e| e.is_write_of(state_named));
        match self.mend().filter(|_| state_written) {
            Some(mend) => {
                super::checkpoints::play_on_once((state, parquet), (Some(mend), csv_moved))
            }
            None => String::new(),
        }
    }

    /// What must change before the batch can play on: room on its disk (the room watch's stop,
    /// [`RoomShort`], is a full disk's error too), or a larger file size limit; none after
    /// another error (a file removed or cut short, a device failing).
    fn mend(&self) -> Option<&'static str> {
        match self.source.kind() {
            io::ErrorKind::StorageFull | io::ErrorKind::QuotaExceeded => Some("its disk has room"),
            io::ErrorKind::FileTooLarge => Some("the file size limit is raised (`ulimit -f`)"),
            _ => None,
        }
    }

    /// True when the per-game file `which` stopped the batch by being removed or cut short
    /// while written ([`Lost`]).
    pub fn lost(&self, which: Which) -> bool {
        self.stopper == Stopper::Games(which) && Lost::is(&self.source)
    }

    /// What is left of the Parquet file: all of it unless its own write failed.
    pub fn parquet_left(&self) -> ParquetLeft {
        if self.lost(Which::Parquet) {
            return ParquetLeft::Lost;
        }
        let failed = (self.stopper == Stopper::Games(Which::Parquet)
            && !RoomShort::is(&self.source))
            || self.parquet_lost.is_some();
        match (failed && !self.parquet_whole, self.parquet_kept) {
            (false, _) => ParquetLeft::Whole,
            (true, Some(games)) => ParquetLeft::Salvaged(games),
            (true, None) => ParquetLeft::Unreadable,
        }
    }

    /// Puts its errors before the other outputs' `failures` (`(csv, parquet, state)` name the
    /// outputs): which output stopped the batch, where, and what was `kept`; then the Parquet
    /// file's, if it was lost after. A closed pipe (`| head` read what it wanted) is returned at
    /// once: nothing to report.
    pub fn put_first(
        self,
        (csv, parquet, state): (&Option<Target>, &Option<Target>, &Option<Target>),
        kept: String,
        failures: &mut Vec<RunError>,
    ) -> Result<(), RunError> {
        let broken_pipe = self.source.kind() == io::ErrorKind::BrokenPipe;
        let (what, target) = match self.stopper {
            Stopper::Games(Which::Csv) => ("the per-game CSV", csv),
            Stopper::Games(Which::Parquet) => ("the Parquet file", parquet),
            Stopper::Checkpoint => ("a checkpoint (the state file)", state),
        };
        let name = |target: &Option<Target>| target.as_ref().map(Target::to_string);
        let mut errors = vec![RunError::Write {
            what,
            target: name(target).unwrap_or_default(),
            source: self.source,
            kept,
        }];
        if let Some(source) = self.parquet_lost {
            errors.push(RunError::Write {
                what: "the Parquet file",
                target: name(parquet).unwrap_or_default(),
                source,
                kept: String::new(),
            });
        }
        if broken_pipe {
            return Err(errors.remove(0));
        }
        failures.splice(0..0, errors);
        Ok(())
    }
}
