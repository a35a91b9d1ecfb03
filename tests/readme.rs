//! The README's examples, run: every fenced `text` block that starts with `$ warsim …` is a
//! transcript. Each `$` line runs in a shell (with this build's `warsim` first on the PATH; the
//! lines of a block in order, in a fresh folder of the block's own) and its standard output (add
//! `2>&1` to show standard error) must match the lines below it. In the expected lines, a line
//! `...` stands for any number of lines and `[..]` for any text within a line; trailing spaces
//! are ignored. Interactive examples are fed the answers shown after their prompts. So no
//! example can go stale unnoticed, and no link either: each link of a Markdown page to a page
//! or file of the repository finds it, and its heading. Nor can a table of any Markdown page
//! break: every row is in a table, as wide as its header.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use common::EndsWithTest;

use crate::common;

/// One `$` command of a README block and the output shown under it.
struct Example {
    /// Which fenced block it is in: the lines of a block share a folder.
    block: usize,
    line: usize,
    command: String,
    expected: Vec<String>,
}

fn examples(readme: &str) -> Vec<Example> {
    let mut examples = Vec::new();
    let mut in_text = false;
    let mut indent = 0;
    let mut current: Option<Example> = None;
    let mut block = 0;
    for (number, line) in readme.lines().enumerate() {
        if !in_text {
            in_text = line.trim_start() == "```text";
            block += usize::from(in_text);
            // A block inside a list item is indented like the item's text.
            indent = line.len() - line.trim_start().len();
            continue;
        }
        let line = line
            .get(indent..)
            .filter(|_| line.starts_with(&" ".repeat(indent)))
            .unwrap_or(line);
        if line.trim_start().starts_with("```") {
            in_text = false;
            examples.extend(current.take());
            continue;
        }
        if let Some(command) = line.strip_prefix("$ ") {
            examples.extend(current.take());
            current = Some(Example {
                block,
                line: number + 1,
                command: command.to_string(),
                expected: Vec::new(),
            });
        } else if let Some(example) = current.as_mut() {
            example.expected.push(line.trim_end().to_string());
        }
    }
    examples
}

/// True when `text` matches `pattern`, where `[..]` matches any text.
fn line_matches(pattern: &str, text: &str) -> bool {
    let mut parts = pattern.split("[..]");
    let first = parts.next().unwrap_or("");
    let Some(mut rest) = text.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    for (i, part) in parts.iter().enumerate() {
        if i + 1 == parts.len() {
            return rest.ends_with(part);
        }
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.is_empty()
}

/// True when the lines match, `...` standing for any number of lines.
fn lines_match(expected: &[String], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first == "..." => {
            (0..=actual.len()).any(|skip| lines_match(rest, &actual[skip..]))
        }
        Some((first, rest)) => {
            !actual.is_empty()
                && line_matches(first, actual[0].trim_end())
                && lines_match(rest, &actual[1..])
        }
    }
}

fn run(example: &Example, folder: &Path) -> String {
    let bin = assert_cmd::cargo::cargo_bin("warsim");
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut child = Command::new("sh")
        .args(["-c", &example.command])
        // `play --interactive` reads its moves from the example's input, not a terminal.
        .env("WARSIM_SCRIPTED_INPUT", "1")
        .env("PATH", path)
        .current_dir(folder)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .ends_with_test()
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    if example.command.contains("--interactive") {
        // The answers typed after each prompt.
        for line in &example.expected {
            if let Some((_, answer)) = line.split_once("press Enter to flip, q to quit:") {
                writeln!(stdin, "{}", answer.trim()).unwrap();
            }
        }
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn every_readme_example_prints_what_the_readme_shows() {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let examples = examples(&readme);
    assert!(examples.len() >= 10, "found {} examples", examples.len());
    let mut stale = Vec::new();
    let mut folder = (0, tempfile::tempdir().unwrap());
    for example in &examples {
        if example.block != folder.0 {
            folder = (example.block, tempfile::tempdir().unwrap());
        }
        let folder = &folder.1;
        let output = run(example, folder.path());
        let actual: Vec<&str> = output.lines().collect();
        if !lines_match(&example.expected, &actual) {
            stale.push(format!(
                "README.md:{}: $ {}\n--- shown:\n{}\n--- printed:\n{}",
                example.line,
                example.command,
                example.expected.join("\n"),
                output
            ));
        }
    }
    assert!(stale.is_empty(), "stale examples:\n{}", stale.join("\n\n"));
}

#[test]
fn the_matcher_understands_its_wildcards() {
    let lines = |text: &str| text.lines().map(String::from).collect::<Vec<_>>();
    assert!(lines_match(&lines("a\n...\nd"), &["a", "b", "c", "d"]));
    assert!(lines_match(&lines("...\nd"), &["d"]));
    assert!(!lines_match(&lines("a\nd"), &["a", "b", "d"]));
    assert!(line_matches(
        "time [..] s   [..] games/s",
        "time 0.3 s   3,100 games/s"
    ));
    assert!(!line_matches("time [..] s", "time 0.3 ms!"));
    assert!(line_matches("exact", "exact"));
}

/// A heading's anchor as GitHub makes it: lower case, punctuation but `-` and `_` dropped,
/// spaces as `-`.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// A page's headings as anchors, outside fenced blocks.
fn anchors(text: &str) -> Vec<String> {
    let mut fenced = false;
    let mut anchors = Vec::new();
    for line in text.lines() {
        fenced ^= line.trim_start().starts_with("```");
        if !fenced && line.starts_with('#') {
            anchors.push(anchor(line.trim_start_matches('#')));
        }
    }
    anchors
}

/// A page's link targets (`[text](target)`) but web addresses.
fn links(text: &str) -> Vec<&str> {
    text.split("](")
        .skip(1)
        .filter_map(|rest| rest.split_once(')').map(|(target, _)| target))
        .filter(|target| !target.starts_with("http"))
        .collect()
}

#[test]
fn every_link_between_pages_finds_its_file_and_heading() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let readme_anchors = anchors(&readme);
    assert!(
        readme_anchors.contains(&"warsim-run-flags".to_string()),
        "{readme_anchors:?}"
    );
    let within = links(&readme).iter().filter(|l| l.starts_with('#')).count();
    assert!(
        within >= 15,
        "the README links {within} times to its headings"
    );
    let mut pages = Vec::new();
    markdown_files(root, &mut pages);
    let mut broken = Vec::new();
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        let name = page.strip_prefix(root).unwrap().display();
        for target in links(&text) {
            let (file, heading) = target.split_once('#').unwrap_or((target, ""));
            let linked = match file {
                "" => page.clone(),
                file => page.parent().unwrap().join(file),
            };
            if !linked.exists() {
                broken.push(format!("{name}: ({target}): no such file"));
            } else if !heading.is_empty() && linked.extension().is_some_and(|e| e == "md") {
                let text = std::fs::read_to_string(&linked).unwrap();
                if !anchors(&text).iter().any(|a| a == heading) {
                    broken.push(format!("{name}: ({target}): no such heading"));
                }
            }
        }
    }
    assert!(broken.is_empty(), "{broken:#?}");
}

/// The repository's Markdown files (not those under `target/` or hidden folders).
fn markdown_files(folder: &Path, found: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(folder).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy();
        if path.is_dir() && !name.starts_with('.') && name != "target" {
            markdown_files(&path, found);
        } else if name.ends_with(".md") {
            found.push(path);
        }
    }
}

/// A table row's cells: its `|`s but an outer pair and escaped ones (`\|`), plus one.
fn cells(row: &str) -> usize {
    let row = row.trim().replace("\\|", "");
    let inner = row.strip_prefix('|').unwrap_or(&row);
    let inner = inner.strip_suffix('|').unwrap_or(inner);
    inner.matches('|').count() + 1
}

#[test]
fn every_table_row_is_in_a_table_of_its_headers_width() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pages = Vec::new();
    markdown_files(root, &mut pages);
    assert!(pages.len() >= 20, "{pages:?}");
    let delimiter = |line: &str| {
        let line = line.trim();
        line.starts_with('|') && line.contains("---") && line.chars().all(|c| "|-: ".contains(c))
    };
    let mut wrong = Vec::new();
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let mut fenced = false;
        // The header's width of the table being read.
        let mut width = None;
        for (number, line) in lines.iter().enumerate() {
            fenced ^= line.trim_start().starts_with("```");
            if fenced || !line.trim_start().starts_with('|') {
                width = None;
                continue;
            }
            let place = format!(
                "{}:{}",
                page.strip_prefix(root).unwrap().display(),
                number + 1
            );
            match width {
                // A row after a blank line, or after text, starts a table only with a
                // delimiter row under it: else it shows as text, its pipes and all.
                None if !lines.get(number + 1).is_some_and(|next| delimiter(next)) => {
                    wrong.push(format!("{place}: a row outside any table"));
                }
                None => width = Some(cells(line)),
                // Cells past the header's are dropped from the page.
                Some(width) if cells(line) != width => {
                    wrong.push(format!(
                        "{place}: {} cells, the header {width}",
                        cells(line)
                    ));
                }
                Some(_) => {}
            }
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}
