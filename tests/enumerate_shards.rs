//! An enumeration played in parts (`warsim enumerate --shard K/N --state PATH`, as a scheduler's
//! array runs them) and joined by `warsim merge`: the figures are the whole enumeration's, byte
//! for byte, however many parts and in whatever order; parts that leave deals out, hold some
//! twice, or belong to another enumeration are refused.

use crate::common;

use std::fs;
use std::path::Path;

use assert_cmd::Command;
use tempfile::TempDir;
use warsim::batch::Workers;
use warsim::engine::rules::{Pickup, Shortage};
use warsim::enumerate::saved::{state_of, tally_of};
use warsim::enumerate::{DealSet, Plan};

use common::BATAILLE;
use common::EndsWithTest;

/// `warsim ARGS` in `dir`: its exit status, standard output and standard error.
fn warsim(dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::cargo_bin("warsim")
        .unwrap()
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

/// Plays `rules` in `parts` parts, writing `part-K.json`; returns the paths, last first.
fn parts(dir: &Path, rules: &[&str], parts: u64) -> Vec<String> {
    let mut paths = Vec::new();
    for k in 0..parts {
        let (shard, state) = (format!("{k}/{parts}"), format!("part-{k}.json"));
        let args = [
            &["enumerate", "-q", "--shard", &shard, "--state", &state],
            rules,
        ]
        .concat();
        let (status, said, errors) = warsim(dir, &args);
        assert_eq!(status, Some(0), "{errors}");
        assert!(
            said.contains(&format!("state        {state}: their exact counts")),
            "{said}"
        );
        paths.insert(0, state);
    }
    paths
}

/// The report without its time line, which tells how the runs went.
fn figures(report: &str) -> String {
    let lines = report.lines().filter(|l| !l.starts_with("time "));
    lines.collect::<Vec<_>>().join("\n")
}

#[test]
fn parts_merge_into_the_whole_enumerations_figures_byte_for_byte() {
    let bataille = [&BATAILLE[..], &["--suits", "4", "--ranks", "3"]].concat();
    let unordered = [&bataille[..], &["--deals", "unordered"]].concat();
    let three = ["--players", "3", "--suits", "3", "--ranks", "3"];
    // 2 suits × 2 ranks: 6 sequences, so 8 parts leave some empty.
    let tiny = ["--suits", "2", "--ranks", "2", "--face-down", "0"];
    for (rules, counts) in [
        (&unordered[..], &[1, 2, 3, 5][..]),
        (&bataille[..], &[4]),
        (&three[..], &[3]),
        (&tiny[..], &[8]),
    ] {
        let dir = TempDir::new().unwrap();
        let d = dir.path();
        let outputs = [
            "--json",
            "whole.json",
            "--summary",
            "whole.csv",
            "--histogram",
            "whole-h.csv",
        ];
        let (status, whole, errors) = warsim(d, &[&["enumerate", "-q"], rules, &outputs].concat());
        assert_eq!(status, Some(0), "{errors}");
        for &count in counts {
            let states = parts(d, rules, count);
            let merged = [
                "--json",
                "m.json",
                "--summary",
                "m.csv",
                "--histogram",
                "m-h.csv",
            ];
            let args: Vec<&str> = states.iter().map(String::as_str).collect();
            let (status, report, errors) = warsim(d, &[&["merge"], &args[..], &merged].concat());
            // Another split's parts hold other sequences: not the next split's to replace.
            for state in &states {
                fs::remove_file(d.join(state)).unwrap();
            }
            assert_eq!(status, Some(0), "{rules:?} in {count}: {errors}");
            assert_eq!(figures(&report), figures(&whole), "{rules:?} in {count}");
            for (mine, theirs) in [
                ("m.json", "whole.json"),
                ("m.csv", "whole.csv"),
                ("m-h.csv", "whole-h.csv"),
            ] {
                let read = |name: &str| fs::read(d.join(name)).unwrap();
                assert!(read(mine) == read(theirs), "{rules:?} in {count}: {mine}");
            }
        }
    }
}

#[test]
fn a_tally_written_to_a_state_reads_back_the_same() {
    // French bataille on 4 × 3: 360 of its deals loop.
    let mut rules = warsim::engine::Preset::Classic.rules();
    (rules.suits, rules.ranks, rules.face_down) = (4, 3, 0);
    (rules.pickup, rules.shortage) = (Pickup::Natural, Shortage::EndGame);
    let plan = Plan::new(&rules, DealSet::All, 1 << 40).unwrap();
    let tally = plan
        .run(&Workers::new(2).unwrap(), &|_| {}, &|| false)
        .unwrap();
    assert!(tally.cycled > 0 && tally.longest.is_some(), "{tally:?}");
    let state = state_of(&plan, &tally, plan.part.end, (1.0, 2), None);
    assert_eq!(tally_of(&state.tally, 2).unwrap(), tally);
    // A count edited by hand no longer adds up: refused, not merged into wrong figures.
    let mut edited = state.tally.clone();
    edited.draws += 1;
    assert!(
        tally_of(&edited, 2)
            .unwrap_err()
            .contains("does not add up")
    );
    assert!(
        tally_of(&state.tally, 3).is_err(),
        "three seats' wins from two"
    );
    let mut reordered = state.tally.clone();
    reordered.rounds.reverse();
    let refused = tally_of(&reordered, 2).unwrap_err();
    assert!(refused.contains("lists lengths out of order"), "{refused}");
}

#[test]
fn parts_that_are_not_one_whole_enumeration_are_refused_on_one_line() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let rules = ["--suits", "4", "--ranks", "3"];
    parts(d, &rules, 3);
    fs::rename(d.join("part-0.json"), d.join("other-0.json")).unwrap();
    parts(d, &[&rules[..], &["--face-down", "2"]].concat(), 3);
    let (status, ..) = warsim(d, &["run", "--games", "10", "-q", "--state", "run.json"]);
    assert_eq!(status, Some(0));
    let refused = [
        (
            "merge part-0.json part-2.json",
            "error: sequences 11,550 to 23,099 of the 34,650 are in no state: an enumeration's \
             figures are exact only over every deal, so every part must be merged \
             (--allow-partial does not apply)",
        ),
        (
            "merge part-0.json part-1.json part-1.json part-2.json",
            "error: part-1.json and part-1.json both hold sequence 11,550: merge each part once",
        ),
        (
            "merge other-0.json part-1.json part-2.json",
            "error: other-0.json and part-1.json are not parts of one enumeration: their rules \
             differ",
        ),
        (
            "merge part-0.json run.json",
            "error: part-0.json is an enumeration's state and run.json a run's: merge each \
             batch's states on their own",
        ),
        (
            "merge part-0.json part-1.json part-2.json --plot p.svg",
            "error: --plot: these are an enumeration's states, whose merge writes --json, \
             --summary and --histogram, as `warsim enumerate` does",
        ),
        (
            "enumerate --suits 4 --ranks 3 --shard 0/2",
            "error: --shard needs --state PATH: a part of an enumeration has no figures of its \
             own: its exact counts go to the state file, which `warsim merge` joins with the \
             other parts'",
        ),
        (
            "enumerate --suits 4 --ranks 3 --shard 0/2 --state s.json --json j.json",
            "error: --json with --shard 0/2: a part's figures are not the deck's; give --json to \
             `warsim merge` of the parts' --state files",
        ),
        (
            "enumerate --suits 4 --ranks 5 --shard 0/10 --state s.json",
            "error: --suits 4 --ranks 5: 30,554,023,500 deals in part 0/10 to play with --deals \
             all, more than --max-deals 10,000,000,000 allows; raise --max-deals, or play more \
             parts, each smaller",
        ),
    ];
    for (args, error) in refused {
        let args: Vec<&str> = args.split_whitespace().collect();
        let (status, said, errors) = warsim(d, &args);
        assert_eq!((status, said.as_str()), (Some(2), ""), "{args:?}");
        assert_eq!(errors, format!("{error}\n"), "{args:?}");
    }
    assert!(!d.join("s.json").exists() && !d.join("p.svg").exists());
    let mut edited = common::json(&d.join("part-1.json"));
    let draws = edited["tally"]["draws"].as_u64().unwrap();
    edited["tally"]["draws"] = (draws + 1).into();
    fs::write(d.join("part-1.json"), edited.to_string()).unwrap();
    let (status, _, errors) = warsim(d, &["merge", "part-0.json", "part-1.json", "part-2.json"]);
    assert_eq!(status, Some(2));
    assert_eq!(
        errors,
        "error: part-1.json: is damaged: its tally does not add up\n"
    );
}

#[test]
fn a_parts_progress_bar_counts_the_parts_sequences() {
    // The bar is drawn on a terminal alone.
    let dir = TempDir::new().unwrap();
    let part = "enumerate --suits 4 --ranks 4 --shard 1/40 --state part.json";
    let out = common::on_terminal("", dir.path(), part);
    let drawn = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{drawn}");
    // Part 1 of 40 of 63,063,000 sequences: 1,576,575 of them, long enough (a few tenths of a
    // second) for the bar to be drawn, which it is at most 20 times a second.
    assert!(drawn.contains("/1,576,575 "), "{drawn}");
    assert!(!drawn.contains("/63,063,000 "), "{drawn}");
}

#[test]
fn a_parts_state_file_has_one_writer_at_a_time() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    // Half of 4 × 4: far longer than the test.
    let mut first = std::process::Command::new(assert_cmd::cargo::cargo_bin("warsim"))
        .args([
            "enumerate",
            "--suits",
            "4",
            "--ranks",
            "4",
            "--shard",
            "0/2",
        ])
        .args(["--state", "part.json", "-q", "--threads", "1"])
        .current_dir(d)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .ends_with_test()
        .spawn()
        .unwrap();
    common::until("the state's lock", || d.join("part.json.lock").exists());
    let second = "enumerate --suits 4 --ranks 4 --shard 1/2 --state part.json -q";
    let (status, said, errors) = warsim(d, &second.split(' ').collect::<Vec<_>>());
    common::send("-TERM", first.id());
    assert_eq!(first.wait().unwrap().code(), Some(143));
    assert_eq!((status, said.as_str()), (Some(2), ""), "{errors}");
    assert!(
        errors.starts_with("error: --state part.json: another warsim is writing this state file")
            && errors.ends_with("or give this enumeration its own --state\n")
            && errors.lines().count() == 1,
        "{errors}"
    );
    // The state is the first part's, stopped: the second wrote nothing.
    let state = common::json(&d.join("part.json"));
    assert_eq!(
        (&state["first"], &state["end"]),
        (&0.into(), &31_531_500.into())
    );
    assert!(!d.join("part.json.lock").exists());
}
