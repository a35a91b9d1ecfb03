//! State files edited by hand or damaged: every number of a run's and of a sweep's state set in
//! turn to values no run writes (past 2^64 − 1's neighbours, below zero, 1e308), then merged
//! with its batch's other shard into every output. Each is refused with exit status 2 and one
//! `error:` line, or merged; never a panic (a wall time of 1e308 seconds once overflowed the
//! HdrHistogram log's interval times, a negative one the report's duration). A checkpoint's
//! command line edited is refused saying why.

use std::path::Path;
use std::process::Command;

use serde_json::Value;
use tempfile::TempDir;

use crate::common;

/// What each number is set to in turn.
fn extremes() -> [Value; 3] {
    [u64::MAX.into(), (-1).into(), 1e308.into()]
}

/// Every number in `value`, as a path of keys and indexes; of a list, its first two items and
/// its last.
fn numbers(value: &Value, path: &mut Vec<Value>, found: &mut Vec<Vec<Value>>) {
    match value {
        Value::Number(_) => found.push(path.clone()),
        Value::Object(map) => {
            for (key, item) in map {
                path.push(key.clone().into());
                numbers(item, path, found);
                path.pop();
            }
        }
        Value::Array(items) => {
            let mut indexes: Vec<usize> = (0..items.len().min(2)).collect();
            indexes.extend(items.len().checked_sub(1).filter(|&last| last >= 2));
            for index in indexes {
                path.push(index.into());
                numbers(&items[index], path, found);
                path.pop();
            }
        }
        _ => {}
    }
}

fn at<'a>(value: &'a mut Value, path: &[Value]) -> &'a mut Value {
    path.iter().fold(value, |value, step| match step {
        Value::String(key) => &mut value[key.as_str()],
        index => &mut value[index.as_u64().unwrap() as usize],
    })
}

fn warsim(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_warsim"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn every_number_of_a_state_edited_is_refused_or_merged_never_a_panic() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let sweep = [
        "sweep",
        "--players",
        "2,3",
        "--ranks",
        "6",
        "--games",
        "200",
    ];
    let run = ["run", "--games", "200"];
    for (name, command) in [("run", &run[..]), ("sweep", &sweep[..])] {
        for k in 0..2 {
            let shard = format!("{k}/2");
            let state = format!("{name}-{k}.json");
            let args = [command, &["-q", "--shard", &shard, "--state", &state]].concat();
            assert!(warsim(d, &args).status.success());
        }
        let text = std::fs::read(d.join(format!("{name}-1.json"))).unwrap();
        let whole: Value = serde_json::from_slice(&text).unwrap();
        let mut paths = Vec::new();
        numbers(&whole, &mut Vec::new(), &mut paths);
        assert!(paths.len() > 20, "{name}: {} numbers", paths.len());
        for path in &paths {
            for extreme in extremes() {
                let mut edited = whole.clone();
                *at(&mut edited, path) = extreme.clone();
                std::fs::write(d.join("edited.json"), edited.to_string()).unwrap();
                let first = format!("{name}-0.json");
                let out = warsim(
                    d,
                    &[
                        "merge",
                        &first,
                        "edited.json",
                        "--allow-partial",
                        "--json",
                        "merged.json",
                        "--histogram",
                        "lengths.csv",
                        "--hdr",
                        "lengths.hlog",
                        "--plot",
                        "lengths.svg",
                    ],
                );
                let err = String::from_utf8_lossy(&out.stderr);
                let refused = out.status.code() == Some(2)
                    && err.starts_with("error: ")
                    && err.lines().count() == 1;
                assert!(
                    out.status.success() || refused,
                    "{name} {path:?} = {extreme}: {:?} {err}",
                    out.status.code()
                );
            }
        }
    }
}

/// A checkpoint whose recorded command line this warsim cannot read (edited, or written by a
/// build that took a flag this one refuses) is refused saying why, and left as it was.
#[test]
fn a_checkpoint_whose_command_line_cannot_be_read_is_refused_saying_why() {
    let dir = TempDir::new().unwrap();
    let state = dir.path().join("s.state");
    let run = "run --games 1e9 --suits 16 --state s.state --checkpoint-every 10ms -q";
    common::killed_at_first_checkpoint(dir.path(), run, &state);
    let mut value: Value = serde_json::from_slice(&std::fs::read(&state).unwrap()).unwrap();
    let command = value["resume"]["command"].as_array().unwrap().clone();
    let cases: [(Vec<Value>, &str); 2] = [
        (
            [command.clone(), vec!["--plot-scale".into(), "log".into()]].concat(),
            "s.state: its command line cannot be read by this warsim (the following required \
             arguments were not provided: --plot <PATH>)",
        ),
        (
            vec!["sweep".into(), "--players".into(), "2,3".into()],
            "s.state: its command line is not a `warsim run`",
        ),
    ];
    for (recorded, expected) in cases {
        value["resume"]["command"] = recorded.into();
        let text = serde_json::to_string_pretty(&value).unwrap();
        std::fs::write(&state, &text).unwrap();
        let out = warsim(dir.path(), &["resume", "s.state"]);
        assert_eq!(out.status.code(), Some(2));
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            format!("error: {expected}\n")
        );
        assert_eq!(std::fs::read_to_string(&state).unwrap(), text, "left alone");
    }
}

/// A complete checkpoint is said complete only once its figures are found whole: one count
/// edited in a run's, a sweep's cell's or an enumeration's is refused by `warsim resume` as
/// `merge` would refuse it (and as a checkpoint not yet complete is), never "nothing to resume";
/// and by its command with `--continue`, a sweep's naming the cell as `merge` does.
#[test]
fn a_complete_checkpoint_whose_counts_were_edited_is_refused_by_resume() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let sweep = "sweep --players 2,3 --ranks 6 --games 50";
    let cases: [(&str, &str, &[&str], &str); 3] = [
        (
            "run --games 100",
            "r.json",
            &["stats", "wins_by_seat"],
            "is damaged: its counts do not add up (games, outcomes, lengths and wins disagree)",
        ),
        (
            sweep,
            "s.json",
            &["cells", "1", "stats", "wins_by_seat"],
            "cell 1 (players=3 ranks=6): is damaged: its counts do not add up (games, \
             outcomes, lengths and wins disagree)",
        ),
        (
            "enumerate --ranks 5 --suits 1",
            "e.json",
            &["tally", "wins"],
            "is damaged: its tally does not add up",
        ),
    ];
    for (command, state, counts, damage) in cases {
        let args: Vec<&str> = command.split(' ').chain(["-q", "--state", state]).collect();
        assert!(warsim(d, &args).status.success(), "{command}");
        let complete = warsim(d, &["resume", state]);
        let said = String::from_utf8_lossy(&complete.stderr);
        assert!(said.ends_with("nothing to resume\n"), "{said}");
        let mut value: Value =
            serde_json::from_slice(&std::fs::read(d.join(state)).unwrap()).unwrap();
        let wins = counts
            .iter()
            .fold(&mut value, |v, key| match key.parse::<usize>() {
                Ok(index) => &mut v[index],
                Err(_) => &mut v[*key],
            });
        wins[0] = (wins[0].as_u64().unwrap() + 1).into();
        let text = serde_json::to_string_pretty(&value).unwrap();
        std::fs::write(d.join(state), &text).unwrap();
        // And its own command with --continue, which would write its outputs again.
        let again = [&args[..], &["--continue"]].concat();
        for args in [&["resume", state][..], &again] {
            let out = warsim(d, args);
            assert_eq!(out.status.code(), Some(2), "{args:?}");
            assert_eq!(
                String::from_utf8_lossy(&out.stderr),
                format!("error: {state}: {damage}\n")
            );
            let now = std::fs::read_to_string(d.join(state)).unwrap();
            assert_eq!(now, text, "left alone");
        }
    }
}

/// A checkpoint that counts per-game CSV rows though its command writes no per-game file (none,
/// or standard output, whose rows are never counted) is edited: `resume` and the command with
/// `--continue` refuse it in one line before saying they resume, and change nothing.
#[test]
fn a_checkpoint_counting_csv_rows_its_command_does_not_write_is_refused_first() {
    let runs = [
        "run --games 1e9 --suits 16 --state s.state --checkpoint-every 10ms -q",
        "run --games 1e9 --suits 16 --state s.state --checkpoint-every 10ms -q --csv -",
        "sweep --players 2,3 --games 1e9 --state s.state --checkpoint-every 10ms -q",
    ];
    for run in runs {
        let dir = TempDir::new().unwrap();
        let state = dir.path().join("s.state");
        common::killed_at_first_checkpoint(dir.path(), run, &state);
        let mut value: Value = serde_json::from_slice(&std::fs::read(&state).unwrap()).unwrap();
        assert_eq!(value["resume"]["csv_bytes"], 0, "{run}");
        value["resume"]["csv_bytes"] = 4096.into();
        let text = serde_json::to_string_pretty(&value).unwrap();
        std::fs::write(&state, &text).unwrap();
        let again: Vec<&str> = run.split(' ').chain(["--continue"]).collect();
        for args in [&["resume", "s.state"][..], &again] {
            let out = warsim(dir.path(), args);
            assert_eq!(out.status.code(), Some(2), "{args:?}");
            assert_eq!(
                String::from_utf8_lossy(&out.stderr),
                "error: s.state: the state counts 4,096 bytes of per-game CSV rows, but its \
                 command writes no per-game CSV file (edited since): nothing was changed\n",
                "{args:?}"
            );
            assert!(out.stdout.is_empty(), "{args:?}");
            assert_eq!(std::fs::read_to_string(&state).unwrap(), text, "left alone");
        }
    }
}
