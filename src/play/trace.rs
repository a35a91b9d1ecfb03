//! One game of a shared-deck preset printed at war_card_game's output levels: one-line, quiet
//! (seed, shuffled deck, result), normal (decks, starting hands, result, longest war) and
//! verbose (every round: piles, cards played, wars, winner).

use std::io::{self, Write};

use crate::engine::random::GameRandom;

use crate::engine::card::Card;
use crate::engine::game::{Observer, PileGame, Play, Step};
use crate::engine::{GameRecord, Rules, SuitedCard, WinBy};

use super::Level;
use super::cards::{BACK, CardNames};

/// Deals and plays the game of `seed` (or of the `given` hands, `seed` then drawing only what
/// comes after the deal), printing it at `level`.
pub fn play_and_print<const CAP: usize, R: GameRandom>(
    game: &mut PileGame<SuitedCard, CAP>,
    rules: &Rules,
    (seed, given): (u64, Option<&[Vec<SuitedCard>]>),
    rng: &mut R,
    level: Level,
    out: &mut dyn Write,
) -> io::Result<GameRecord> {
    let names = CardNames::for_rules(rules);
    if level >= Level::Normal {
        writeln!(out, "Starting game!")?;
        if given.is_none() {
            writeln!(out, "Deck: {}", names.list(&unshuffled(rules)))?;
        }
    }
    match given {
        None => game.deal(rules, rng),
        Some(hands) => game.set_hands(hands),
    }
    let dealt: Vec<usize> = (0..rules.players as usize).collect();
    if level >= Level::Quiet {
        match given {
            None => {
                writeln!(out, "Shuffling deck with seed {seed}")?;
                writeln!(out, "Deck: {}", names.list(&game.shuffled_deck(rules)))?;
            }
            Some(hands) => {
                writeln!(
                    out,
                    "Dealing the given hands (seed {seed} for chance after the deal)"
                )?;
                writeln!(out, "Deck: {}", names.list(&hands.concat()))?;
            }
        }
        writeln!(out)?;
    }
    if level >= Level::Normal {
        writeln!(out, "Let's deal!")?;
        writeln!(out, "Starting setup:")?;
        print_piles(out, names, game, &dealt)?;
        writeln!(out)?;
    }
    let mut printer = RoundPrinter {
        out: &mut *out,
        names,
        verbose: level >= Level::Verbose,
        seats_in: dealt,
        eliminated: Vec::new(),
        error: None,
    };
    let record = game.play_observed(rules, rng, &mut printer);
    if let Some(error) = printer.error {
        return Err(error);
    }
    let eliminated = printer.eliminated;
    print_result(out, rules, seed, level, &record, &eliminated)?;
    // A loop the cap decided was played to the cap; a cycle ended the game where it was found.
    let found = match (game.loop_found(), game.cycle_found(&record)) {
        (Some(rounds), _) => Some((rounds, "repeated", "until the cap")),
        (None, Some(rounds)) => Some((rounds, "would repeat", "forever")),
        (None, None) => None,
    };
    if let Some(((from, to), repeat, until)) = found
        && level >= Level::Quiet
    {
        writeln!(
            out,
            "Loop: the position after round {from} came back after round {to}; the game {repeat} those {} rounds {until}",
            to - from
        )?;
    }
    if level >= Level::Verbose {
        print_piles(out, names, game, &game.seats_in())?;
    }
    Ok(record)
}

/// The deck in play before shuffling.
fn unshuffled(rules: &Rules) -> Vec<SuitedCard> {
    let mut deck = vec![SuitedCard::default(); rules.cards_in_play() as usize];
    rules.fill_deck(&mut deck);
    deck
}

fn print_piles<const CAP: usize>(
    out: &mut dyn Write,
    names: CardNames,
    game: &PileGame<SuitedCard, CAP>,
    seats: &[usize],
) -> io::Result<()> {
    for &seat in seats {
        let mut cards = game.pile(seat);
        cards.extend(game.heap(seat));
        writeln!(out, "P{}: {}", seat + 1, names.list(&cards))?;
    }
    Ok(())
}

fn print_result(
    out: &mut dyn Write,
    rules: &Rules,
    seed: u64,
    level: Level,
    record: &GameRecord,
    eliminated: &[(usize, u32)],
) -> io::Result<()> {
    if level == Level::OneLine {
        return writeln!(out, "{}", one_line(rules, seed, record));
    }
    if level >= Level::Normal {
        writeln!(out, "Game over!")?;
    }
    match record.winner {
        Some(w) => {
            let how = match record.win_by {
                Some(WinBy::Cards) | None => String::new(),
                Some(by) => format!(" (decided by {})", by.name()),
            };
            writeln!(out, "Player {} won in round {}{how}", w + 1, record.rounds)?;
        }
        None => writeln!(
            out,
            "No winner: {} after round {}",
            record.outcome.name(),
            record.rounds
        )?,
    }
    for &(seat, round) in eliminated {
        writeln!(out, "Player {} lost in {round}", seat + 1)?;
    }
    if level >= Level::Normal {
        writeln!(out, "Longest war: {}", record.longest_war)?;
        writeln!(out, "Wars: {}", record.wars)?;
    }
    Ok(())
}

/// war_card_game's one-line format; a game without a winner names its outcome instead.
pub fn one_line(rules: &Rules, seed: u64, record: &GameRecord) -> String {
    match record.winner {
        Some(w) => format!(
            "Players: {}, seed: {seed}, winner: Player {}, winning round: {}",
            rules.players,
            w + 1,
            record.rounds
        ),
        None => format!(
            "Players: {}, seed: {seed}, outcome: {}, round: {}",
            rules.players,
            record.outcome.name(),
            record.rounds
        ),
    }
}

struct RoundPrinter<'a> {
    out: &'a mut dyn Write,
    names: CardNames,
    verbose: bool,
    seats_in: Vec<usize>,
    eliminated: Vec<(usize, u32)>,
    error: Option<io::Error>,
}

impl RoundPrinter<'_> {
    fn moves(&self, plays: &[Play<SuitedCard>]) -> String {
        let mut sorted = plays.to_vec();
        sorted.sort_by_key(|p| std::cmp::Reverse(p.card.rank()));
        sorted
            .iter()
            .map(|p| format!("P{} {}  ", p.seat + 1, self.names.name(p.card)))
            .collect::<String>()
            .trim_end()
            .to_string()
    }

    fn print_round<const CAP: usize>(
        &mut self,
        round: u32,
        game: &PileGame<SuitedCard, CAP>,
        winner: Option<usize>,
    ) -> io::Result<()> {
        for (step, plays) in game.round_steps() {
            let line = match step {
                Step::FaceDown => plays
                    .iter()
                    .map(|p| format!("P{} {BACK}  ", p.seat + 1))
                    .collect::<String>()
                    .trim_end()
                    .to_string(),
                Step::Shown | Step::FaceUp => self.moves(&plays),
            };
            writeln!(self.out, "{line}")?;
        }
        match winner {
            Some(w) => writeln!(self.out, "Round {round} winner is Player {}", w + 1)?,
            None => writeln!(self.out, "Round {round}: nobody takes the cards")?,
        }
        writeln!(self.out)
    }
}

impl<const CAP: usize> Observer<SuitedCard, CAP> for RoundPrinter<'_> {
    fn before_round(&mut self, round: u32, game: &PileGame<SuitedCard, CAP>) -> bool {
        if self.error.is_some() {
            return false;
        }
        if self.verbose {
            let result = writeln!(self.out, "Round {round}")
                .and_then(|_| print_piles(self.out, self.names, game, &self.seats_in));
            if let Err(e) = result {
                self.error = Some(e);
                return false;
            }
        }
        true
    }

    fn after_round(&mut self, round: u32, game: &PileGame<SuitedCard, CAP>, winner: Option<usize>) {
        if self.verbose
            && self.error.is_none()
            && let Err(e) = self.print_round(round, game, winner)
        {
            self.error = Some(e);
        }
        // Seats still listed as in that hold nothing now were knocked out in this round.
        let mut still_in = Vec::new();
        for &seat in &self.seats_in {
            if game.pile(seat).is_empty() && game.heap(seat).is_empty() {
                self.eliminated.push((seat, round));
            } else {
                still_in.push(seat);
            }
        }
        self.seats_in = still_in;
    }
}
