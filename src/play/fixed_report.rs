//! The fixed-rounds pseudocode's report: every match round by round, each match's result,
//! the running statistics table, and the totals with win percentages to one decimal place.
//! Tied rounds and tied matches are reported apart; the seed's combined "total ties" counter is
//! shown too, labelled as such.

use std::io::{self, Write};

use super::{PlayError, Stop, after_match, stopped};
use crate::engine::families::fixed::FixedRoundsGame;
use crate::engine::{Rules, random};

/// Plays `matches` matches, match m from `seed_of(m)`, and prints the report. With `brief`,
/// only the statistics table and the totals. Memory stays constant however many matches: the
/// matches are played once to print them and again for the table that follows them.
pub fn print_report(
    rules: &Rules,
    matches: u64,
    seed_of: &dyn Fn(u64) -> u64,
    brief: bool,
    out: &mut dyn Write,
    stop: Stop,
) -> Result<(), PlayError> {
    let players = rules.players as usize;
    let mut game = FixedRoundsGame::boxed();
    if !brief {
        for m in 0..matches {
            game.play(rules, &mut random::game_rng(seed_of(m)));
            print_match(rules, &game, m + 1, out)?;
            stopped(stop, || {
                format!("{}, before the statistics", after_match(m + 1, matches))
            })?;
        }
    }
    let mut match_wins = vec![0u64; players];
    let (mut tied_matches, mut tied_rounds) = (0u64, 0u64);
    let seats: Vec<String> = (1..=players).map(|p| format!("Player {p} Wins")).collect();
    writeln!(out, "Final Statistics")?;
    writeln!(out, "Game\tWinner\t{}\tTies", seats.join("\t"))?;
    for m in 0..matches {
        let record = game.play(rules, &mut random::game_rng(seed_of(m)));
        tied_rounds += record.wars;
        let winner = match record.winner {
            Some(w) => {
                match_wins[w as usize] += 1;
                format!("Player {}", w + 1)
            }
            None => {
                tied_matches += 1;
                "Tie".to_string()
            }
        };
        let running: Vec<String> = match_wins.iter().map(u64::to_string).collect();
        writeln!(
            out,
            "{}\t{winner}\t{}\t{tied_matches}",
            m + 1,
            running.join("\t")
        )?;
        stopped(stop, || {
            format!("in the statistics, {}", after_match(m + 1, matches))
        })?;
    }
    writeln!(out)?;
    writeln!(out, "Final Results Summary:")?;
    for (p, wins) in match_wins.iter().enumerate() {
        writeln!(out, "- Player {} total wins: {wins}", p + 1)?;
    }
    writeln!(out, "- Tied matches: {tied_matches}")?;
    writeln!(out, "- Tied rounds: {tied_rounds}")?;
    writeln!(
        out,
        "- Total ties (tied rounds + tied matches, the seed report's single counter): {}",
        tied_rounds + tied_matches
    )?;
    for (p, wins) in match_wins.iter().enumerate() {
        let percent = 100.0 * *wins as f64 / matches as f64;
        writeln!(out, "- Player {} win percentage: {percent:.1}%", p + 1)?;
    }
    Ok(())
}

fn print_match(
    rules: &Rules,
    game: &FixedRoundsGame,
    number: u64,
    out: &mut dyn Write,
) -> io::Result<()> {
    let players = rules.players as usize;
    let decks: Vec<&[u8]> = (0..players).map(|s| game.deck(s, rules)).collect();
    let cards: Vec<String> = (1..=players).map(|p| format!("Player {p} Card")).collect();
    let scores_head: Vec<String> = (1..=players).map(|p| format!("P{p} Score")).collect();
    writeln!(out, "Match {number}")?;
    writeln!(
        out,
        "Round\t{}\tWinner\t{}",
        cards.join("\t"),
        scores_head.join("\t")
    )?;
    let mut scores = vec![0u32; players];
    for round in 0..rules.cards() as usize {
        let shown: Vec<u8> = decks.iter().map(|d| d[round]).collect();
        let best = *shown.iter().max().unwrap_or(&0);
        let holders: Vec<usize> = (0..players).filter(|&p| shown[p] == best).collect();
        let winner = match holders[..] {
            [p] => {
                scores[p] += 1;
                format!("P{}", p + 1)
            }
            _ => "Tie".to_string(),
        };
        let shown: Vec<String> = shown.iter().map(u8::to_string).collect();
        let running: Vec<String> = scores.iter().map(u32::to_string).collect();
        writeln!(
            out,
            "{}\t{}\t{winner}\t{}",
            round + 1,
            shown.join("\t"),
            running.join("\t")
        )?;
    }
    let top = *scores.iter().max().unwrap_or(&0);
    let leaders: Vec<usize> = (0..players).filter(|&p| scores[p] == top).collect();
    let tally: Vec<String> = scores.iter().map(u32::to_string).collect();
    match leaders[..] {
        [p] => writeln!(
            out,
            "Final Game Result: Player {} wins game! ({})",
            p + 1,
            tally.join("-")
        )?,
        _ => writeln!(
            out,
            "Final Game Result: Tie ({}) - No winner for this game",
            tally.join("-")
        )?,
    }
    writeln!(out)
}
