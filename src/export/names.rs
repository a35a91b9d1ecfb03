//! Output names that promise another format: `--plot lengths.png` would be an SVG that picture
//! viewers refuse, `--csv games.csv.gz` plain text that gunzip and pandas refuse, `--parquet
//! games.csv` bytes no CSV reader takes. Such a name is refused before anything is written,
//! saying what the flag writes and how to get what the name asks for. A name whose extension
//! says nothing known (`games`, `run.out`, `lengths.hgrm`) is the user's choice, and kept.

use std::path::Path;

use super::Target;
use super::files::OutputError;

/// The extension of what an output flag writes (its format's name is in [`KNOWN`]).
fn extension_of_flag(flag: &str) -> Option<&'static str> {
    Some(match flag {
        "--csv" | "--games-csv" | "--summary" | "--histogram" | "--seats" => "csv",
        "--json" | "--state" => "json",
        "--parquet" => "parquet",
        "--plot" => "svg",
        "--hdr" => "hlog",
        _ => return None,
    })
}

/// The format a known extension names.
fn format_named(extension: &str) -> Option<&'static str> {
    KNOWN
        .iter()
        .find(|(e, _)| *e == extension)
        .map(|&(_, format)| format)
}

/// Extensions that name a format other readers go by, and the format.
const KNOWN: [(&str, &str); 17] = [
    ("csv", "CSV"),
    ("tsv", "tab-separated text"),
    ("json", "JSON"),
    ("parquet", "Parquet"),
    ("arrow", "Arrow"),
    ("feather", "Arrow"),
    ("xlsx", "Excel"),
    ("xls", "Excel"),
    ("ods", "OpenDocument"),
    ("svg", "SVG"),
    ("png", "PNG"),
    ("jpg", "JPEG"),
    ("jpeg", "JPEG"),
    ("gif", "GIF"),
    ("webp", "WebP"),
    ("pdf", "PDF"),
    ("hlog", "an HdrHistogram log"),
];

/// Extensions of compressed files, with the tool that compresses a stream so (none for zip,
/// which does not).
const COMPRESSED: [(&str, &str, Option<&str>); 5] = [
    ("gz", "gzip", Some("gzip")),
    ("bz2", "bzip2", Some("bzip2")),
    ("xz", "xz", Some("xz")),
    ("zst", "zstd", Some("zstd")),
    ("zip", "zip", None),
];

/// Refuses `target` when its name's extension is another format's (or a compressor's) than
/// what `flag` writes.
pub(super) fn check_name(flag: &'static str, target: &Target) -> Result<(), OutputError> {
    let (Target::File(path), Some(extension)) = (target, extension_of_flag(flag)) else {
        return Ok(());
    };
    let format = format_named(extension).expect("every flag's extension is known");
    let Some(given) = extension_of(path) else {
        return Ok(());
    };
    let name = path.display().to_string();
    let refuse = |reason: String| {
        Err(OutputError {
            flag,
            path: name.clone(),
            reason,
        })
    };
    if let Some(&(_, compressor, tool)) = COMPRESSED.iter().find(|(e, ..)| *e == given) {
        let stream = match tool {
            Some(tool) => format!(", or compress it as it is written: {flag} - | {tool} > {name}"),
            None => String::new(),
        };
        let parquet = match extension {
            "csv" => "; --parquet writes compressed columns",
            _ => "",
        };
        return refuse(format!(
            "the name says {compressor}, and {flag} writes {format} uncompressed: name it \
             .{extension}{stream}{parquet}"
        ));
    }
    let Some(named) = format_named(&given) else {
        return Ok(());
    };
    if named == format {
        return Ok(());
    }
    let svg = path.with_extension("svg").display().to_string();
    let convert = match (extension, given.as_str()) {
        ("svg", "png" | "pdf") => format!(
            " (warsim draws SVG, which needs no fonts; convert it where you need {named}: \
             rsvg-convert -f {given} -o {name} {svg})"
        ),
        ("svg", _) => format!(
            " (warsim draws SVG, which needs no fonts; convert it where you need {named}, e.g. \
             with Inkscape or ImageMagick)"
        ),
        _ => String::new(),
    };
    refuse(format!(
        "the name says {named}, and {flag} writes {format}: name it .{extension}{convert}"
    ))
}

/// The last extension of a file's name, lower-cased (`Games.CSV` → `csv`); none for a name
/// without one or a hidden file's (`.csv`).
fn extension_of(path: &Path) -> Option<String> {
    let name = path.file_name()?.to_str()?;
    let (stem, extension) = name.rsplit_once('.')?;
    (!stem.is_empty() && !extension.is_empty()).then(|| extension.to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn checked(flag: &'static str, name: &str) -> Result<(), String> {
        check_name(flag, &Target::parse(name)).map_err(|e| e.to_string())
    }

    #[test]
    fn names_of_the_format_written_or_of_none_known_are_kept() {
        for (flag, name) in [
            ("--csv", "games.csv"),
            ("--csv", "Games.CSV"),
            ("--csv", "games"),
            ("--csv", "run.out"),
            ("--csv", "-"),
            ("--csv", "/dev/null"),
            ("--csv", "dir.d/.csv"),
            ("--plot", "lengths.svg"),
            ("--hdr", "lengths.hgrm"),
            ("--state", "state.json"),
            ("--state", "run.state"),
            ("--parquet", "games.parquet"),
            ("--seats", "seats.csv"),
            ("--summary", "summary.csv"),
        ] {
            assert_eq!(checked(flag, name), Ok(()), "{flag} {name}");
        }
    }

    #[test]
    fn names_of_another_format_or_compressed_are_refused_saying_how_to_get_it() {
        for (flag, name, says) in [
            (
                "--plot",
                "lengths.png",
                "--plot lengths.png: the name says PNG, and --plot writes SVG: name it .svg \
                 (warsim draws SVG, which needs no fonts; convert it where you need PNG: \
                 rsvg-convert -f png -o lengths.png lengths.svg)",
            ),
            (
                "--plot",
                "medians.jpeg",
                "convert it where you need JPEG, e.g. with Inkscape or ImageMagick)",
            ),
            (
                "--csv",
                "games.csv.gz",
                "--csv games.csv.gz: the name says gzip, and --csv writes CSV uncompressed: name \
                 it .csv, or compress it as it is written: --csv - | gzip > games.csv.gz; \
                 --parquet writes compressed columns",
            ),
            (
                "--json",
                "summary.json.zip",
                "--json summary.json.zip: the name says zip, and --json writes JSON uncompressed: \
                 name it .json",
            ),
            (
                "--parquet",
                "games.csv",
                "--parquet games.csv: the name says CSV, and --parquet writes Parquet: name it \
                 .parquet",
            ),
            (
                "--histogram",
                "out/lengths.XLSX",
                "the name says Excel, and --histogram writes CSV: name it .csv",
            ),
            ("--state", "state.csv", "--state writes JSON: name it .json"),
            ("--hdr", "lengths.json", "--hdr writes an HdrHistogram log"),
        ] {
            let error = checked(flag, name).unwrap_err();
            assert!(error.contains(says), "{flag} {name}: {error}");
        }
    }
}
