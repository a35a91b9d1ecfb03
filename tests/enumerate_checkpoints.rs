//! An enumeration with a state file keeps checkpoints: stopped (a signal, a kill, a time limit)
//! it keeps the exact counts of the sequences it played, from its part's first to some next one,
//! and `warsim resume` (or the same command with `--continue`) plays the rest to the figures of
//! an enumeration never stopped, byte for byte; SIGUSR1 asks for a checkpoint and it plays on.
//! A part stopped before its end is no part to merge.

use crate::common;

use std::fs;
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use common::EndsWithTest;
use common::{said, start_in, until};
use tempfile::TempDir;
use warsim::batch::{Checkpoints, Controls, Occasion, Workers};
use warsim::engine::rules::{Pickup, Shortage};
use warsim::enumerate::saved::tally_of;
use warsim::enumerate::{DealSet, Plan, Played, Tally};
use warsim::export::text::group;
use warsim::state::{AnyState, EnumerationState};

/// French bataille on one suit of ten ranks: 3,628,800 sequences (56 chunks), 96 cycles, about
/// two seconds on one thread.
const TEN_RANKS: &str = "--face-down 0 --pickup natural --war-shortage end-game --suits 1 \
                         --ranks 10";

/// `warsim ARGS` (split at spaces) in `dir`: its exit status, standard output and error.
fn warsim(dir: &Path, args: &str) -> (Option<i32>, String, String) {
    let out = assert_cmd::Command::cargo_bin("warsim")
        .unwrap()
        .args(args.split_whitespace())
        .current_dir(dir)
        .output()
        .unwrap();
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

/// The enumeration state at `path`.
fn state(path: &Path) -> EnumerationState {
    match AnyState::read(path).unwrap() {
        AnyState::Enumeration(state) => *state,
        _ => panic!("{path:?} is not an enumeration's state"),
    }
}

/// Checks that `state` counts exactly its sequences `first` to `next − 1`: the tally the
/// library gives for that range alone.
fn counts_its_sequences_exactly(state: &EnumerationState) {
    let rules = state.rules.rules().unwrap();
    let mut plan = Plan::new(&rules, DealSet::All, u128::MAX).unwrap();
    plan.part = u128::from(state.first)..u128::from(state.next);
    let tally = plan
        .run(&Workers::new(2).unwrap(), &|_| {}, &|| false)
        .unwrap();
    assert_eq!(tally_of(&state.tally, 2).unwrap(), tally);
}

/// TEN_RANKS's plan, every deal.
fn ten_ranks() -> Plan {
    let mut rules = warsim::engine::Preset::Classic.rules();
    (rules.suits, rules.ranks, rules.face_down) = (1, 10, 0);
    (rules.pickup, rules.shortage) = (Pickup::Natural, Shortage::EndGame);
    Plan::new(&rules, DealSet::All, u128::MAX).unwrap()
}

/// `plan` played whole on two threads, calling `progress` with each chunk and `save` whenever
/// a chunk extends the prefix.
fn played_whole_saving_each_chunk(
    plan: &Plan,
    progress: &(dyn Fn(u64) + Sync),
    save: &(dyn Fn(&Tally, u64, &str, Occasion) -> std::io::Result<()> + Sync),
) -> Tally {
    let controls = Controls {
        progress,
        stop: &|| false,
        checkpoints: Some(Checkpoints {
            every: Duration::from_nanos(1),
            save,
            asked: &|| false,
            footer: None,
            since: None,
        }),
    };
    let Played::Whole(whole) = plan.play(&Workers::new(2).unwrap(), (0, Tally::new(2)), &controls)
    else {
        panic!("played whole");
    };
    whole
}

#[test]
fn every_checkpoint_holds_the_exact_counts_of_the_sequences_before_it() {
    let plan = ten_ranks();
    let saved = Mutex::new(Vec::new());
    let save = |tally: &Tally, next: u64, _: &str, _: Occasion| {
        saved.lock().unwrap().push((tally.clone(), next));
        Ok(())
    };
    // A checkpoint with every chunk that extends the prefix; two threads finish chunks out of
    // order, and each must still hold exactly the sequences before its next one.
    let whole = played_whole_saving_each_chunk(&plan, &|_| {}, &save);
    let saved = saved.into_inner().unwrap();
    assert!(saved.len() > 10, "{} checkpoints", saved.len());
    let (mut before, mut at) = (Tally::new(2), 0);
    for (tally, next) in saved {
        let mut range = plan.clone();
        range.part = u128::from(at)..u128::from(next);
        before.merge(
            range
                .run(&Workers::new(1).unwrap(), &|_| {}, &|| false)
                .unwrap(),
        );
        assert_eq!(tally, before, "the checkpoint before sequence {next}");
        at = next;
    }
    assert!(before.deals <= whole.deals && whole.cycled > 0);
}

#[test]
fn a_slow_checkpoint_holds_up_only_the_worker_saving_it() {
    let plan = ten_ranks();
    let finished = AtomicU64::new(0);
    let saves = AtomicU64::new(0);
    // The first checkpoint's disk is slow: it is written only once the other worker has
    // finished four more chunks, which it can do only if gathering them does not wait for it.
    let save = |_: &Tally, _: u64, _: &str, _: Occasion| {
        if saves.fetch_add(1, Ordering::SeqCst) == 0 {
            let before = finished.load(Ordering::SeqCst);
            until("chunks finished while a checkpoint is saved", || {
                finished.load(Ordering::SeqCst) >= before + 4
            });
        }
        Ok(())
    };
    let progress = |_| _ = finished.fetch_add(1, Ordering::SeqCst);
    let whole = played_whole_saving_each_chunk(&plan, &progress, &save);
    assert_eq!(
        whole,
        plan.run(&Workers::new(1).unwrap(), &|_| {}, &|| false)
            .unwrap()
    );
    assert!(saves.into_inner() > 1);
}

#[test]
fn a_stopped_enumeration_keeps_the_exact_counts_of_its_first_sequences_and_resumes_to_the_whole() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let (status, _, errors) = warsim(d, &format!("enumerate -q {TEN_RANKS} --json whole.json"));
    assert_eq!(status, Some(0), "{errors}");
    // Two threads: chunks finish out of order, and the state must still hold a prefix.
    let args = format!(
        "enumerate -q {TEN_RANKS} --threads 2 --state e.json --json e.json.out --histogram h.csv"
    );
    let mut child = start_in(d, &args);
    common::until_it_catches(child.id(), libc::SIGTERM);
    std::thread::sleep(Duration::from_millis(300));
    common::send("-TERM", child.id());
    assert_eq!(child.wait().unwrap().code(), Some(143), "{}", said(d));
    let stopped = state(&d.join("e.json"));
    assert!(stopped.next < stopped.end, "{}", said(d));
    let held = match stopped.next {
        0 => "no sequences".to_string(),
        next => format!("sequences 0 to {}", group(next - 1)),
    };
    let kept = format!(
        "an enumeration's figures are exact only over every deal, so no report and no figures \
         were written; e.json holds {held} of 3,628,800; to play on: `warsim resume e.json`, or \
         the same command with --continue\n"
    );
    assert!(said(d).ends_with(&kept), "{}", said(d));
    assert!(!d.join("e.json.out").exists() && !d.join("h.csv").exists());
    counts_its_sequences_exactly(&stopped);

    let (status, _, errors) = warsim(d, "resume e.json --threads 1");
    assert_eq!(status, Some(0), "{errors}");
    let next = group(stopped.next);
    let resuming = format!(
        "e.json: resuming after {next} sequences of 3,628,800: playing on from sequence {next}\n"
    );
    assert_eq!(errors, resuming);
    assert_eq!(
        fs::read(d.join("e.json.out")).unwrap(),
        fs::read(d.join("whole.json")).unwrap()
    );
    assert!(state(&d.join("e.json")).whole());
    let (status, _, errors) = warsim(d, "resume e.json");
    assert_eq!(status, Some(0), "{errors}");
    assert_eq!(
        errors,
        "e.json: the enumeration is complete (3,628,800 sequences): nothing to resume\n"
    );
}

#[test]
fn a_killed_part_continues_from_its_last_checkpoint_and_merges_into_the_whole() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let whole = format!("enumerate -q {TEN_RANKS} --json whole.json");
    let first = format!("enumerate -q {TEN_RANKS} --shard 0/2 --state p0.json");
    for args in [whole, first] {
        let (status, _, errors) = warsim(d, &args);
        assert_eq!(status, Some(0), "{errors}");
    }
    let second = format!(
        "enumerate -q {TEN_RANKS} --shard 1/2 --state p1.json --threads 1 --checkpoint-every \
         100ms"
    );
    let mut child = start_in(d, &second);
    until("a checkpoint", || d.join("p1.json").exists());
    common::send("-KILL", child.id());
    child.wait().unwrap();
    let stopped = state(&d.join("p1.json"));
    assert!((stopped.first, stopped.end) == (1_814_400, 3_628_800) && !stopped.whole());
    counts_its_sequences_exactly(&stopped);
    let (status, _, errors) = warsim(d, "merge p0.json p1.json --json m.json");
    let refusal = format!(
        "error: p1.json holds an enumeration stopped before its end: {} of its 1,814,400 to \
         3,628,799; play it to its end with `warsim resume p1.json`, then merge\n",
        match stopped.next - stopped.first {
            0 => "no sequences".to_string(),
            _ => format!("sequences 1,814,400 to {}", group(stopped.next - 1)),
        }
    );
    assert_eq!((status, errors.as_str()), (Some(2), refusal.as_str()));

    let again = second.replace("--threads 1", "--threads 2 --continue");
    let (status, said, errors) = warsim(d, &again);
    assert_eq!(status, Some(0), "{errors}");
    assert_eq!(
        errors,
        format!(
            "p1.json: resuming after {} of 1,814,400: playing on from sequence {}\n",
            warsim::export::text::counted(stopped.next - stopped.first, "sequence"),
            group(stopped.next)
        )
    );
    assert!(
        said.contains("state        p1.json: their exact counts"),
        "{said}"
    );
    let (status, _, errors) = warsim(d, "merge p1.json p0.json --json m.json");
    assert_eq!(status, Some(0), "{errors}");
    assert_eq!(
        fs::read(d.join("m.json")).unwrap(),
        fs::read(d.join("whole.json")).unwrap()
    );
}

#[test]
fn a_checkpoint_that_cannot_be_written_stops_play_and_says_what_the_state_holds() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let args = format!("enumerate -q {TEN_RANKS} --threads 2 --state e.json");
    let mut child = start_in(d, &args);
    common::until_it_catches(child.id(), libc::SIGTERM);
    std::thread::sleep(Duration::from_millis(300));
    common::send("-TERM", child.id());
    assert_eq!(child.wait().unwrap().code(), Some(143), "{}", said(d));
    let stopped = fs::read(d.join("e.json")).unwrap();
    let next = state(&d.join("e.json")).next;
    // A disk that fills at 1 KiB: the resumed enumeration's first checkpoint cannot be written.
    let out = common::with_full_disk_at(1, d, "resume e.json --checkpoint-every 1ms");
    assert_eq!(out.status.code(), Some(1));
    let errors = String::from_utf8_lossy(&out.stderr);
    let held = match next {
        0 => "no sequences".to_string(),
        _ => format!("sequences 0 to {}", group(next - 1)),
    };
    let ending = format!(", and e.json holds its last checkpoint, {held} of 3,628,800\n");
    assert!(
        errors.contains("error: could not write the state to e.json: File too large")
            && errors.contains("; play stopped at sequence ")
            && errors.ends_with(&ending),
        "{errors}"
    );
    assert_eq!(
        fs::read(d.join("e.json")).unwrap(),
        stopped,
        "the checkpoint kept as it was"
    );
    assert!(out.stdout.is_empty(), "no report of part of the deals");
}

#[test]
fn a_stopped_enumeration_whose_state_cannot_be_written_says_so_and_fails() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    // A disk that fills at 1 KiB, and no checkpoint before the stop: the stop's state is the
    // first write.
    let script = format!(
        "trap '' XFSZ; ulimit -f 1; exec '{}' enumerate -q --suits 4 --ranks 4 --state e.json \
         --checkpoint-every 0",
        assert_cmd::cargo::cargo_bin("warsim").display()
    );
    let child = std::process::Command::new("bash")
        .args(["-c", &script])
        .current_dir(d)
        .stderr(std::process::Stdio::piped())
        .ends_with_test()
        .spawn()
        .unwrap();
    common::until_it_catches(child.id(), libc::SIGTERM);
    common::send("-TERM", child.id());
    let out = child.wait_with_output().unwrap();
    let errors = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{errors}");
    assert!(
        errors.starts_with("error: could not write the state to e.json: File too large")
            && errors.ends_with("; nothing was kept\n")
            && errors.lines().count() == 1,
        "{errors}"
    );
}

#[test]
fn sigusr1_asks_an_enumeration_for_a_checkpoint_and_it_plays_on() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    // 63,063,000 deals: far more than the test's seconds play.
    let mut child = start_in(
        d,
        "enumerate --suits 4 --ranks 4 -q --threads 1 --state e.json",
    );
    common::until_it_catches(child.id(), libc::SIGUSR1);
    std::thread::sleep(Duration::from_millis(200));
    common::send("-USR1", child.id());
    let note = "warsim: checkpoint written as asked (SIGUSR1): e.json holds ";
    until("the note", || said(d).contains(note));
    let asked = state(&d.join("e.json"));
    let held = match asked.next {
        0 => "no sequences".to_string(),
        next => format!("sequences 0 to {}", group(next - 1)),
    };
    assert!(
        said(d).contains(&format!("{note}{held} of 63,063,000\n")),
        "{}",
        said(d)
    );
    counts_its_sequences_exactly(&asked);
    // Still playing, then stopped as a time limit would.
    std::thread::sleep(Duration::from_millis(300));
    assert!(child.try_wait().unwrap().is_none(), "{}", said(d));
    common::send("-TERM", child.id());
    assert_eq!(child.wait().unwrap().code(), Some(143), "{}", said(d));
    assert!(state(&d.join("e.json")).next > asked.next, "{}", said(d));
}

#[test]
fn an_enumeration_continues_only_its_own_state() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let part = format!("enumerate -q {TEN_RANKS} --shard 0/2 --state p.json");
    let (status, _, errors) = warsim(d, &part);
    assert_eq!(status, Some(0), "{errors}");
    // Its own command again: every sequence was played, so the figures come from the state.
    let (status, said, errors) = warsim(d, &format!("{part} --continue"));
    assert_eq!(status, Some(0), "{errors}");
    assert!(
        errors.starts_with("p.json: the enumeration is complete (1,814,400 sequences): writing its outputs again from the state"),
        "{errors}"
    );
    assert!(
        said.contains("state        p.json: their exact counts"),
        "{said}"
    );
    let other = format!("enumerate -q {TEN_RANKS} --shard 1/2 --state p.json --continue");
    let (status, _, errors) = warsim(d, &other);
    assert_eq!(status, Some(2));
    let folder = d.canonicalize().unwrap();
    assert_eq!(
        errors,
        format!(
            "error: --continue: p.json is the state of another enumeration (`warsim {part} \
             --continue` in \
             {}): give this enumeration its own --state, or remove p.json to start over\n",
            folder.display()
        )
    );
    // A state edited to say it played past its part's end is refused, not resumed.
    let text = fs::read_to_string(d.join("p.json")).unwrap();
    let edited = text.replace("\"next\": 1814400", "\"next\": 1814401");
    assert_ne!(edited, text);
    fs::write(d.join("p.json"), edited).unwrap();
    let (status, _, errors) = warsim(d, "resume p.json");
    assert_eq!(status, Some(2));
    assert_eq!(
        errors,
        "error: p.json: is damaged: its next sequence, 1814401, is not in its part, 0 to \
         1814400\n"
    );
}
