//! The one-line description of a rule set that reports, plots and `warsim rules` print: the
//! preset and every setting in words, counts of one in the singular. Summaries do not use it;
//! they name each setting in a column of its own.

use super::{Deal, Family, Generator, Rules, Shuffle};

impl Rules {
    /// One line naming the preset and every setting, for reports and plots (summaries name
    /// the settings a key each).
    pub fn describe(&self) -> String {
        let mut deck = format!(
            "{} players, {} × {}",
            self.players,
            counted(u64::from(self.suits), "suit"),
            counted(u64::from(self.ranks), "rank")
        );
        if self.deal != Deal::FromTop || self.generator != Generator::Xoshiro {
            deck += &format!(", dealt {}, {}", self.deal, self.generator);
        }
        if self.shuffle != Shuffle::FisherYates {
            deck += &format!(", {} shuffles", self.shuffle);
        }
        match self.family {
            Family::FixedRounds => format!(
                "{} ({deck}: each player its own deck of {}, {} a match)",
                self.preset,
                counted(u64::from(self.cards()), "card"),
                counted(u64::from(self.cards()), "round")
            ),
            Family::Groups => format!(
                "{} ({deck}, {} dealt ({}); every tied group wars with {} + a champion shown {}; spoil heaps; cap {}{})",
                self.preset,
                group(self.cards_in_play()),
                self.uneven,
                counted(u64::from(self.face_down), "stake"),
                self.champion,
                counted(u64::from(self.max_rounds), "round"),
                match self.abandon_after {
                    0 => String::new(),
                    n => format!(
                        ", abandoned after {} in a row without a winner",
                        counted(u64::from(n), "round")
                    ),
                }
            ),
            Family::Table => format!(
                "{} ({deck}; war {} down + 1 up, shortage {}, pickup {}, spoils {}, {}, cap {} → {})",
                self.preset,
                self.face_down,
                self.shortage,
                self.pickup,
                self.spoils,
                match self.reshuffle_every {
                    0 => "no reshuffle".to_string(),
                    1 => "reshuffle every round".to_string(),
                    n => format!("reshuffle every {}", counted(u64::from(n), "round")),
                },
                counted(u64::from(self.max_rounds), "round"),
                self.at_cap
            ),
        }
    }
}

/// "1 round", "2,000 rounds": `n` things, grouped, in the singular for one.
// Here, under the rules' description, the lowest layer that writes counts, so that it and the
// reports (`export::text`, which re-exports these) write them alike.
pub fn counted(n: impl Into<u128>, thing: &str) -> String {
    match n.into() {
        1 => format!("1 {thing}"),
        n => format!("{} {thing}s", group(n)),
    }
}

/// 1234567 → "1,234,567", for any unsigned count (a deck may have more sequences than a u64
/// holds).
pub fn group(n: impl Into<u128>) -> String {
    let digits = n.into().to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::engine::Preset;

    #[test]
    fn the_description_counts_one_in_the_singular_and_groups_thousands() {
        let mut table = Preset::Classic.rules();
        (
            table.suits,
            table.ranks,
            table.reshuffle_every,
            table.max_rounds,
        ) = (1, 2, 1, 1);
        let text = table.describe();
        assert!(text.contains("1 suit × 2 ranks;"), "{text}");
        assert!(
            text.contains("reshuffle every round, cap 1 round →"),
            "{text}"
        );
        let mut groups = Preset::WarSimulator.rules();
        (groups.face_down, groups.max_rounds, groups.abandon_after) = (1, 7, 1);
        let text = groups.describe();
        assert!(text.contains("with 1 stake + a champion"), "{text}");
        assert!(
            text.contains("cap 7 rounds, abandoned after 1 round in a row"),
            "{text}"
        );
        // Counts grouped by thousands, as the reports write every other count.
        let mut big = Preset::Classic.rules();
        (big.suits, big.ranks, big.reshuffle_every) = (4, 256, 2500);
        let text = big.describe();
        assert!(text.contains("4 suits × 256 ranks"), "{text}");
        assert!(
            text.contains("reshuffle every 2,500 rounds, cap 100,000 rounds →"),
            "{text}"
        );
        let mut wide = Preset::WarSimulator.rules();
        (wide.suits, wide.ranks) = (8, 128);
        assert!(wide.describe().contains(", 1,024 dealt (drop-lowest)"));
        let mut fixed = Preset::FixedRounds.rules();
        (fixed.suits, fixed.ranks) = (1, 1);
        assert!(
            fixed
                .describe()
                .ends_with("deck of 1 card, 1 round a match)")
        );
    }
}
