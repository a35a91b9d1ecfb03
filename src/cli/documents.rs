//! `warsim completions` and `warsim man`: documents generated from the command line's own
//! definition (clap_complete, clap_mangen), so they never fall behind a flag.

use std::io::Write;
use std::process::ExitCode;

use clap::CommandFactory;

use super::{Cli, report_error};

/// The commands with a man page of their own, `warsim-COMMAND` (a test checks it is all of them).
pub(super) const MAN_PAGES: [&str; 9] = [
    "run",
    "sweep",
    "enumerate",
    "merge",
    "resume",
    "play",
    "completions",
    "man",
    "rules",
];

/// Prints the completion script for `shell`.
pub(super) fn print_completions(shell: clap_complete::Shell) -> ExitCode {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "warsim", &mut script);
    print_document("the completion script", Ok(script))
}

/// Prints warsim's man page, or `command`'s (one of [`MAN_PAGES`]) with all its flags.
pub(super) fn print_man_page(command: Option<&str>) -> ExitCode {
    // Built first, so each command's page is named `warsim-COMMAND` and its synopsis reads
    // `warsim COMMAND …`.
    let mut cli = Cli::command().disable_help_subcommand(true);
    cli.build();
    let page = match command {
        None => cli,
        Some(name) => match cli.find_subcommand(name) {
            Some(command) => command.clone(),
            None => unreachable!("clap accepts only the commands of MAN_PAGES"),
        },
    };
    let mut roff = Vec::new();
    let rendered = clap_mangen::Man::new(page)
        .source(format!("warsim {}", env!("CARGO_PKG_VERSION")))
        .render(&mut roff);
    print_document("the man page", rendered.map(|()| ascii_roff(&roff)))
}

/// The page with every character beyond ASCII written as roff's `\[uXXXX]` escape (`×` as
/// `\[u00D7]`): groff reads its input as Latin-1, so UTF-8 text shows garbled unless the reader
/// runs it through `preconv` first, as `man` does and `groff -man` does not.
fn ascii_roff(roff: &[u8]) -> Vec<u8> {
    let mut ascii = String::with_capacity(roff.len());
    for c in String::from_utf8_lossy(roff).chars() {
        match c.is_ascii() {
            true => ascii.push(c),
            false => ascii.push_str(&format!("\\[u{:04X}]", u32::from(c))),
        }
    }
    ascii.into_bytes()
}

/// Writes a generated document to standard output: a closed pipe exits 0, a failed write 1.
fn print_document(what: &str, document: std::io::Result<Vec<u8>>) -> ExitCode {
    let written = document.and_then(|bytes| {
        let mut out = std::io::stdout().lock();
        out.write_all(&bytes).and_then(|()| out.flush())
    });
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            report_error(&format!("could not write {what} to standard output: {e}"));
            ExitCode::FAILURE
        }
    }
}
