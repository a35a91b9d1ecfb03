//! State files edited by hand or damaged: every number of a run's and of a sweep's state set in
//! turn to values no run writes (past 2^64 − 1's neighbours, below zero, 1e308), then merged
//! with its batch's other shard into every output. Each is refused with exit status 2 and one
//! `error:` line, or merged; never a panic (a wall time of 1e308 seconds once overflowed the
//! HdrHistogram log's interval times, a negative one the report's duration).

use std::path::Path;
use std::process::Command;

use serde_json::Value;
use tempfile::TempDir;

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
