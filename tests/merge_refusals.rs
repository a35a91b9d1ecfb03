//! `warsim merge` refuses every kind of bad input with exit 2 and one `error:` line naming the
//! files, before anything is written: states of another batch (rules, seed, size, warsim),
//! games held twice or missing (unless `--allow-partial`, which marks the figures
//! incomplete), files that are not states, truncated, of another format version, or edited
//! (counts, parts, seats or wall times that cannot be), and lists of states that cannot be
//! read or list none.

use crate::common;

use std::path::PathBuf;

use assert_cmd::Command;
use common::{json, shard_states, warsim};
use tempfile::TempDir;

#[test]
fn states_that_do_not_make_one_batch_are_refused() {
    let dir = TempDir::new().unwrap();
    let p = |name: &str| dir.path().join(name);
    let states = shard_states(dir.path(), &[], "1000", 3);
    let (s2, s1, s0) = (&states[0], &states[1], &states[2]);
    let other = |name: &str, extra: &[&str]| {
        let given = |flag: &str| extra.contains(&flag);
        warsim()
            .args(["run", "-q", "--shard", "0/3"])
            .args(if given("--games") {
                &[][..]
            } else {
                &["--games", "1000"]
            })
            .args(if given("--seed") {
                &[][..]
            } else {
                &["--seed", "13"]
            })
            .args(extra)
            .arg("--state")
            .arg(p(name))
            .assert()
            .success();
        p(name)
    };
    let pickup = other("pickup.json", &["--pickup", "seats"]);
    let seed = other("seed.json", &["--seed", "14"]);
    let games = other("games.json", &["--games", "999"]);
    let summary = p("summary.json");
    warsim()
        .args(["run", "--games", "10", "-q", "--json"])
        .arg(&summary)
        .assert()
        .success();
    let truncated = p("truncated.json");
    let text = std::fs::read(s1).unwrap();
    std::fs::write(&truncated, &text[..text.len() / 2]).unwrap();
    let version = p("version.json");
    let text = String::from_utf8(std::fs::read(s1).unwrap()).unwrap();
    std::fs::write(
        &version,
        text.replace("\"format_version\": 1", "\"format_version\": 2"),
    )
    .unwrap();
    let older = p("older.json");
    let this = format!("\"warsim_version\": \"{}\"", env!("CARGO_PKG_VERSION"));
    assert!(text.contains(&this));
    std::fs::write(&older, text.replace(&this, "\"warsim_version\": \"0.0.9\"")).unwrap();
    let edited = p("edited.json");
    std::fs::write(
        &edited,
        text.replacen("\"games\": 333", "\"games\": 300", 1),
    )
    .unwrap();
    // A part reaching past the batch's end, or so far that its end wraps round.
    assert!(text.contains("\"first_game\": 333,"));
    let beyond = p("beyond.json");
    std::fs::write(
        &beyond,
        text.replace("\"first_game\": 333", "\"first_game\": 900"),
    )
    .unwrap();
    let wraps = p("wraps.json");
    let last = format!("\"first_game\": {}", u64::MAX);
    std::fs::write(&wraps, text.replace("\"first_game\": 333", &last)).unwrap();
    // Wins counted for three seats in a two-player batch.
    let seats = p("seats.json");
    let mut extra_seat = json(s1);
    let wins = extra_seat["stats"]["wins_by_seat"].as_array_mut().unwrap();
    wins.insert(1, 0.into());
    std::fs::write(&seats, extra_seat.to_string()).unwrap();
    // A wall time below zero; and two so long that their sum is more than a duration holds.
    let negative = p("negative.json");
    let mut timed = json(s1);
    timed["wall_seconds"] = (-1.0).into();
    std::fs::write(&negative, timed.to_string()).unwrap();
    let long: Vec<PathBuf> = [s0, s1, s2]
        .iter()
        .enumerate()
        .map(|(k, state)| {
            let mut timed = json(state);
            timed["wall_seconds"] = 1.5e308.into();
            let path = p(&format!("long-{k}.json"));
            std::fs::write(&path, timed.to_string()).unwrap();
            path
        })
        .collect();
    // Whole JSON, but no state file's object; and a state whose format's name is no text.
    let number = p("number.json");
    std::fs::write(&number, "42\n").unwrap();
    let list = p("list.json");
    std::fs::write(&list, "[\"warsim-state\", 1]\n").unwrap();
    let odd_format = p("odd-format.json");
    std::fs::write(
        &odd_format,
        text.replace("\"format\": \"warsim-state\"", "\"format\": 7"),
    )
    .unwrap();
    let cases: Vec<(Vec<&PathBuf>, &str)> = vec![
        (
            vec![s0, &pickup],
            "not shards of one batch: their rules differ",
        ),
        (vec![s0, &seed], "their seeds differ"),
        (vec![s0, &older, s2], "their warsim versions differ"),
        (vec![s0, &games], "their batch sizes differ"),
        (vec![s0, s1, s1, s2], "both hold game 333"),
        (
            vec![s0, s2],
            "333 of the batch's 1,000 games are missing (games 333 to 665)",
        ),
        (vec![s0, &truncated], "truncated or not a state file"),
        (vec![s0, &version], "has state format version 2"),
        (vec![s0, &summary], "is not a warsim state file"),
        (vec![s0, &number], "is not a warsim state file"),
        (vec![s0, &list], "is not a warsim state file"),
        (vec![s0, &odd_format], "is not a warsim state file"),
        (vec![s0, &edited, s2], "is damaged"),
        (
            vec![s0, &beyond],
            "beyond.json: is damaged: its game counts disagree",
        ),
        (
            vec![s0, &wraps],
            "wraps.json: is damaged: its game counts disagree",
        ),
        (
            vec![s0, &seats],
            "seats.json: is damaged: it counts wins for 3 seats, and its rules seat 2",
        ),
        (
            vec![s0, &negative],
            "negative.json: is damaged: its wall time is not a number of seconds",
        ),
    ];
    let merged = p("merged.json");
    for (files, needle) in cases {
        let out = warsim()
            .arg("merge")
            .args(&files)
            .arg("--json")
            .arg(&merged)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{needle}: {err}");
        assert!(
            err.starts_with("error: ") && err.contains(needle),
            "{needle}: {err}"
        );
        assert!(!merged.exists(), "nothing is written");
    }
    // A list of states that cannot be read, or that lists none.
    std::fs::write(p("empty.txt"), "\n").unwrap();
    for (list, needle) in [
        ("no-list.txt", "no-list.txt: cannot be read"),
        ("empty.txt", "empty.txt: lists no state file"),
    ] {
        let out = warsim()
            .arg("merge")
            .arg(s0)
            .arg("--states-from")
            .arg(p(list))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.code() == Some(2) && err.contains(needle),
            "{err}"
        );
    }
    // Wall times too long to add up make the longest duration, not a panic.
    let out = warsim().arg("merge").args(&long).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // --allow-partial merges what there is, says what is missing, and marks it incomplete.
    let out = warsim()
        .args(["merge", "--allow-partial", "--json"])
        .arg(&merged)
        .arg("--hdr")
        .arg(p("merged.hlog"))
        .args([s0, s2])
        .output()
        .unwrap();
    assert!(out.status.success());
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(
        report.contains(
            "667 of 1,000 asked for (incomplete: the figures describe games 0 to 332, 666 to 999)"
        ),
        "{report}"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("missing games 333 to 665"));
    let summary = json(&merged);
    assert_eq!(summary["complete"], false);
    assert_eq!(summary["games"], 667);
    // So does the HdrHistogram log's tag.
    let log = std::fs::read_to_string(p("merged.hlog")).unwrap();
    assert!(
        log.contains(";games_requested=1000;games=667;complete=false;"),
        "{log}"
    );
}

/// Runs `merge`, which must refuse (exit 2, nothing on standard output); returns what it said.
fn refused(merge: &mut Command) -> String {
    let out = merge.output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(out.stdout.is_empty(), "{err}");
    err
}

/// An output that is one of the states being merged, or the list naming them, replaced it:
/// `merge a.state b.state --json a.state` lost a shard's state to the summary.
#[test]
fn an_output_that_is_one_of_the_inputs_is_refused_and_the_input_kept() {
    let dir = TempDir::new().unwrap();
    let states = shard_states(dir.path(), &[], "100", 2);
    let list = dir.path().join("states.txt");
    let names: Vec<String> = states.iter().map(|s| s.display().to_string()).collect();
    std::fs::write(&list, names.join("\n")).unwrap();
    let link = dir.path().join("link");
    std::os::unix::fs::symlink(&states[1], &link).unwrap();
    let read = |path: &PathBuf| std::fs::read(path).unwrap();
    let before: Vec<Vec<u8>> = [&states[0], &states[1], &list].map(read).into();
    let dotted = dir.path().join(".").join(states[0].file_name().unwrap());
    let cases: [(&str, &PathBuf, PathBuf, &str); 3] = [
        ("--json", &states[0], dotted, "a state being merged"),
        ("--plot", &states[1], link.clone(), "a state being merged"),
        (
            "--summary",
            &list,
            list.clone(),
            "the list --states-from reads",
        ),
    ];
    for (flag, input, output, what) in cases {
        let err = refused(
            warsim()
                .args(["merge", "--states-from"])
                .arg(&list)
                .arg(flag)
                .arg(&output),
        );
        assert_eq!(
            err,
            format!(
                "error: {flag} {}: is {}, {what}: writing there would replace it; give the \
                 output another path\n",
                output.display(),
                input.display()
            )
        );
    }
    // The list read from standard input: the file it comes from.
    let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("warsim"))
        .args(["merge", "--states-from", "-", "--json"])
        .arg(&list)
        .stdin(std::fs::File::open(&list).unwrap())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("is /dev/stdin, the list --states-from reads"),
        "{err}"
    );
    let after: Vec<Vec<u8>> = [&states[0], &states[1], &list].map(read).into();
    assert!(before == after, "every input kept");
}

/// An output named as a merged state's lock file: a run still writing that state (merging its
/// checkpoint is allowed) holds the file and removes it when it ends, taking the output with it.
#[test]
fn an_output_that_is_a_merged_states_lock_file_is_refused() {
    let dir = TempDir::new().unwrap();
    let states = shard_states(dir.path(), &[], "100", 2);
    let lock = |state: &PathBuf| PathBuf::from(format!("{}.lock", state.display()));
    let spelled = dir
        .path()
        .join(".")
        .join(lock(&states[1]).file_name().unwrap());
    for (state, output) in [(&states[0], lock(&states[0])), (&states[1], spelled)] {
        let err = refused(
            warsim()
                .arg("merge")
                .args(&states)
                .arg("--json")
                .arg(&output),
        );
        assert_eq!(
            err,
            format!(
                "error: --json {}: is the lock file of {}, a state being merged, which a run \
                 writing that state holds and then removes: give the output another path\n",
                output.display(),
                state.display()
            )
        );
        assert!(!output.exists(), "nothing written");
    }
}

/// A state that is not there is named before any output is judged: `merge gone.state --json
/// gone.state.lock` was refused for the lock file of a state that does not exist.
#[test]
fn a_missing_state_is_named_before_the_outputs() {
    let dir = TempDir::new().unwrap();
    let states = shard_states(dir.path(), &[], "100", 2);
    let gone = dir.path().join("gone.state");
    let lock = dir.path().join("gone.state.lock");
    for output in [&lock, &dir.path().to_path_buf()] {
        let err = refused(
            warsim()
                .arg("merge")
                .args(&states)
                .arg(&gone)
                .arg("--json")
                .arg(output),
        );
        assert_eq!(
            err,
            format!(
                "error: {}: cannot be read (No such file or directory (os error 2))\n",
                gone.display()
            )
        );
    }
    assert!(!lock.exists(), "nothing written");
}

/// `run`'s and `sweep`'s per-game flags: a merge has no rows to write, and says where they are
/// (clap's refusal suggested passing `--csv` as a value, `-- --csv`).
#[test]
fn per_game_flags_are_refused_with_where_the_rows_are() {
    let dir = TempDir::new().unwrap();
    let states = shard_states(dir.path(), &[], "100", 2);
    for (given, flag, hint) in [
        ("--csv", "--csv", true),
        ("--csv=rows.csv", "--csv", true),
        ("--games-csv", "--games-csv", false),
        ("--parquet", "--parquet", false),
    ] {
        let mut merge = warsim();
        merge
            .current_dir(dir.path())
            .arg("merge")
            .args(&states)
            .arg(given);
        if !given.contains('=') {
            merge.arg("rows.out");
        }
        let err = refused(&mut merge);
        let wanted = format!(
            "error: {flag} is not a merge's: a state holds figures, not games, so a merge writes \
             no per-game rows (each shard's own {flag} file holds its games)"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with(&wanted), "{err}");
        assert_eq!(err.contains("use --summary PATH"), hint, "{err}");
    }
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        2,
        "nothing written"
    );
}
