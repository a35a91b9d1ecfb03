//! The numbers the command line takes, in every form a user may write them: counts
//! (`1_000_000`, `1,000,000`, `1e6`), settings that fit a u32, durations (`500ms`, `2h`) and
//! seconds a round; a count's refusal says which forms are accepted, a setting's what the flag
//! takes (and, for a list or a range, that `warsim sweep` takes those).

use crate::engine::rules::accepted_range;
use crate::export::text::group;

/// Parses a duration: `0`, `500ms`, `30s`, `5m`, `2h`, `1e3s` (a bare number is seconds).
pub fn parse_duration(text: &str) -> Result<std::time::Duration, String> {
    let t = text.trim();
    // The unit is the text's end ("ms" before "s" and "m"), so a number may have an exponent.
    let units = [("ms", 0.001), ("h", 3600.0), ("m", 60.0), ("s", 1.0)];
    let (number, scale) = units
        .iter()
        .find_map(|&(unit, scale)| t.strip_suffix(unit).map(|number| (number, scale)))
        .unwrap_or((t, 1.0));
    // Rust's floats also read "inf" and "NaN": no duration is written so.
    let spelled = number.contains(|c: char| c.is_ascii_alphabetic() && c != 'e' && c != 'E');
    match number.parse::<f64>() {
        Ok(n) if n >= 0.0 && !spelled => {
            // A `Duration` holds some 584 billion years; past that, say so rather than panic.
            std::time::Duration::try_from_secs_f64(n * scale).map_err(|_| {
                format!("'{text}' is too long (0 = only at the end; otherwise e.g. 5m or 2h)")
            })
        }
        _ => Err(format!(
            "'{text}' is not a duration (write e.g. 0, 500ms, 30s, 5m or 2h)"
        )),
    }
}

/// The seconds a round may take at a real table (`--seconds-per-round`): a millisecond to a day.
/// Within these, every duration the report prints is exact to its last digit: the longest,
/// 86,400 s × 4,294,967,294 rounds, is far inside the whole seconds it is counted in, and the
/// shortest is a whole thousandth.
pub const SECONDS_PER_ROUND: std::ops::RangeInclusive<f64> = 0.001..=86_400.0;

/// Parses the seconds a round takes (`2`, `1.5`, `0.25`), within [`SECONDS_PER_ROUND`].
pub fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(s) if SECONDS_PER_ROUND.contains(&s) => Ok(s),
        Ok(s) if s.is_finite() && s > 0.0 => Err(format!(
            "'{text}' is out of range: use 0.001 to 86400 (a millisecond to a day a round)"
        )),
        _ => Err(format!(
            "'{text}' is not a positive number of seconds (write e.g. 2 or 1.5)"
        )),
    }
}

/// Parses the value of the numeric rule flag `flag` (same forms as [`parse_count`]); a number
/// past a u32 is out of the flag's own range, and the error gives that range (`--players
/// 5e9`: use 2 to 32), as the rules' check does for one inside a u32.
pub fn parse_setting(flag: &str, text: &str) -> Result<u32, String> {
    let accepted = accepted_range(flag);
    parse_within(text, u32::MAX.into(), &accepted)
        .map(|n| n as u32)
        .map_err(|why| {
            // A list or a range, given to a command that plays one rule set (`run --players
            // 2,3`): a sweep's lists reach here one number at a time.
            let several = if text.contains("..") {
                "a range"
            } else if text.contains(',') {
                "a list"
            } else {
                return why;
            };
            format!(
                "'{text}' is {several}: this command takes one value, {accepted}; `warsim sweep` \
                 takes lists and ranges"
            )
        })
}

/// Parses a whole number (same forms as [`parse_count`]) of at most `max`, where the flag takes
/// `accepted` (`1 to 1024`): every refusal says what the flag takes.
pub fn parse_within(text: &str, max: u64, accepted: &str) -> Result<u64, String> {
    parse_whole(text, max).map_err(|refused| match refused {
        Refused::NotWhole => format!("'{text}' is not a whole number: use {accepted}"),
        Refused::Grouping => format!(
            "'{text}' is not a whole number: a comma may only separate groups of three digits \
             (1,000,000); use one value, {accepted}"
        ),
        Refused::TooLarge => format!("'{text}' is out of range: use {accepted}"),
        Refused::Negative => format!("'{text}' is negative: use {accepted}"),
    })
}

/// [`parse_setting`] as clap's parser of `flag`'s value.
pub fn setting_parser(flag: &'static str) -> impl Fn(&str) -> Result<u32, String> + Clone {
    move |text| parse_setting(flag, text)
}

/// Parses a count: `1000000`, `1_000_000`, `1,000,000` (commas only between groups of three
/// digits), `1e6` or `2.5e6`.
pub fn parse_count(text: &str) -> Result<u64, String> {
    parse_whole(text, u64::MAX).map_err(|refused| match refused {
        Refused::NotWhole => format!(
            "'{text}' is not a whole number (write e.g. 1000000, 1_000_000, 1,000,000 or 1e6)"
        ),
        Refused::Grouping => format!(
            "'{text}' is not a whole number: a comma may only separate groups of three digits \
             (1,000,000); give one value"
        ),
        Refused::TooLarge => format!("'{text}' is too large (at most {})", group(u64::MAX)),
        Refused::Negative => format!("'{text}' is negative: give a whole number, 0 or more"),
    })
}

/// Why a whole number was refused.
enum Refused {
    /// Not a whole number in any accepted form.
    NotWhole,
    /// Commas that do not separate groups of three digits (`2,3`: a list, most likely).
    Grouping,
    /// A whole number past the bound.
    TooLarge,
    /// A whole number below zero (`-1`): whole, but none of these flags takes it.
    Negative,
}

/// [`parse_count`]'s reading, of a number at most `max`.
fn parse_whole(text: &str, max: u64) -> Result<u64, Refused> {
    let trimmed = text.trim();
    let bad = || Refused::NotWhole;
    let too_large = || Refused::TooLarge;
    if let Some(magnitude) = trimmed.strip_prefix('-') {
        return match parse_whole(magnitude, u64::MAX) {
            // -0 is 0.
            Ok(0) => Ok(0),
            Ok(_) | Err(Refused::TooLarge) => Err(Refused::Negative),
            Err(_) => Err(bad()),
        };
    }
    if trimmed.contains(',') && !thousands_grouped(trimmed) {
        return Err(Refused::Grouping);
    }
    let cleaned: String = trimmed.chars().filter(|c| *c != '_' && *c != ',').collect();
    let all_digits = |t: &str| t.chars().all(|c| c.is_ascii_digit());
    let (mantissa, exponent) = match cleaned.split_once(['e', 'E']) {
        Some((mantissa, exponent)) => (mantissa, exponent.parse::<u32>().map_err(|_| bad())?),
        None if !cleaned.is_empty() && all_digits(&cleaned) => (cleaned.as_str(), 0),
        None => return Err(bad()),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    // 1.50e1 is 15: zeros closing the fraction do not make it less whole.
    let fraction = fraction.trim_end_matches('0');
    if whole.is_empty() && fraction.is_empty() || !all_digits(whole) || !all_digits(fraction) {
        return Err(bad());
    }
    let shift = exponent
        .checked_sub(fraction.len() as u32)
        .ok_or_else(bad)?;
    // Past here every digit is a digit: a number that does not fit is too large, not bad.
    let digits = format!("{whole}{fraction}");
    let base: u64 = digits.parse().map_err(|_| too_large())?;
    10u64
        .checked_pow(shift)
        .and_then(|p| base.checked_mul(p))
        .filter(|&n| n <= max)
        .ok_or_else(too_large)
}

/// `1,000` or `12,345,678`: one to three digits, then groups of exactly three.
fn thousands_grouped(text: &str) -> bool {
    let mut groups = text.split(',');
    let first = groups.next().unwrap_or("");
    let digits = |g: &str| g.chars().all(|c| c.is_ascii_digit());
    (1..=3).contains(&first.len()) && digits(first) && groups.all(|g| g.len() == 3 && digits(g))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_in_every_accepted_form() {
        assert_eq!(parse_count("1000000"), Ok(1_000_000));
        assert_eq!(parse_count("1_000_000"), Ok(1_000_000));
        assert_eq!(parse_count("1,000,000"), Ok(1_000_000));
        assert_eq!(parse_count("1e6"), Ok(1_000_000));
        assert_eq!(parse_count("2.5E6"), Ok(2_500_000));
        assert_eq!(parse_count("0"), Ok(0));
        assert!(parse_count("1.5e0").is_err());
        // A negative number is whole: the refusal says what is wrong with it.
        for negative in ["-3", "-1e3", "-1,000", "-99999999999999999999"] {
            let error = parse_count(negative).unwrap_err();
            assert!(
                error.contains("is negative: give a whole number, 0 or more"),
                "{error}"
            );
        }
        assert_eq!(parse_count("-0"), Ok(0));
        for bad in ["-", "--3", "-1.5", "-e3"] {
            assert!(
                parse_count(bad).unwrap_err().contains("not a whole"),
                "{bad}"
            );
        }
        assert!(parse_count("e6").is_err());
        assert!(parse_count("1e30").is_err());
        assert!(parse_count("abc").is_err());
        assert_eq!(parse_count("12,345,678"), Ok(12_345_678));
        assert_eq!(parse_count("1.50e1"), Ok(15));
        assert_eq!(parse_count("18446744073709551615"), Ok(u64::MAX));
        let too_large = "is too large (at most 18,446,744,073,709,551,615)";
        for huge in ["18446744073709551616", "1e20", "99999999999999999999e0"] {
            assert!(parse_count(huge).unwrap_err().contains(too_large), "{huge}");
        }
        // A setting's bound is its own, however the number is written.
        assert_eq!(parse_setting("--abandon-after", "4294967295"), Ok(u32::MAX));
        for huge in ["4294967296", "1e10", "18446744073709551616", "1e20"] {
            let error = parse_setting("--players", huge).unwrap_err();
            assert_eq!(error, format!("'{huge}' is out of range: use 2 to 32"));
            let error = parse_setting("--reshuffle-every", huge).unwrap_err();
            assert!(error.ends_with("use 0 to 4294967295"), "{huge}: {error}");
        }
        assert_eq!(
            parse_setting("--players", "-2"),
            Err("'-2' is negative: use 2 to 32".to_string())
        );
        assert!(
            parse_setting("--players", "2.5")
                .unwrap_err()
                .contains("not a whole")
        );
        for bad in [
            "2,3", "1,5", "1,0000", ",100", "100,", "1,000.5", "1,000e3", "1,,000",
        ] {
            assert!(parse_count(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn durations_in_every_unit_and_none_past_what_a_duration_holds() {
        use std::time::Duration;
        assert_eq!(parse_duration("0"), Ok(Duration::ZERO));
        assert_eq!(parse_duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_duration("30"), Ok(Duration::from_secs(30)));
        assert_eq!(parse_duration("1.5m"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_duration("2h"), Ok(Duration::from_secs(7200)));
        assert_eq!(parse_duration("1e3s"), Ok(Duration::from_secs(1000)));
        assert_eq!(parse_duration("2.5e2ms"), Ok(Duration::from_millis(250)));
        assert_eq!(parse_duration("1E1"), Ok(Duration::from_secs(10)));
        for bad in [
            "-1s",
            "5x",
            "",
            "h",
            "NaN",
            "inf",
            "infinitys",
            "5 s",
            "ms5",
            "5sm",
        ] {
            let error = parse_duration(bad).unwrap_err();
            assert!(error.contains("is not a duration"), "{bad}: {error}");
        }
        let beyond_floats = format!("{}ms", "9".repeat(400));
        for huge in [
            "18446744073709551616",
            "99999999999999999999h",
            &beyond_floats,
        ] {
            let error = parse_duration(huge).unwrap_err();
            assert!(error.contains("is too long"), "{huge}: {error}");
        }
    }
}
