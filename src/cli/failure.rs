//! How a failure reads: one `error:` line for warsim's own messages, clap's rendering made safe
//! for its parse errors (control characters escaped, the subcommand's help named), an argument
//! that is not UTF-8 named by its flag, a flag given without the one it needs told which and
//! why, and `merge` given a per-game flag told where the rows are.

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;
use std::process::ExitCode;

use clap::error::ErrorKind;

use crate::export::text::escape_controls;

/// Prints `error: MESSAGE` as exactly one line: control characters a user typed into a value
/// (a newline, a tab) are shown escaped (by `say!`), so a message never spills onto a second
/// line.
pub(crate) fn report_error(message: &dyn std::fmt::Display) {
    say!("error: {message}");
}

/// Help and version print as clap renders them (exit 1 when they cannot be written, a closed
/// pipe apart: `warsim --help | head` read what it wanted). An error prints clap's whole message (the
/// tip naming a similar flag, the missing argument, the usage), with one `error:` line, the
/// control characters of the user's values escaped, and a pointer to the subcommand's own
/// help; exit 2.
pub(super) fn clap_failure(error: clap::Error) -> ExitCode {
    match error.kind() {
        ErrorKind::DisplayHelp
        | ErrorKind::DisplayVersion
        | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => match error.print() {
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                let what = match error.kind() {
                    ErrorKind::DisplayVersion => "the version",
                    _ => "the help",
                };
                report_error(&format!("could not write {what}: {e}"));
                ExitCode::FAILURE
            }
            _ => ExitCode::from(error.exit_code() as u8),
        },
        ErrorKind::InvalidUtf8 => {
            let args: Vec<OsString> = std::env::args_os().collect();
            report_error(&not_utf8_message(&args));
            ExitCode::from(2)
        }
        _ => {
            let args: Vec<String> = std::env::args_os()
                .map(|a| a.to_string_lossy().into_owned())
                .collect();
            match merge_rows_refusal(&error, &args).or_else(|| needs_refusal(&error, &args)) {
                Some(message) => report_error(&message),
                None => {
                    let message = clap_message(&error.to_string(), &args);
                    let _ = std::io::Write::write_all(&mut std::io::stderr(), message.as_bytes());
                }
            }
            ExitCode::from(2)
        }
    }
}

/// `merge` given a per-game flag of `run` or `sweep` (`--csv`, `--games-csv`, `--parquet`):
/// why it has none and where the rows are. clap's own refusal suggested passing the flag as a
/// value (and a hidden argument to refuse it would be offered by the shell completions).
fn merge_rows_refusal(error: &clap::Error, args: &[String]) -> Option<String> {
    use clap::error::{ContextKind, ContextValue};
    if error.kind() != ErrorKind::UnknownArgument || subcommand(args)? != "merge" {
        return None;
    }
    let Some(ContextValue::String(given)) = error.get(ContextKind::InvalidArg) else {
        return None;
    };
    let flag = given.split('=').next()?;
    let table = match flag {
        "--csv" => "; for the summary, or a sweep's table of cells, use --summary PATH",
        "--games-csv" | "--parquet" => "",
        _ => return None,
    };
    Some(format!(
        "{flag} is not a merge's: a state holds figures, not games, so a merge writes no per-game \
         rows (each shard's own {flag} file holds its games){table}"
    ))
}

/// The flags that only work with another (clap's `requires`), that flag, and what the first
/// does with it.
const NEEDS: [(&str, &str, &str); 6] = [
    (
        "--no-header",
        "--csv PATH",
        "it leaves the header row out of the per-game CSV",
    ),
    (
        "--plot-scale",
        "--plot PATH",
        "it sets the survival curve's scale in the plot",
    ),
    (
        "--checkpoint-every",
        "--state PATH",
        "it says how often the state file is written",
    ),
    (
        "--shard",
        "--state PATH",
        "a part of an enumeration has no figures of its own: its exact counts go to the state \
         file, which `warsim merge` joins with the other parts'",
    ),
    (
        "--batch-seed",
        "--game I",
        "the index of the batch's game to replay (`warsim play --batch-seed S --game I`)",
    ),
    (
        "--game",
        "--batch-seed S",
        "the seed of the batch the game is from (`warsim run --seed S`)",
    ),
];

/// A flag given without the flag it needs, on one line: which flag needs which, and why. clap
/// names only the one missing, over three lines, not the flag that needs it.
fn needs_refusal(error: &clap::Error, args: &[String]) -> Option<String> {
    use clap::error::{ContextKind, ContextValue};
    if error.kind() != ErrorKind::MissingRequiredArgument {
        return None;
    }
    let Some(ContextValue::Strings(missing)) = error.get(ContextKind::InvalidArg) else {
        return None;
    };
    let given = |flag: &str| {
        args.iter().any(|a| {
            a == flag
                || a.strip_prefix(flag)
                    .is_some_and(|rest| rest.starts_with('='))
        })
    };
    NEEDS.iter().find_map(|&(flag, needs, why)| {
        let name = needs.split(' ').next()?;
        let lacking = missing.iter().any(|m| m.split(' ').next() == Some(name));
        (lacking && given(flag)).then(|| format!("{flag} needs {needs}: {why}"))
    })
}

/// The subcommand named on the command line, if any.
fn subcommand(args: &[String]) -> Option<&str> {
    args.iter().skip(1).map(String::as_str).find(|a| {
        matches!(
            *a,
            "run"
                | "sweep"
                | "enumerate"
                | "merge"
                | "resume"
                | "play"
                | "rules"
                | "completions"
                | "man"
        )
    })
}

/// clap's rendered error made safe and specific: every argument with a control character is
/// shown escaped wherever the message quotes it, and "try '--help'" names the subcommand.
fn clap_message(rendered: &str, args: &[String]) -> String {
    let mut text = rendered.to_string();
    for arg in args.iter().skip(1) {
        if arg.chars().any(char::is_control) {
            text = text.replace(arg.as_str(), &escape_controls(arg));
        }
    }
    if let Some(subcommand) = subcommand(args) {
        text = text.replace("try '--help'", &format!("try 'warsim {subcommand} --help'"));
    }
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text
}

/// The first argument that is not UTF-8, named by its flag (`--csv` for `--csv X` and
/// `--csv=X`), its bytes escaped. clap says only that some argument is not; warsim keeps its
/// arguments as text (a state file records the command line to resume it), so it asks for
/// another name rather than reading the bytes.
fn not_utf8_message(args: &[OsString]) -> String {
    let Some(at) = args.iter().position(|arg| arg.to_str().is_none()) else {
        return "an argument is not UTF-8 text: give every path and value in UTF-8".to_string();
    };
    let bytes = args[at].as_bytes();
    let flag_before = at.checked_sub(1).and_then(|before| args[before].to_str());
    let (flag, value) = match bytes.iter().position(|&b| b == b'=') {
        Some(equals) if bytes.starts_with(b"--") => (
            String::from_utf8_lossy(&bytes[..equals]).into_owned(),
            OsStr::from_bytes(&bytes[equals + 1..]),
        ),
        _ => match flag_before {
            Some(flag) if flag.starts_with('-') && flag.len() > 1 => {
                (flag.to_string(), args[at].as_os_str())
            }
            _ => ("an argument".to_string(), args[at].as_os_str()),
        },
    };
    format!(
        "{flag}: {value:?} is not UTF-8 text: warsim takes paths and values in UTF-8 only (a \
         state file records them as text): give it in UTF-8, renaming the file or folder if it \
         is a path"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clap_errors_escape_control_characters_and_name_the_subcommand() {
        let args = ["warsim", "run", "--pickup", "capped\n"].map(String::from);
        let rendered = "error: invalid value 'capped\n' for '--pickup <ORDER>'\n\nFor more information, try '--help'.\n";
        let text = clap_message(rendered, &args);
        assert_eq!(text.lines().filter(|l| l.starts_with("error:")).count(), 1);
        assert!(
            text.starts_with("error: invalid value 'capped\\n' for"),
            "{text}"
        );
        assert!(text.contains("try 'warsim run --help'"), "{text}");
    }

    fn os(bytes: &[u8]) -> OsString {
        OsStr::from_bytes(bytes).to_os_string()
    }

    #[test]
    fn an_argument_not_in_utf8_is_named_by_its_flag_on_one_line() {
        let spaced = [
            os(b"warsim"),
            os(b"run"),
            os(b"--csv"),
            os(b"caf\xe9\n.csv"),
        ];
        let message = not_utf8_message(&spaced);
        assert!(
            message.starts_with(r#"--csv: "caf\xE9\n.csv" is not UTF-8 text"#),
            "{message}"
        );
        assert!(!message.contains('\n'));
        let joined = [os(b"warsim"), os(b"run"), os(b"--json=\xff/s.json")];
        assert!(not_utf8_message(&joined).starts_with(r#"--json: "\xFF/s.json" is not"#));
        let alone = [os(b"warsim"), os(b"\xff")];
        assert!(not_utf8_message(&alone).starts_with(r#"an argument: "\xFF" is not"#));
    }
}
