//! The progress bar factory: one bar on stderr with games/s and ETA, or a hidden one when
//! stderr is not a terminal or the user asked for quiet.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

/// A bar counting `games`, hidden when `quiet` or when stderr is not a terminal.
pub fn games_bar(games: u64, quiet: bool) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let style = ProgressStyle::with_template(
        "{elapsed_precise} [{wide_bar}] {human_pos}/{human_len} games  {rate} games/s  ETA {eta}",
    )
    .expect("the template is valid")
    .with_key(
        "rate",
        |state: &ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = write!(w, "{:.0}", state.per_sec());
        },
    )
    .progress_chars("=> ");
    ProgressBar::with_draw_target(Some(games), ProgressDrawTarget::stderr_with_hz(4))
        .with_style(style)
}
