//! The cells of a sweep: each rule flag's comma list (`2,3,4`) or inclusive range (`6..13`,
//! `2..32..2`), and every combination of them, in flag order with the last flag varying
//! fastest. A combination the preset cannot take is kept aside with the reason, so the sweep
//! can refuse it up front or skip it and say so.

use crate::config::{
    ConfigError, RuleChoice, named_value, parse_count, parse_setting, preset_named,
};
use crate::engine::rules::{AtCap, Champion, GroupOrder, Named, Pickup, Shortage, Shuffle, Spoils};
use crate::engine::{Preset, Rules};

/// Most cells one sweep may have.
pub const MAX_CELLS: usize = 100_000;

/// The rule flags a sweep varies, with the column each gets in its tables (the summary's key).
pub const AXES: [(&str, &str); 15] = [
    ("--rules", "rules"),
    ("--players", "players"),
    ("--suits", "suits"),
    ("--ranks", "ranks"),
    ("--face-down", "face_down"),
    ("--war-shortage", "war_shortage"),
    ("--pickup", "pickup"),
    ("--spoils", "spoils"),
    ("--reshuffle-every", "reshuffle_every"),
    ("--max-rounds", "max_rounds"),
    ("--at-cap", "at_cap"),
    ("--shuffle", "shuffle"),
    ("--champion", "champion"),
    ("--group-order", "group_order"),
    ("--abandon-after", "abandon_after"),
];

/// One combination of settings that can be played.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    /// The value of every given flag, in [`Grid::keys`] order, as the tables show it.
    pub values: Vec<String>,
    /// The rules it plays.
    pub rules: Rules,
}

/// One combination that cannot be played, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Skipped {
    /// The value of every given flag, as in [`Cell::values`].
    pub values: Vec<String>,
    /// The error `warsim run` would give for it.
    pub reason: String,
}

/// Every combination of the given flags' values.
#[derive(Clone, Debug, PartialEq)]
pub struct Grid {
    /// The table columns of the given flags, in [`AXES`] order.
    pub keys: Vec<&'static str>,
    /// The combinations that can be played, in sweep order.
    pub cells: Vec<Cell>,
    /// The combinations that cannot.
    pub skipped: Vec<Skipped>,
}

impl Grid {
    /// Cell `index` as the tables and figures number it, from 0, with the numbers in use, for
    /// messages (`cell 1 of cells 0 to 3`): "cell 2 of 4" would be read as the table's cell 2.
    pub fn cell_named(&self, index: usize) -> String {
        match self.cells.len() {
            0 | 1 => format!("cell {index}, the only one"),
            cells => format!("cell {index} of cells 0 to {}", cells - 1),
        }
    }

    /// Builds the grid from `(flag, text)` pairs, one per rule flag given; the other settings
    /// are the preset's. Refuses malformed lists and ranges, but keeps unplayable combinations
    /// in [`Grid::skipped`].
    pub fn parse(given: &[(&'static str, String)]) -> Result<Grid, ConfigError> {
        let mut axes: Vec<(&'static str, Vec<String>)> = Vec::new();
        for &(flag, key) in &AXES {
            if let Some((_, text)) = given.iter().find(|(f, _)| *f == flag) {
                axes.push((key, values_of(flag, text)?));
            }
        }
        let count = axes
            .iter()
            .try_fold(1usize, |n, (_, values)| n.checked_mul(values.len()))
            .filter(|&n| n <= MAX_CELLS)
            .ok_or_else(|| {
                sweep_error(format!(
                    "the rule flags make more than {MAX_CELLS} combinations: sweep fewer values"
                ))
            })?;
        let mut grid = Grid {
            keys: axes.iter().map(|(key, _)| *key).collect(),
            cells: Vec::new(),
            skipped: Vec::new(),
        };
        for index in 0..count {
            let mut rest = index;
            let mut values = vec![String::new(); axes.len()];
            for (slot, (_, axis)) in values.iter_mut().zip(&axes).rev() {
                *slot = axis[rest % axis.len()].clone();
                rest /= axis.len();
            }
            match choice_of(&grid.keys, &values).and_then(|c| c.rules(Preset::Classic)) {
                Ok(rules) => grid.cells.push(Cell { values, rules }),
                Err(error) => grid.skipped.push(Skipped {
                    values,
                    // `run`'s advice to remove the flag does not fit one combination of many.
                    reason: error
                        .to_string()
                        .trim_end_matches("; remove it")
                        .to_string(),
                }),
            }
        }
        Ok(grid)
    }

    /// `players=3 ranks=6`: a combination as the report names it.
    pub fn label(&self, values: &[String]) -> String {
        let parts: Vec<String> = self
            .keys
            .iter()
            .zip(values)
            .map(|(key, value)| format!("{key}={value}"))
            .collect();
        parts.join(" ")
    }
}

fn sweep_error(message: String) -> ConfigError {
    ConfigError::Sweep(message)
}

/// The values of one flag, each in its canonical spelling.
fn values_of(flag: &'static str, text: &str) -> Result<Vec<String>, ConfigError> {
    let mut values: Vec<String> = Vec::new();
    // A range may give 100,000 values: a set keeps the check for repeats linear.
    let mut seen = std::collections::HashSet::new();
    for item in text.split(',') {
        let item = item.trim();
        let new = match flag {
            "--rules" => vec![preset_named(item)?.name().to_string()],
            "--war-shortage" => vec![named_value::<Shortage>(flag, item)?.name().to_string()],
            "--pickup" => vec![named_value::<Pickup>(flag, item)?.name().to_string()],
            "--spoils" => vec![named_value::<Spoils>(flag, item)?.name().to_string()],
            "--at-cap" => vec![named_value::<AtCap>(flag, item)?.name().to_string()],
            "--shuffle" => vec![named_value::<Shuffle>(flag, item)?.name().to_string()],
            "--champion" => vec![named_value::<Champion>(flag, item)?.name().to_string()],
            "--group-order" => vec![named_value::<GroupOrder>(flag, item)?.name().to_string()],
            _ => numbers_of(flag, text, item)?
                .into_iter()
                .map(|n| n.to_string())
                .collect(),
        };
        for value in new {
            if !seen.insert(value.clone()) {
                return Err(sweep_error(format!(
                    "{flag} '{text}' gives {value} twice: give each value once"
                )));
            }
            values.push(value);
        }
    }
    Ok(values)
}

/// One item of a numeric flag: a number, `a..b` or `a..b..step` (inclusive).
fn numbers_of(flag: &str, text: &str, item: &str) -> Result<Vec<u32>, ConfigError> {
    let bad = |why: String| sweep_error(format!("invalid {flag} '{text}': {why}"));
    if item.len() == 3 && item.starts_with('0') && item.chars().all(|c| c.is_ascii_digit()) {
        return Err(bad(
            "in a sweep commas separate values, not thousands: write 10000, 10_000 or 1e4".into(),
        ));
    }
    let parts: Vec<&str> = item.split("..").collect();
    let number = |part: &str| parse_setting(flag, part).map_err(bad);
    match parts[..] {
        [one] => Ok(vec![number(one)?]),
        [from, to] | [from, to, _] => {
            let (from, to) = (number(from)?, number(to)?);
            // A step past a u32 takes the range's first value alone, as any past TO - FROM.
            // A step that is no count (`-1`, `1.5`) is refused below, with the range's form.
            let step = match parts.get(2) {
                Some(step) => parse_count(step).map_or(0, |s| s.min(u32::MAX.into()) as u32),
                None => 1,
            };
            if step == 0 || from > to {
                return Err(bad(format!(
                    "a range is FROM..TO or FROM..TO..STEP with FROM ≤ TO and STEP a whole number ≥ 1, as in 6..13 or 2..32..2 (got '{item}')"
                )));
            }
            // Counted in 64 bits: 0..4294967295 has 2^32 values, one more than a u32 holds.
            let count = u64::from((to - from) / step) + 1;
            if count > MAX_CELLS as u64 {
                return Err(bad(format!("'{item}' has more than {MAX_CELLS} values")));
            }
            Ok((0..count as u32).map(|k| from + k * step).collect())
        }
        _ => Err(bad(format!(
            "'{item}' is neither a number nor a range such as 6..13 or 2..32..2"
        ))),
    }
}

/// The settings of one combination; the values were checked when the grid was parsed.
fn choice_of(keys: &[&str], values: &[String]) -> Result<RuleChoice, ConfigError> {
    let mut choice = RuleChoice::default();
    for (&key, value) in keys.iter().zip(values) {
        let flag = AXES.iter().find(|&&(_, k)| k == key).map(|&(flag, _)| flag);
        let set = choice.set_flag(flag.unwrap_or_default(), value)?;
        assert!(set, "AXES lists every key, each a rule flag");
    }
    Ok(choice)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(given: &[(&'static str, &str)]) -> Result<Grid, ConfigError> {
        let given: Vec<(&'static str, String)> =
            given.iter().map(|(f, t)| (*f, t.to_string())).collect();
        Grid::parse(&given)
    }

    #[test]
    fn lists_and_ranges_make_every_combination_last_flag_fastest() {
        let g = grid(&[("--ranks", "6..8"), ("--players", "2,4")]).unwrap();
        assert_eq!(g.keys, ["players", "ranks"]);
        let cells: Vec<Vec<String>> = g.cells.iter().map(|c| c.values.clone()).collect();
        let expect = [
            ["2", "6"],
            ["2", "7"],
            ["2", "8"],
            ["4", "6"],
            ["4", "7"],
            ["4", "8"],
        ];
        assert_eq!(cells, expect.map(|c| c.map(String::from).to_vec()));
        assert_eq!((g.cells[4].rules.players, g.cells[4].rules.ranks), (4, 7));
        assert!(g.skipped.is_empty());
    }

    #[test]
    fn steps_names_and_canonical_spellings() {
        let g = grid(&[("--suits", "2..9..3, 12"), ("--pickup", "Shuffled,table")]).unwrap();
        let suits: Vec<&str> = g.cells.iter().step_by(2).map(|c| &*c.values[0]).collect();
        assert_eq!(suits, ["2", "5", "8", "12"]);
        assert_eq!(g.cells[0].values[1], "shuffled");
        assert_eq!(
            grid(&[("--max-rounds", "1e3,1_000_0")])
                .unwrap()
                .cells
                .len(),
            2
        );
    }

    #[test]
    fn malformed_lists_are_refused_with_the_flag_named() {
        for (flag, text, needle) in [
            ("--ranks", "8..6", "FROM ≤ TO"),
            ("--ranks", "2..8..0", "STEP a whole number ≥ 1"),
            (
                "--ranks",
                "2..8..-1",
                "STEP a whole number ≥ 1, as in 6..13 or 2..32..2 (got '2..8..-1')",
            ),
            ("--ranks", "2..8..1.5", "STEP a whole number ≥ 1"),
            ("--ranks", "2..4..6..8", "neither a number nor a range"),
            ("--ranks", "x", "whole number"),
            ("--players", "2,2", "twice"),
            ("--reshuffle-every", "0..99999,5000", "gives 5000 twice"),
            ("--max-rounds", "10,000", "not thousands"),
            ("--pickup", "sideways", "choose one of"),
            ("--rules", "chess", "unknown --rules"),
            ("--ranks", "1..4294967295", "more than"),
            // 2^32 values: the count overflowed a u32, to a panic or an empty sweep.
            ("--reshuffle-every", "0..4294967295", "more than"),
            ("--abandon-after", "0..4294967295..1", "more than"),
        ] {
            let message = grid(&[(flag, text)]).unwrap_err().to_string();
            assert!(
                message.contains(flag) && message.contains(needle),
                "{flag} {text}: {message}"
            );
        }
        let big = grid(&[("--ranks", "1..1000"), ("--suits", "1..1000")]).unwrap_err();
        assert!(
            big.to_string().contains("more than 100000 combinations"),
            "{big}"
        );
    }

    #[test]
    fn unplayable_combinations_are_kept_aside_with_the_reason() {
        let g = grid(&[
            ("--rules", "classic,war-simulator"),
            ("--pickup", "table,shuffled"),
        ])
        .unwrap();
        assert_eq!(g.cells.len(), 2);
        assert_eq!(g.skipped.len(), 2);
        assert_eq!(
            g.label(&g.skipped[0].values),
            "rules=war-simulator pickup=table"
        );
        assert!(g.skipped[0].reason.contains("--pickup does not apply"));
        let too_big = grid(&[("--suits", "4,100")]).unwrap();
        assert_eq!((too_big.cells.len(), too_big.skipped.len()), (1, 1));
    }
}
