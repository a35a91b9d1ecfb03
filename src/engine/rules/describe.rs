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
            counted(self.suits, "suit"),
            counted(self.ranks, "rank")
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
                counted(self.cards(), "card"),
                counted(self.cards(), "round")
            ),
            Family::Groups => format!(
                "{} ({deck}, {} dealt ({}); every tied group wars with {} + a champion shown {}; spoil heaps; cap {}{})",
                self.preset,
                self.cards_in_play(),
                self.uneven,
                counted(self.face_down, "stake"),
                self.champion,
                counted(self.max_rounds, "round"),
                match self.abandon_after {
                    0 => String::new(),
                    n => format!(
                        ", abandoned after {} in a row without a winner",
                        counted(n, "round")
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
                    n => format!("reshuffle every {n} rounds"),
                },
                counted(self.max_rounds, "round"),
                self.at_cap
            ),
        }
    }
}

/// "1 round", "100000 rounds"; "1 suit", "4 suits".
pub(super) fn counted(n: u32, thing: &str) -> String {
    match n {
        1 => format!("1 {thing}"),
        n => format!("{n} {thing}s"),
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::Preset;

    #[test]
    fn the_description_counts_one_in_the_singular() {
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
        let mut fixed = Preset::FixedRounds.rules();
        (fixed.suits, fixed.ranks) = (1, 1);
        assert!(
            fixed
                .describe()
                .ends_with("deck of 1 card, 1 round a match)")
        );
    }
}
