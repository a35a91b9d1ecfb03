//! Reading a state file of any kind (a run's, a sweep's or an enumeration's) by its `format`,
//! and refusing early, by its first megabyte, a file that is no JSON at all: a per-game CSV of
//! many gigabytes named by mistake, or a device such as /dev/zero, is not read whole first.

use std::fs;
use std::io::{self, Read};
use std::path::Path;

use serde::Deserialize;
use serde::de::IgnoredAny;

use super::{
    ENUMERATION_FORMAT, EnumerationState, FORMAT, FORMAT_VERSION, SWEEP_FORMAT, State, SweepState,
};

/// How much of a file is read before it is checked to begin as a state does.
const HEAD: u64 = 1 << 20;

/// A run's, a sweep's or an enumeration's state file, as `warsim merge` reads any.
#[derive(Clone, Debug, PartialEq)]
pub enum AnyState {
    /// `warsim run --state`.
    Run(Box<State>),
    /// `warsim sweep --state`.
    Sweep(Box<SweepState>),
    /// `warsim enumerate --state`.
    Enumeration(Box<EnumerationState>),
}

impl AnyState {
    /// Whether a state file is there, with the message [`AnyState::read`] would give for one
    /// that is not: checked for every state before a long merge reads the first. Not opened:
    /// a named pipe opened and closed here would have no writer left for the read.
    pub fn check_present(path: &Path) -> Result<(), String> {
        fs::metadata(path).map(drop).map_err(cannot)
    }

    /// What wrote it, for messages: `run`, `sweep` or `enumeration`.
    pub fn kind(&self) -> &'static str {
        match self {
            AnyState::Run(_) => "run",
            AnyState::Sweep(_) => "sweep",
            AnyState::Enumeration(_) => "enumeration",
        }
    }

    /// Reads a state file of any kind, by its `format`.
    pub fn read(path: &Path) -> Result<AnyState, String> {
        let text = read_text(path)?;
        // A state as warsim writes it is read straight into its type: skimming it for its
        // format first took a seventh of a merge's time. Anything else is read again with care,
        // for the message.
        let as_written = |format: &str| {
            let start =
                format!("{{\n  \"format\": \"{format}\",\n  \"format_version\": {FORMAT_VERSION},");
            text.starts_with(start.as_bytes())
        };
        if as_written(SWEEP_FORMAT)
            && let Ok(state) = SweepState::from_json(&text)
        {
            return Ok(AnyState::Sweep(Box::new(state)));
        }
        if as_written(FORMAT)
            && let Ok(state) = State::from_json(&text)
        {
            return Ok(AnyState::Run(Box::new(state)));
        }
        let head = read_head(&text)?;
        let format = head.format.as_ref().and_then(|f| f.as_str());
        if format == Some(SWEEP_FORMAT) {
            head.check(SWEEP_FORMAT)?;
            SweepState::from_json(&text).map(|s| AnyState::Sweep(Box::new(s)))
        } else if format == Some(ENUMERATION_FORMAT) {
            head.check(ENUMERATION_FORMAT)?;
            EnumerationState::from_json(&text).map(|s| AnyState::Enumeration(Box::new(s)))
        } else {
            head.check(FORMAT)?;
            State::from_json(&text).map(|s| AnyState::Run(Box::new(s)))
        }
    }
}

/// What a state file says it is, read before the rest. The rest is read straight into its
/// types: read first as a JSON value, a sweep's state took about seven times its size.
#[derive(Deserialize)]
struct Head {
    format: Option<serde_json::Value>,
    format_version: Option<serde_json::Value>,
}

/// What a state file's text says it is.
fn read_head(text: &[u8]) -> Result<Head, String> {
    // Only an object is read as one (serde would read a list's items as its fields).
    let object = text.trim_ascii_start().starts_with(b"{");
    let head = match object {
        true => serde_json::from_slice::<Head>(text),
        false => serde_json::from_slice::<IgnoredAny>(text).map(|_| Head {
            format: None,
            format_version: None,
        }),
    };
    head.map_err(|e| not_json(&e))
}

fn not_json(error: &serde_json::Error) -> String {
    format!("is not a whole JSON document ({error}): truncated or not a state file")
}

fn no_format(format: &str) -> String {
    format!("is not a warsim state file (no \"format\": \"{format}\")")
}

impl Head {
    /// Refuses a file of another format, or of another version of it.
    fn check(&self, format: &str) -> Result<(), String> {
        if self.format.as_ref().and_then(|f| f.as_str()) != Some(format) {
            return Err(no_format(format));
        }
        let version = self.format_version.as_ref().and_then(|v| v.as_u64());
        if version != Some(u64::from(FORMAT_VERSION)) {
            return Err(format!(
                "has state format version {}, and this warsim reads version {FORMAT_VERSION}",
                version.map_or("(none)".to_string(), |v| v.to_string())
            ));
        }
        Ok(())
    }
}

/// Why a file whose first bytes are `head` (cut anywhere) cannot be a state, when they show it
/// already: `None` for the start of one JSON object with no error in it, as every state file
/// begins however it is cut.
pub fn head_refusal(head: &[u8]) -> Option<String> {
    // A cut inside a number makes an invalid one ("0."): the number is left out.
    let end = head
        .iter()
        .rposition(|b| !b"0123456789+-.eE".contains(b))
        .map_or(0, |i| i + 1);
    match serde_json::from_slice::<IgnoredAny>(&head[..end]) {
        Err(e) if !e.is_eof() => Some(not_json(&e)),
        _ if !head.trim_ascii_start().starts_with(b"{") => Some(no_format(FORMAT)),
        _ => None,
    }
}

/// A state file's bytes. One longer than [`HEAD`] is read further only when its head may
/// begin a state ([`head_refusal`]): a wrong file gets the refusal it would get whole (its
/// first JSON error, or no state's format), but not after gigabytes are read, or forever.
fn read_text(path: &Path) -> Result<Vec<u8>, String> {
    let mut file = fs::File::open(path).map_err(cannot)?;
    let mut text = Vec::new();
    (&mut file)
        .take(HEAD)
        .read_to_end(&mut text)
        .map_err(cannot)?;
    if text.len() as u64 == HEAD {
        if let Some(refusal) = head_refusal(&text) {
            return Err(refusal);
        }
        let size = file.metadata().map_or(0, |m| m.len());
        text.reserve(usize::try_from(size.saturating_sub(HEAD)).unwrap_or(0));
        file.read_to_end(&mut text).map_err(cannot)?;
    }
    Ok(text)
}

fn cannot(e: io::Error) -> String {
    format!("cannot be read ({e})")
}
