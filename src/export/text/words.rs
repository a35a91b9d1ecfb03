//! Numbers and counts as the reports write them: digits grouped by thousands, durations like a
//! clock, "1 game" but "2 games".

// Defined beside the rules' description, which writes counts too and may not import this layer.
pub use crate::engine::rules::{counted, group};

/// 392 s → "6 min 32 s"; 4,200 s → "1 h 10 min"; days beyond 48 h; below 10 s, to three figures
/// ("0.178 s", "1.3 s"), down to the thousandth, the finest `--seconds-per-round` gives.
pub fn duration(seconds: f64) -> String {
    if seconds < 9.995 {
        let decimals = if seconds < 1.0 { 3 } else { 2 };
        let text = format!("{seconds:.decimals$}");
        return format!("{} s", text.trim_end_matches('0').trim_end_matches('.'));
    }
    let s = seconds.round() as u64;
    match s {
        0..60 => format!("{s} s"),
        60..3_600 => format!("{} min {} s", s / 60, s % 60),
        3_600..172_800 => format!("{} h {} min", s / 3_600, s % 3_600 / 60),
        _ => format!("{} days {} h", group(s / 86_400), s % 86_400 / 3_600),
    }
}

/// The smallest of 1, 2, 5 × 10^k at least `raw`.
pub fn nice_width(raw: u64) -> u64 {
    let mut unit = 1;
    loop {
        for step in [1, 2, 5] {
            if step * unit >= raw {
                return step * unit;
            }
        }
        unit *= 10;
    }
}

/// "1 game", "2,000 games".
pub fn games_text(n: u64) -> String {
    counted(n, "game")
}

/// `games` games from game `first` on: "games 1,000 to 1,999", "game 7" or "no games".
pub fn game_span(first: u64, games: u64) -> String {
    match games {
        0 => "no games".to_string(),
        1 => format!("game {}", group(first)),
        _ => format!("games {} to {}", group(first), group(first + games - 1)),
    }
}

/// 85714621.136 → "85,714,621.14": `x` to `decimals` places, its whole part grouped as
/// [`group`] does (as printed, unchanged, where it has no whole part of digits: NaN, inf).
pub fn group_fixed(x: f64, decimals: usize) -> String {
    let text = format!("{:.decimals$}", x.abs());
    let (whole, fraction) = text.split_at(text.find('.').unwrap_or(text.len()));
    match whole.parse::<u64>() {
        Ok(whole) => {
            let sign = if x < 0.0 { "-" } else { "" };
            format!("{sign}{}{fraction}", group(whole))
        }
        Err(_) => format!("{x:.decimals$}"),
    }
}

/// `count` of `total` as a percentage to `decimals` places: "12.35%". A share that is not nil
/// never reads as nil, nor one short of all as all: 1 in 10^6 reads "<0.01%" and 999,999 in
/// 10^6 ">99.99%" (where the places would print "0.00%" and "100.00%").
pub fn percent_of(count: u64, total: u64, decimals: usize) -> String {
    let text = format!("{:.decimals$}", 100.0 * count as f64 / total.max(1) as f64);
    let printed = text.parse::<f64>().ok();
    let step = 10f64.powi(-(decimals as i32));
    if count > 0 && printed == Some(0.0) {
        format!("<{step:.decimals$}%")
    } else if count < total && printed == Some(100.0) {
        format!(">{:.decimals$}%", 100.0 - step)
    } else {
        format!("{text}%")
    }
}

/// `word` (a path, an argument) as a shell reads it back as one word, for a command a message
/// offers to paste: as it is when it holds only characters no shell treats apart, in single
/// quotes otherwise, and in ANSI-C quotes (`$'a\nb'`, which bash, zsh, ksh and POSIX.1-2024 sh
/// read) when it holds a control character or bytes that are not UTF-8, so that the command
/// stays on its one line and names the very bytes. Written here rather than taken from `shlex`
/// or `shell-escape`, which leave a newline raw in their quotes and take only UTF-8.
pub fn shell_word(word: &std::ffi::OsStr) -> String {
    use std::os::unix::ffi::OsStrExt;
    let bytes = word.as_bytes();
    let plain = |b: &u8| b.is_ascii_alphanumeric() || b"_@%+=:,./-".contains(b);
    if !bytes.is_empty() && bytes.iter().all(plain) {
        return word.to_string_lossy().into_owned();
    }
    match std::str::from_utf8(bytes) {
        Ok(text) if !text.chars().any(char::is_control) => {
            format!("'{}'", text.replace('\'', r"'\''"))
        }
        _ => ansi_c_quoted(bytes),
    }
}

/// `$'…'` holding `bytes`: control characters and bytes that are not UTF-8 as `\xHH`, a
/// backslash and a quote escaped, the rest as it is.
fn ansi_c_quoted(bytes: &[u8]) -> String {
    let mut quoted = String::from("$'");
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '\\' | '\'' => quoted.extend(['\\', c]),
                c if c.is_control() => {
                    let mut units = [0; 4];
                    for byte in c.encode_utf8(&mut units).bytes() {
                        quoted.push_str(&format!("\\x{byte:02x}"));
                    }
                }
                c => quoted.push(c),
            }
        }
        for byte in chunk.invalid() {
            quoted.push_str(&format!("\\x{byte:02x}"));
        }
    }
    quoted.push('\'');
    quoted
}

/// `text` with its control characters written as escapes (`\n`, `\t`, `\u{1b}`): one line
/// whatever a path or value given by the user holds.
pub fn escape_controls(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_debug().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// Writes `text` as one line to `out` in one write (the text and its newline together): a
/// program reading the log as warsim writes it never finds a line without its end, and two
/// processes writing to one log do not interleave within a line (`say!`).
pub fn write_line(out: &mut dyn std::io::Write, text: &str) -> std::io::Result<()> {
    let mut line = escape_controls(text);
    line.push('\n');
    out.write_all(line.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer that keeps each write apart.
    struct Writes(Vec<String>);

    impl std::io::Write for Writes {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.push(String::from_utf8_lossy(bytes).into_owned());
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_line_is_written_whole_in_one_write() {
        let mut out = Writes(Vec::new());
        write_line(&mut out, "warsim: holds sequences 0 to 9").unwrap();
        write_line(&mut out, "a\nb").unwrap();
        assert_eq!(out.0, ["warsim: holds sequences 0 to 9\n", "a\\nb\n"]);
    }

    #[test]
    fn durations_read_like_a_clock() {
        assert_eq!(duration(392.0), "6 min 32 s");
        assert_eq!(duration(4_200.0), "1 h 10 min");
        assert_eq!(duration(59.4), "59 s");
        assert_eq!(duration(200_000.0), "2 days 7 h");
        assert_eq!(duration(0.178), "0.178 s");
        assert_eq!(duration(0.25), "0.25 s");
        assert_eq!(duration(0.001), "0.001 s");
        assert_eq!(duration(0.4999), "0.5 s");
        assert_eq!(duration(1.302), "1.3 s");
        assert_eq!(duration(9.996), "10 s");
        // The longest game at the slowest table the flag takes, exact to the day.
        assert_eq!(
            duration(86_400.0 * 4_294_967_294.0),
            "4,294,967,294 days 0 h"
        );
    }

    #[test]
    fn shares_that_are_not_nil_or_all_never_read_so() {
        assert_eq!(percent_of(1, 1_000_000, 2), "<0.01%");
        assert_eq!(percent_of(0, 1_000_000, 2), "0.00%");
        assert_eq!(percent_of(999_999, 1_000_000, 2), ">99.99%");
        assert_eq!(percent_of(1_000_000, 1_000_000, 2), "100.00%");
        assert_eq!(percent_of(1, 2, 2), "50.00%");
        assert_eq!(percent_of(1, 200, 2), "0.50%");
        assert_eq!(percent_of(1, 20_001, 2), "<0.01%");
        assert_eq!(percent_of(1, 19_999, 2), "0.01%");
        assert_eq!(percent_of(19_998, 19_999, 2), "99.99%");
        assert_eq!(percent_of(1, 10_000_000, 4), "<0.0001%");
        assert_eq!(percent_of(9_999_999, 10_000_000, 4), ">99.9999%");
        assert_eq!(percent_of(2, 3, 1), "66.7%");
        assert_eq!(percent_of(0, 0, 2), "0.00%");
    }

    /// Each word as quoted, and read back by bash as the very bytes.
    #[test]
    fn shell_words_read_back_as_given() {
        use std::ffi::OsStr;
        use std::os::unix::ffi::OsStrExt;
        let words: [(&[u8], &str); 8] = [
            (b"s.json", "s.json"),
            (b"runs/a-1_b,c=2:x@y%z+", "runs/a-1_b,c=2:x@y%z+"),
            (b"", "''"),
            (b"my runs/s t.json", "'my runs/s t.json'"),
            (b"it's $HOME", r"'it'\''s $HOME'"),
            ("café *".as_bytes(), "'café *'"),
            (b"a\nb\\c'd", r"$'a\x0ab\\c\'d'"),
            (b"caf\xe9\t", r"$'caf\xe9\x09'"),
        ];
        for (bytes, quoted) in words {
            let word = OsStr::from_bytes(bytes);
            assert_eq!(shell_word(word), quoted);
            let read = std::process::Command::new("bash")
                .args(["-c", &format!("printf %s {quoted}")])
                .output()
                .unwrap();
            assert_eq!(read.stdout, bytes, "{quoted}");
        }
    }

    #[test]
    fn grouping_and_widths() {
        assert_eq!(games_text(1), "1 game");
        assert_eq!(games_text(1000), "1,000 games");
        assert_eq!(group(0u64), "0");
        assert_eq!(group(999u32), "999");
        assert_eq!(group(1000u64), "1,000");
        assert_eq!(group(1234567u64), "1,234,567");
        // Past u64: an enumeration's deck of 4 × 7 cards.
        assert_eq!(
            group(66_475_579_247_327_250_000u128),
            "66,475,579,247,327,250,000"
        );
        assert_eq!(group_fixed(85_714_621.136, 2), "85,714,621.14");
        assert_eq!(group_fixed(999.999, 2), "1,000.00");
        assert_eq!(group_fixed(247.17, 2), "247.17");
        assert_eq!(group_fixed(1234.5, 0), "1,234");
        assert_eq!(group_fixed(-1234.5, 1), "-1,234.5");
        assert_eq!(group_fixed(f64::NAN, 2), "NaN");
        assert_eq!(nice_width(1), 1);
        assert_eq!(nice_width(3), 5);
        assert_eq!(nice_width(11), 20);
        assert_eq!(nice_width(151), 200);
    }
}
