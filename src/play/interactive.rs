//! Human against computer (Game-of-War's own way to play): the human is seat 1; each Enter
//! flips the next cards and shows both, any war as it unfolds, and both pile sizes; `q` quits
//! with the score so far.

use std::io::{self, BufRead, Read, Write};

use crate::engine::random::GameRandom;

use crate::engine::game::{Observer, PileGame, Step};
use crate::engine::{Rules, SuitedCard};
use crate::export::text::counted;

use super::PlayError;
use super::cards::CardNames;

/// Plays one game against the human reading `input`, printing to `out`.
pub fn play_interactive<const CAP: usize, R: GameRandom>(
    game: &mut PileGame<SuitedCard, CAP>,
    rules: &Rules,
    seed: u64,
    rng: &mut R,
    input: &mut dyn BufRead,
    echo: bool,
    out: &mut dyn Write,
) -> Result<(), PlayError> {
    game.deal(rules, rng);
    writeln!(
        out,
        "{} — you are Player 1, the computer Player 2 (seed {seed}).",
        rules.preset
    )?;
    writeln!(
        out,
        "You hold {}, the computer {}.",
        counted(held(game, 0), "card"),
        held(game, 1)
    )?;
    let mut table = Table {
        input,
        out: &mut *out,
        names: CardNames::for_rules(rules),
        echo,
        quit: false,
        error: None,
    };
    let record = game.play_observed(rules, rng, &mut table);
    let quit = table.quit;
    if let Some(error) = table.error {
        return Err(error);
    }
    if quit {
        let (you, computer) = (held(game, 0), held(game, 1));
        writeln!(
            out,
            "You quit after {}. Score so far: you {}, the computer {computer}.",
            counted(record.rounds, "round"),
            counted(you, "card")
        )?;
        return Ok(());
    }
    match record.winner {
        Some(0) => writeln!(out, "You win in round {}!", record.rounds),
        Some(_) => writeln!(out, "The computer wins in round {}.", record.rounds),
        None => writeln!(
            out,
            "Nobody wins ({}) after round {}.",
            record.outcome.name(),
            record.rounds
        ),
    }?;
    Ok(())
}

fn held<const CAP: usize>(game: &PileGame<SuitedCard, CAP>, seat: usize) -> u64 {
    (game.pile(seat).len() + game.heap(seat).len()) as u64
}

struct Table<'a> {
    input: &'a mut dyn BufRead,
    out: &'a mut dyn Write,
    names: CardNames,
    /// Write each answer after its prompt, as a terminal would show it (scripted input).
    echo: bool,
    quit: bool,
    error: Option<PlayError>,
}

impl Table<'_> {
    fn ask(&mut self, round: u32) -> Result<bool, PlayError> {
        write!(self.out, "Round {round}: press Enter to flip, q to quit: ")?;
        self.out.flush()?;
        // Bytes, not `read_line`: a terminal in another encoding must not end the game. At
        // most a line of a terminal's (4,096 bytes) at a time: the rest of a longer one is the
        // next answer, so an input without newlines (/dev/zero) cannot fill the memory.
        let mut bytes = Vec::new();
        let mut answer = (&mut *self.input).take(4096);
        let read = answer.read_until(b'\n', &mut bytes).map_err(|e| {
            // The prompt's line ends before the error is shown below it.
            let _ = writeln!(self.out);
            PlayError::Input(e)
        })?;
        let line = String::from_utf8_lossy(&bytes);
        if self.echo {
            let answer = line.trim_end_matches(['\n', '\r']);
            writeln!(self.out, "{answer}")?;
        }
        Ok(read > 0 && line.trim() != "q")
    }

    fn show<const CAP: usize>(
        &mut self,
        game: &PileGame<SuitedCard, CAP>,
        winner: Option<usize>,
    ) -> io::Result<()> {
        let card_of = |plays: &[crate::engine::game::Play<SuitedCard>], seat: u8| {
            plays
                .iter()
                .filter(|p| p.seat == seat)
                .map(|p| self.names.name(p.card))
                .collect::<Vec<_>>()
                .join(" ")
        };
        for (step, plays) in game.round_steps() {
            match step {
                Step::Shown => writeln!(
                    self.out,
                    "  You: {}   Computer: {}",
                    card_of(&plays, 0),
                    card_of(&plays, 1)
                )?,
                Step::FaceDown => writeln!(
                    self.out,
                    "  War! Face down: you {}, the computer {}",
                    plays.iter().filter(|p| p.seat == 0).count(),
                    plays.iter().filter(|p| p.seat == 1).count()
                )?,
                Step::FaceUp => writeln!(
                    self.out,
                    "  Face up: you {}   computer {}",
                    card_of(&plays, 0),
                    card_of(&plays, 1)
                )?,
            }
        }
        let taken: usize = game.round_steps().iter().map(|(_, p)| p.len()).sum();
        match winner {
            Some(0) => writeln!(self.out, "  You take {taken} cards.")?,
            Some(_) => writeln!(self.out, "  The computer takes {taken} cards.")?,
            None => writeln!(self.out, "  Nobody takes the cards.")?,
        }
        writeln!(
            self.out,
            "  Cards: you {}, the computer {}",
            held(game, 0),
            held(game, 1)
        )
    }
}

impl<const CAP: usize> Observer<SuitedCard, CAP> for Table<'_> {
    fn before_round(&mut self, round: u32, _game: &PileGame<SuitedCard, CAP>) -> bool {
        match self.ask(round) {
            Ok(go_on) => {
                self.quit = !go_on;
                go_on
            }
            Err(e) => {
                self.error = Some(e);
                false
            }
        }
    }

    fn after_round(
        &mut self,
        _round: u32,
        game: &PileGame<SuitedCard, CAP>,
        winner: Option<usize>,
    ) {
        if self.error.is_none()
            && let Err(e) = self.show(game, winner)
        {
            self.error = Some(e.into());
        }
    }
}
