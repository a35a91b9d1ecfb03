//! CSV outputs: the per-game stream (one row per game, in game order) and the one-row summary.

use std::io::{self, Write};

use crate::batch::{BatchSpec, RecordSink};
use crate::engine::GameRecord;

use super::Summary;

/// The per-game CSV header.
pub const GAME_CSV_HEADER: [&str; 8] = [
    "game",
    "seed",
    "rounds",
    "winner",
    "outcome",
    "wars",
    "longest_war",
    "decided_by",
];

/// Streams game records as CSV rows.
pub struct GameCsv {
    out: csv::Writer<Box<dyn Write + Send>>,
}

impl GameCsv {
    /// Writes the header and returns the sink.
    pub fn new(out: Box<dyn Write + Send>) -> io::Result<GameCsv> {
        let mut out = csv::WriterBuilder::new()
            .buffer_capacity(1 << 16)
            .from_writer(out);
        out.write_record(GAME_CSV_HEADER).map_err(into_io)?;
        Ok(GameCsv { out })
    }
}

impl RecordSink for GameCsv {
    fn write_games(
        &mut self,
        spec: &BatchSpec,
        first: u64,
        records: &[GameRecord],
    ) -> io::Result<()> {
        let mut numbers = [
            itoa::Buffer::new(),
            itoa::Buffer::new(),
            itoa::Buffer::new(),
        ];
        let mut more = [
            itoa::Buffer::new(),
            itoa::Buffer::new(),
            itoa::Buffer::new(),
        ];
        for (offset, record) in records.iter().enumerate() {
            let game = first + offset as u64;
            let [game_text, seed_text, rounds_text] = &mut numbers;
            let [winner_text, wars_text, longest_text] = &mut more;
            let winner = match record.winner {
                Some(seat) => winner_text.format(u32::from(seat) + 1),
                None => "",
            };
            self.out
                .write_record([
                    game_text.format(game),
                    seed_text.format(spec.rules.game_seed(spec.seed, game)),
                    rounds_text.format(record.rounds),
                    winner,
                    record.outcome.name(),
                    wars_text.format(record.wars),
                    longest_text.format(record.longest_war),
                    record.win_by.map_or("", |by| by.name()),
                ])
                .map_err(into_io)?;
        }
        Ok(())
    }

    fn finish(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// Writes the summary as a header row and one value row.
pub fn write_summary_csv(out: Box<dyn Write + Send>, summary: &Summary) -> io::Result<()> {
    let mut out = csv::Writer::from_writer(out);
    out.write_record(summary.fields.iter().map(|(k, _)| k.as_str()))
        .map_err(into_io)?;
    out.write_record(summary.fields.iter().map(|(_, v)| v.to_string()))
        .map_err(into_io)?;
    out.flush()
}

/// The underlying I/O error of a CSV error, so a broken pipe stays recognisable.
fn into_io(error: csv::Error) -> io::Error {
    match error.into_kind() {
        csv::ErrorKind::Io(error) => error,
        other => io::Error::other(format!("{other:?}")),
    }
}
