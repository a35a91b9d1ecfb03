//! A run or sweep never replaces the summary, state or per-game file of another part of its
//! own batch: tasks of an array given one `--json`, `--summary` (a sweep's `--csv`), `--state`,
//! `--csv` (a sweep's `--games-csv`), `--parquet` or `--hdr` used to leave the last task's
//! file alone, the others' games lost to the merge. Any other file is replaced, as asked.

use crate::common;

use std::path::Path;
use std::process::Output;

use common::refused;
use tempfile::TempDir;

/// `warsim COMMAND ARGS` (each split at spaces) in `dir`.
fn warsim_in(dir: &Path, command: &str, args: &str) -> Output {
    assert_cmd::Command::cargo_bin("warsim")
        .unwrap()
        .args(command.split_whitespace())
        .args(args.split_whitespace())
        .current_dir(dir)
        .output()
        .unwrap()
}

/// `warsim run --games 2000 -q ARGS` (split at spaces) in `dir`.
fn run_in(dir: &Path, args: &str) -> Output {
    warsim_in(dir, "run --games 2000 -q", args)
}

/// Checks that `out` ran to its end.
fn ran(out: &Output) {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn another_shards_summary_or_state_is_refused_before_the_batch() {
    for (output, what) in [
        ("--json s.json", "summary"),
        ("--summary s.csv", "summary"),
        ("--state s.json", "state"),
        ("--parquet p.parquet", "per-game Parquet file"),
        ("--hdr h.hlog", "HdrHistogram log"),
    ] {
        let dir = TempDir::new().unwrap();
        let d = dir.path();
        let file = d.join(output.split(' ').nth(1).unwrap());
        ran(&run_in(d, &format!("--shard 0/2 {output}")));
        let first = std::fs::read(&file).unwrap();
        let err = refused(&run_in(d, &format!("--shard 1/2 {output}")));
        let (flag, name) = output.split_once(' ').unwrap();
        let (stem, extension) = name.split_once('.').unwrap();
        assert_eq!(
            err,
            format!(
                "error: {flag} {name}: is the {what} of games 0 to 999 of this same batch (same \
                 rules, seed and --games), and this run plays games 1,000 to 1,999: replacing \
                 it would lose the games this one does not play; give each shard its own file \
                 (such as {stem}-$SLURM_ARRAY_TASK_ID.{extension}), or move this one away\n"
            )
        );
        assert_eq!(
            std::fs::read(&file).unwrap(),
            first,
            "{output} is left as it was"
        );
        // The same shard again, another batch, or the whole batch: replaced, as asked.
        ran(&run_in(d, &format!("--shard 0/2 {output}")));
        ran(&run_in(d, &format!("--shard 1/2 --seed 7 {output}")));
        ran(&run_in(d, output));
        assert_ne!(std::fs::read(&file).unwrap(), first);
        // The whole batch's file holds games a shard does not play.
        let err = refused(&run_in(d, &format!("--shard 1/2 {output}")));
        assert!(
            err.contains("of games 0 to 1,999 of this same batch"),
            "{err}"
        );
    }
}

#[test]
fn a_stopped_part_of_this_runs_own_games_is_replaced() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    // Games 0 to 499 of the batch: among shard 0/2's.
    ran(&run_in(d, "--shard 0/4 --json s.json"));
    ran(&run_in(d, "--shard 0/2 --json s.json"));
    let summary: serde_json::Value =
        serde_json::from_slice(&std::fs::read(d.join("s.json")).unwrap()).unwrap();
    assert_eq!(summary["first_game"], 0);
    assert_eq!(summary["games"], 1000);
}

#[test]
fn a_sweep_refuses_another_shards_table_json_or_state_cell_by_cell() {
    let sweep =
        |dir: &Path, args: &str| warsim_in(dir, "sweep --players 2..3 --games 100 -q", args);
    for output in [
        "--csv c.csv",
        "--json s.json",
        "--state s.json",
        "--parquet p.parquet",
        "--hdr h.hlog",
    ] {
        let dir = TempDir::new().unwrap();
        let d = dir.path();
        ran(&sweep(d, &format!("--shard 0/2 {output}")));
        let err = refused(&sweep(d, &format!("--shard 1/2 {output}")));
        let held = "of games 0 to 49 of cell 0, the same batch as this sweep's cell 0 (same rules, \
                    seed and --games), and this sweep plays games 50 to 99 of each cell: ";
        assert!(err.contains(held), "{err}");
        // The same shard again, or a sweep of another seed: replaced.
        ran(&sweep(d, &format!("--shard 0/2 {output}")));
        ran(&sweep(d, &format!("--shard 1/2 --seed 3 {output}")));
    }
}

#[test]
fn an_enumeration_refuses_another_parts_state() {
    let enumerate = |dir: &Path, args: &str| {
        warsim_in(dir, "enumerate --ranks 4 --suits 2 -q --state e.json", args)
    };
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    ran(&enumerate(d, "--shard 0/2"));
    let first = std::fs::read(d.join("e.json")).unwrap();
    let err = refused(&enumerate(d, "--shard 1/2"));
    assert!(
        err.starts_with(
            "error: --state e.json: is the state of sequences 0 to 1,259 of this same \
             enumeration (same rules, deals and deck), and this one plays sequences 1,260 to \
             2,519: "
        ),
        "{err}"
    );
    assert_eq!(std::fs::read(d.join("e.json")).unwrap(), first);
    // Its own part again, or the whole deck (which plays every sequence): replaced.
    ran(&enumerate(d, "--shard 0/2"));
    ran(&enumerate(d, ""));
    assert_eq!(enumerate(d, "--shard 0/2").status.code(), Some(2));
}

#[test]
fn a_shard_refuses_a_per_game_csv_of_another_shard_told_by_its_game_seeds() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    ran(&run_in(d, "--shard 1/2 --no-header --csv c.csv"));
    let first = std::fs::read(d.join("c.csv")).unwrap();
    let err = refused(&run_in(d, "--shard 0/2 --csv c.csv"));
    assert_eq!(
        err,
        "error: --csv c.csv: is the per-game CSV of games 1,000 to 1,999 of a batch with this \
         seed (its rows' game seeds are this batch's), and this run plays games 0 to 999: \
         replacing it would lose the games this one does not play; give each shard its own \
         file (such as c-$SLURM_ARRAY_TASK_ID.csv), or move this one away\n"
    );
    assert_eq!(std::fs::read(d.join("c.csv")).unwrap(), first);
    // Its own games again, or another seed's: replaced. A whole run, which names no shard, of
    // fewer games than the file holds: replaced too (a CSV names no batch size).
    ran(&run_in(d, "--shard 1/2 --csv c.csv"));
    ran(&run_in(d, "--shard 0/2 --seed 9 --csv c.csv"));
    ran(&run_in(d, "--csv c.csv"));
    ran(&warsim_in(d, "run --games 10 -q", "--csv c.csv"));
    assert_eq!(
        std::fs::read_to_string(d.join("c.csv"))
            .unwrap()
            .lines()
            .count(),
        11
    );
}

#[test]
fn a_sweep_shard_refuses_a_per_game_csv_of_another_shard() {
    let sweep =
        |dir: &Path, args: &str| warsim_in(dir, "sweep --players 2..3 --games 100 -q", args);
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    ran(&sweep(d, "--shard 0/2 --games-csv g.csv"));
    let first = std::fs::read(d.join("g.csv")).unwrap();
    let err = refused(&sweep(d, "--shard 1/2 --games-csv g.csv"));
    assert_eq!(
        err,
        "error: --games-csv g.csv: is the per-game CSV of a sweep with this seed, its rows from \
         game 0 of cell 0 to game 49 of cell 1 (their game seeds are this sweep's), and this \
         sweep plays games 50 to 99 of each cell: replacing it would lose the games this one \
         does not play; give each shard its own file (such as g-$SLURM_ARRAY_TASK_ID.csv), or \
         move this one away\n"
    );
    assert_eq!(std::fs::read(d.join("g.csv")).unwrap(), first);
    // Its own games again, another seed's, or a whole sweep (which names no shard): replaced.
    ran(&sweep(d, "--shard 0/2 --games-csv g.csv"));
    ran(&sweep(d, "--shard 1/2 --seed 5 --games-csv g.csv"));
    ran(&sweep(d, "--games-csv g.csv"));
    // The whole sweep's rows run past a shard's games.
    let err = refused(&sweep(d, "--shard 0/2 --games-csv g.csv"));
    assert!(err.contains("to game 99 of cell 1"), "{err}");
}

#[test]
fn a_log_of_shards_concatenated_is_refused_by_each_shard_and_replaced_by_the_whole_run() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    ran(&run_in(d, "--shard 0/2 --hdr a.hlog"));
    ran(&run_in(d, "--shard 1/2 --hdr b.hlog"));
    let both = [
        std::fs::read(d.join("a.hlog")).unwrap(),
        std::fs::read(d.join("b.hlog")).unwrap(),
    ]
    .concat();
    std::fs::write(d.join("all.hlog"), &both).unwrap();
    let err = refused(&run_in(d, "--shard 0/2 --hdr all.hlog"));
    assert!(
        err.contains("log of games 1,000 to 1,999 of this same batch"),
        "{err}"
    );
    assert_eq!(std::fs::read(d.join("all.hlog")).unwrap(), both);
    ran(&run_in(d, "--hdr all.hlog"));
    assert_ne!(std::fs::read(d.join("all.hlog")).unwrap(), both);
}

#[test]
fn a_sweeps_summary_of_more_than_16_mib_is_read_too() {
    // 6,000 cells of ~3 KB each: past the 16 MiB once taken for the most any summary holds.
    let sweep =
        |dir: &Path, args: &str| warsim_in(dir, "sweep --max-rounds 1000..6999 --games 2 -q", args);
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    ran(&sweep(d, "--shard 0/2 --json s.json"));
    let first = std::fs::read(d.join("s.json")).unwrap();
    assert!(first.len() > 16 << 20, "{} bytes", first.len());
    let err = refused(&sweep(d, "--shard 1/2 --json s.json"));
    assert!(
        err.contains("is the summary of game 0 of cell 0, the same batch"),
        "{err}"
    );
    assert_eq!(std::fs::read(d.join("s.json")).unwrap(), first);
}
