//! `warsim run`: opens the outputs, plays the batch with a progress bar, and writes the report,
//! the summary CSV and JSON. Knows nothing of clap.

use std::fs;
use std::io::{self, Write};
use std::path::Path;
use std::time::Instant;

use crate::batch::{BatchError, BatchSpec, RecordSink, run_batch};
use crate::config::{ConfigError, RunOptions};
use crate::export::{
    GameCsv, RunInfo, Summary, Target, write_summary_csv, write_summary_json, write_text_report,
};
use crate::progress::games_bar;

/// Why a run stopped.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// Bad input, found before any game was played.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// The batch could not finish.
    #[error(transparent)]
    Batch(#[from] BatchError),
    /// An output could not be written.
    #[error("could not write {what} to {target}: {source}")]
    Write {
        what: &'static str,
        target: String,
        source: io::Error,
    },
}

impl RunError {
    /// True when the error is a closed pipe on the reading side (`warsim run ... | head`).
    pub fn is_broken_pipe(&self) -> bool {
        let io_error = match self {
            RunError::Batch(BatchError::Write { source, .. }) => source,
            RunError::Write { source, .. } => source,
            _ => return false,
        };
        io_error.kind() == io::ErrorKind::BrokenPipe
    }
}

/// Plays the batch described by `options` and writes every output.
pub fn run(options: &RunOptions) -> Result<(), RunError> {
    options.validate()?;
    let mut opened = open_outputs(options)?;
    let spec = BatchSpec {
        rules: options.rules.clone(),
        games: options.games,
        seed: options.seed,
        threads: options.threads,
    };
    let bar = games_bar(options.games, options.quiet);
    let started = Instant::now();
    let mut csv_sink = match opened.csv.take() {
        Some(out) => Some(GameCsv::new(out).map_err(|source| {
            RunError::Write {
                what: "the per-game CSV",
                target: options
                    .csv
                    .as_ref()
                    .map(Target::to_string)
                    .unwrap_or_default(),
                source,
            }
        })?),
        None => None,
    };
    let sink = csv_sink.as_mut().map(|s| s as &mut dyn RecordSink);
    let stats = run_batch(&spec, sink, &|games| bar.inc(games))?;
    bar.finish_and_clear();
    let info = RunInfo {
        rules: options.rules.clone(),
        seed: options.seed,
        threads: options.threads,
        elapsed: started.elapsed(),
    };
    let summary = Summary::new(&info, &stats);
    if let (Some(out), Some(target)) = (opened.summary.take(), &options.summary) {
        write_summary_csv(out, &summary).map_err(|source| RunError::Write {
            what: "the summary CSV",
            target: target.to_string(),
            source,
        })?;
    }
    if let (Some(out), Some(target)) = (opened.json.take(), &options.json) {
        write_summary_json(out, &summary).map_err(|source| RunError::Write {
            what: "the summary JSON",
            target: target.to_string(),
            source,
        })?;
    }
    // Standard output may carry a CSV or JSON stream; the report then goes to stderr.
    let (mut report, report_target): (Box<dyn Write>, &str) = if options.stdout_taken() {
        (Box::new(io::stderr()), "standard error")
    } else {
        (Box::new(io::stdout().lock()), "standard output")
    };
    write_text_report(&mut report, &info, &stats)
        .and_then(|_| report.flush())
        .map_err(|source| RunError::Write {
            what: "the report",
            target: report_target.to_string(),
            source,
        })
}

type OutputSlot<'a> = (
    &'static str,
    &'a Option<Target>,
    &'a mut Option<Box<dyn Write + Send>>,
);

#[derive(Default)]
struct Opened {
    csv: Option<Box<dyn Write + Send>>,
    summary: Option<Box<dyn Write + Send>>,
    json: Option<Box<dyn Write + Send>>,
}

/// Creates every output file before any game is played, so a bad path costs nothing. If one
/// fails, the files created just before it are removed again.
fn open_outputs(options: &RunOptions) -> Result<Opened, ConfigError> {
    let mut opened = Opened::default();
    let mut created: Vec<&Path> = Vec::new();
    let slots: [OutputSlot; 3] = [
        ("--csv", &options.csv, &mut opened.csv),
        ("--summary", &options.summary, &mut opened.summary),
        ("--json", &options.json, &mut opened.json),
    ];
    for (flag, target, slot) in slots {
        let Some(target) = target else { continue };
        match open_one(flag, target) {
            Ok(out) => {
                if let Target::File(path) = target {
                    created.push(path);
                }
                *slot = Some(out);
            }
            Err(error) => {
                for path in created {
                    let _ = fs::remove_file(path);
                }
                return Err(error);
            }
        }
    }
    Ok(opened)
}

fn open_one(flag: &'static str, target: &Target) -> Result<Box<dyn Write + Send>, ConfigError> {
    let failure = |reason: String| ConfigError::Output {
        flag,
        path: target.to_string(),
        reason,
    };
    if let Target::File(path) = target {
        let folder = path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        if !folder.is_dir() {
            return Err(failure(format!(
                "folder '{}' does not exist: create it or choose another path",
                folder.display()
            )));
        }
        if path.is_dir() {
            return Err(failure("is a folder: give a file name".to_string()));
        }
    }
    target
        .create()
        .map_err(|e| failure(format!("cannot be written ({e}): choose a writable path")))
}
