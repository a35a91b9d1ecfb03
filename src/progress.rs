//! The progress bar factory: one bar on stderr with games done, games/s and ETA, drawn from the
//! first moment (whatever a game costs) and fitted to the terminal's width; or a hidden one when
//! stderr is not a terminal or the user asked for quiet.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

use crate::export::text::group;

/// Narrowest bar worth drawing.
const MIN_BAR: usize = 10;
/// Width the rate and the ETA may take ("123,456,789" and "1234d").
const RATE_WIDTH: usize = 11;
const ETA_WIDTH: usize = 5;
/// How often the bar is redrawn while no game is done.
const TICK: Duration = Duration::from_millis(250);

/// A bar counting `games`, hidden when `quiet` or when stderr is not a terminal.
pub fn games_bar(games: u64, quiet: bool) -> ProgressBar {
    bar_with_prefix(games, quiet, 0)
}

/// A bar over the games of every cell of a sweep, led by [`cell_prefix`] (set it with
/// [`ProgressBar::set_prefix`] as each cell starts).
pub fn cells_bar(games: u64, cells: usize, quiet: bool) -> ProgressBar {
    let width = cell_prefix(cells.saturating_sub(1), cells).len();
    let bar = bar_with_prefix(games, quiet, width);
    bar.set_prefix(cell_prefix(0, cells));
    bar
}

/// What leads a sweep's bar while it plays cell `index` of `cells`: the cell's number in the
/// tables (from 0), then how far through the grid that is (`cell 1 (2/4)`).
pub fn cell_prefix(index: usize, cells: usize) -> String {
    format!("cell {index} ({}/{cells})  ", index + 1)
}

fn bar_with_prefix(games: u64, quiet: bool, prefix_width: usize) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let columns = usize::from(console::Term::stderr().size().1);
    let style =
        ProgressStyle::with_template(template_for(games, columns.saturating_sub(prefix_width)))
            .expect("the templates are valid")
            .with_key(
                "rate",
                |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{}", group(state.per_sec() as u64));
                },
            )
            .with_key(
                "done",
                |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{}", group(state.pos()));
                },
            )
            .with_key(
                "total",
                |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{}", group(state.len().unwrap_or(0)));
                },
            )
            .with_key(
                "eta",
                |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let rate = state.per_sec();
                    let _ = write!(w, "{}", eta_text(state.pos(), rate, state.eta()));
                },
            )
            .progress_chars("=> ");
    let bar = ProgressBar::with_draw_target(Some(games), ProgressDrawTarget::stderr_with_hz(4))
        .with_style(style);
    tick_steadily(&bar);
    bar
}

/// Redraws `bar` (a drawn one: a hidden bar never gets here) every 250 ms from a thread of its
/// own, so that it is drawn and updated even while the first games are still being played; the
/// thread ends once the bar is finished or dropped. Not indicatif's `enable_steady_tick`: that
/// panics when the system will not start its thread (a limit on address space too small for
/// one more stack), where the bar had better move only as games are done. Returns the thread,
/// if it started.
fn tick_steadily(bar: &ProgressBar) -> Option<std::thread::JoinHandle<()>> {
    let bar = bar.downgrade();
    let ticks = move || {
        loop {
            std::thread::sleep(TICK);
            match bar.upgrade() {
                Some(bar) if !bar.is_finished() => bar.tick(),
                _ => return,
            }
        }
    };
    #[cfg(test)]
    if tests::REFUSED.get() {
        return None;
    }
    let named = std::thread::Builder::new().name("warsim-progress".to_string());
    named.spawn(ticks).ok()
}

/// The time left, as indicatif writes it (`10m`, `2h`); `?` until games are done at a rate
/// indicatif has measured, where its own `{eta}` reads `0s` for want of one.
fn eta_text(done: u64, rate: f64, left: Duration) -> String {
    if done == 0 || rate <= 0.0 {
        return "?".to_string();
    }
    format!("{:#}", indicatif::HumanDuration(left))
}

/// The fullest template whose text leaves a bar of at least [`MIN_BAR`] columns in `columns`.
fn template_for(games: u64, columns: usize) -> &'static str {
    let count = group(games).len();
    let templates: [(&'static str, usize); 4] = [
        (
            "{prefix}{elapsed_precise} [{wide_bar}] {done}/{total} games  {rate} games/s  ETA {eta}",
            8 + 4 + 2 * count + 1 + 8 + RATE_WIDTH + 14 + ETA_WIDTH,
        ),
        (
            "{prefix}[{wide_bar}] {done}/{total}  {rate}/s  ETA {eta}",
            4 + 2 * count + 1 + 2 + RATE_WIDTH + 8 + ETA_WIDTH,
        ),
        (
            "{prefix}[{wide_bar}] {percent}%  {rate} games/s  ETA {eta}",
            4 + 4 + 2 + RATE_WIDTH + 14 + ETA_WIDTH,
        ),
        (
            "{prefix}[{wide_bar}] {percent}% ETA {eta}",
            4 + 4 + 5 + ETA_WIDTH,
        ),
    ];
    templates
        .iter()
        .find(|(_, text)| text + MIN_BAR <= columns)
        .map_or(templates[3].0, |(template, _)| template)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    thread_local! {
        /// Whether the system is to refuse the ticking thread started on this thread.
        pub static REFUSED: Cell<bool> = const { Cell::new(false) };
    }

    #[test]
    fn the_ticking_thread_ends_with_its_bar_and_a_refused_one_is_done_without() {
        // Hidden bars tick as drawn ones do, with nothing to draw.
        let bar = ProgressBar::hidden();
        let ticking = tick_steadily(&bar).expect("the thread starts");
        std::thread::sleep(TICK * 2);
        assert!(!ticking.is_finished(), "it ticks while the bar is there");
        drop(bar);
        ticking.join().unwrap();
        let finished = ProgressBar::hidden();
        let ticking = tick_steadily(&finished).unwrap();
        finished.finish();
        ticking.join().unwrap();
        // A quiet bar, or one off a terminal, is hidden, and starts no thread at all.
        assert!(games_bar(10, true).is_hidden());
        REFUSED.set(true);
        let refused = ProgressBar::hidden();
        assert!(tick_steadily(&refused).is_none());
        refused.inc(3);
        assert_eq!(refused.position(), 3);
    }

    #[test]
    fn the_bar_fits_the_terminal_with_room_for_a_bar() {
        assert!(template_for(1_000_000, 120).starts_with("{prefix}{elapsed_precise}"));
        // 10^19 games at 80 columns: the counts give way to a percentage.
        let narrow = template_for(10_000_000_000_000_000_000, 80);
        assert!(
            narrow.contains("{percent}") && !narrow.contains("{done}"),
            "{narrow}"
        );
        assert_eq!(
            template_for(1_000_000, 30),
            "{prefix}[{wide_bar}] {percent}% ETA {eta}"
        );
    }

    #[test]
    fn no_time_left_is_claimed_before_a_game_is_done() {
        assert_eq!(eta_text(0, 0.0, Duration::ZERO), "?");
        assert_eq!(eta_text(69_631, 0.0, Duration::ZERO), "?");
        assert_eq!(eta_text(5, 1.0, Duration::from_secs(600)), "10m");
        assert_eq!(eta_text(5, 1.0, Duration::from_secs(2 * 3600)), "2h");
    }
}
