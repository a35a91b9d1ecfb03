//! The per-game CSV's rows, formatted by hand: each row is built in a small buffer of its own
//! and appended whole. Appending field by field (with itoa, as before) cost a `memcpy` call for
//! each of a row's nine fields, about half of its 45 ns; on two busy cores, the rows' formatting
//! took a tenth of a `--csv` run's CPU (`benches/rows.rs`, `results/`). The bytes are the same.

use crate::batch::BatchSpec;
use crate::engine::{GameRecord, Outcome, WinBy};

/// Room for a row past its prefix: the game, seed, wars and cards played (20 digits each),
/// rounds and longest war (10), the winner (3), two names copied as 16 bytes each, and nine
/// separators, with some to spare.
const ROOM: usize = 160;

/// A name as a fixed 16-byte copy and its length: copying a constant size is a few stores, where
/// a name's own length made each copy a call.
type Padded = ([u8; 16], usize);

/// Appends the rows of games `first`, `first + 1`, ... (their `records`) to `rows`, each led
/// by `prefix` (a sweep cell's settings, with their comma).
pub fn format_rows(
    prefix: &[u8],
    spec: &BatchSpec,
    first: u64,
    records: &[GameRecord],
    rows: &mut Vec<u8>,
) {
    let outcomes = Outcome::ALL.map(|outcome| padded(outcome.name()));
    let decided = WinBy::ALL.map(|by| padded(by.name()));
    let mut row = Row {
        bytes: vec![0; prefix.len() + ROOM],
        at: 0,
    };
    row.bytes[..prefix.len()].copy_from_slice(prefix);
    for (offset, record) in records.iter().enumerate() {
        let game = first + offset as u64;
        row.at = prefix.len();
        row.number(game).comma();
        row.number(spec.rules.game_seed(spec.seed, game)).comma();
        row.number(u64::from(record.rounds)).comma();
        if let Some(seat) = record.winner {
            row.number(u64::from(seat) + 1);
        }
        row.comma().name(&outcomes[record.outcome as usize]).comma();
        row.number(record.wars).comma();
        row.number(u64::from(record.longest_war)).comma();
        if let Some(by) = record.win_by {
            row.name(&decided[by as usize]);
        }
        row.comma().number(record.cards_played);
        row.bytes[row.at] = b'\n';
        rows.extend_from_slice(&row.bytes[..=row.at]);
    }
}

/// `name` as a [`Padded`] copy (every outcome's and win's name is shorter than 16 bytes).
fn padded(name: &str) -> Padded {
    let mut bytes = [0; 16];
    bytes[..name.len()].copy_from_slice(name.as_bytes());
    (bytes, name.len())
}

/// A row being built: its prefix and [`ROOM`] bytes, written up to `at`.
struct Row {
    bytes: Vec<u8>,
    at: usize,
}

impl Row {
    #[inline(always)]
    fn comma(&mut self) -> &mut Self {
        self.bytes[self.at] = b',';
        self.at += 1;
        self
    }

    /// A name, copied as all 16 bytes (the row's room allowing).
    #[inline(always)]
    fn name(&mut self, (bytes, len): &Padded) -> &mut Self {
        self.bytes[self.at..self.at + 16].copy_from_slice(bytes);
        self.at += len;
        self
    }

    /// `n` in decimal: up to eight digits from a `u32` at once, and as many runs of exactly
    /// eight as the rest takes (a seed: 4 + 8 + 8), each one store of [`eight_digits`]. (Two
    /// digits at a time from a `u64`, a seed's 20 took a chain of ten divisions.)
    #[inline(always)]
    fn number(&mut self, n: u64) -> &mut Self {
        const RUN: u64 = 100_000_000;
        if n < RUN {
            return self.short(n as u32);
        }
        let (high, low) = (n / RUN, (n % RUN) as u32);
        if high < RUN {
            self.short(high as u32);
        } else {
            self.short((high / RUN) as u32).eight((high % RUN) as u32);
        }
        self.eight(low)
    }

    /// `n` below 10^8 in its own digits: all eight stored, those of its leading zeros shifted
    /// out, the bytes past its last digit overwritten by what follows.
    #[inline(always)]
    fn short(&mut self, n: u32) -> &mut Self {
        let digits = n.checked_ilog10().map_or(1, |d| d + 1);
        let ascii = eight_digits(n) >> (8 * (8 - digits));
        self.bytes[self.at..self.at + 8].copy_from_slice(&ascii.to_le_bytes());
        self.at += digits as usize;
        self
    }

    /// `n` below 10^8 as exactly eight digits.
    #[inline(always)]
    fn eight(&mut self, n: u32) -> &mut Self {
        self.bytes[self.at..self.at + 8].copy_from_slice(&eight_digits(n).to_le_bytes());
        self.at += 8;
        self
    }
}

/// `n` below 10^8 as eight ASCII digits, leading zeros kept, the first in the lowest byte (as
/// they lie in memory once stored). Its halves, quarters and digits are split in lanes of one
/// `u64` at once, each division a multiply and a shift exact in its range (SWAR, "SIMD within a
/// register").
#[inline(always)]
fn eight_digits(n: u32) -> u64 {
    // Two 32-bit lanes, the first four digits' number in the low lane: v / 100 as
    // (v × 10,486) >> 20 holds for v below 43,699.
    let halves = u64::from(n / 10_000) | (u64::from(n % 10_000) << 32);
    let high_pairs = ((halves * 10_486) >> 20) & 0x0000_007F_0000_007F;
    // Four 16-bit lanes of two digits each: u / 10 as (u × 103) >> 10 holds for u below 179.
    let pairs = high_pairs | ((halves - 100 * high_pairs) << 16);
    let tens = ((pairs * 103) >> 10) & 0x000F_000F_000F_000F;
    let digits = tens | ((pairs - 10 * tens) << 8);
    digits | 0x3030_3030_3030_3030
}

#[cfg(test)]
mod tests {
    use std::fmt::Write;

    use super::*;
    use crate::engine::Preset;

    /// A row as `format!` writes it: the reference the hand-made digits must match.
    fn reference(prefix: &str, spec: &BatchSpec, game: u64, r: &GameRecord) -> String {
        let mut row = String::new();
        write!(
            row,
            "{prefix}{game},{},{},",
            spec.rules.game_seed(spec.seed, game),
            r.rounds
        )
        .unwrap();
        if let Some(seat) = r.winner {
            write!(row, "{}", u32::from(seat) + 1).unwrap();
        }
        write!(row, ",{},{},{},", r.outcome.name(), r.wars, r.longest_war).unwrap();
        row += r.win_by.map_or("", |by| by.name());
        writeln!(row, ",{}", r.cards_played).unwrap();
        row
    }

    #[test]
    fn eight_digits_are_those_format_writes() {
        let edges = [0, 1, 9, 10, 99, 100, 9_999, 10_000, 43_698, 99_999_999];
        for n in (0..100_000_000).step_by(9_973).chain(edges) {
            let ascii = eight_digits(n).to_le_bytes();
            assert_eq!(std::str::from_utf8(&ascii).unwrap(), format!("{n:08}"));
        }
    }

    #[test]
    fn the_tables_follow_the_enums_order() {
        for (i, outcome) in Outcome::ALL.into_iter().enumerate() {
            assert_eq!(outcome as usize, i);
        }
        for (i, by) in WinBy::ALL.into_iter().enumerate() {
            assert_eq!(by as usize, i);
        }
    }

    #[test]
    fn rows_are_those_format_writes_at_every_width_and_name() {
        // Every digit count of each field (0, 9, 10, 99, 100, ... and the types' largest), with
        // every outcome and win, no winner and seat 256, and game numbers near u64::MAX.
        let mut widths: Vec<u64> = vec![0, u64::MAX];
        for digits in 1..20 {
            let power = 10u64.pow(digits);
            widths.extend([power - 1, power, power + 1]);
        }
        let mut records = Vec::new();
        for (i, &n) in widths.iter().enumerate() {
            records.push(GameRecord {
                rounds: n.min(u64::from(u32::MAX)) as u32,
                winner: [None, Some(0), Some(8), Some(9), Some(98), Some(255)][i % 6],
                outcome: Outcome::ALL[i % Outcome::ALL.len()],
                win_by: [None, Some(WinBy::ALL[i % WinBy::ALL.len()])][i % 2],
                wars: n,
                longest_war: (n / 3).min(u64::from(u32::MAX)) as u32,
                cards_played: u64::MAX - n,
            });
        }
        for (prefix, first) in [("", 0), ("12,4,13,sudden_death,", u64::MAX - 200)] {
            let spec = BatchSpec {
                rules: Preset::Classic.rules(),
                first,
                games: records.len() as u64,
                seed: 99,
                threads: 1,
            };
            let mut rows = Vec::new();
            format_rows(prefix.as_bytes(), &spec, first, &records, &mut rows);
            let expected: String = (records.iter().enumerate())
                .map(|(i, r)| reference(prefix, &spec, first + i as u64, r))
                .collect();
            assert_eq!(String::from_utf8(rows).unwrap(), expected);
        }
    }
}
