//! A low limit on open files (`ulimit -n`): a soft limit is raised as far as warsim needs within
//! the hard one, so a run with every output ends whole; a hard limit too low is refused before
//! any work, leaving nothing behind (a run used to start and stop at its first output with "Too
//! many open files", or take the limit for a folder it could not write, and leave its state's
//! lock file).

use crate::common;

use common::{names_in, under_limits as under};
use tempfile::TempDir;

/// Every output of a run at once: the most files warsim holds open.
const EVERY_OUTPUT: &str = "run --games 20000 --threads 2 -q --state s.json --csv g.csv \
    --parquet g.parquet --json sum.json --summary sum.csv --histogram h.csv --hdr h.hdr \
    --plot p.svg --checkpoint-every 1ms";

#[test]
fn a_low_soft_limit_is_raised_and_every_output_written() {
    let dir = TempDir::new().unwrap();
    let out = under("ulimit -H -n 64; ulimit -S -n 7", dir.path(), EVERY_OUTPUT);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert_eq!(
        names_in(dir.path()),
        [
            "g.csv",
            "g.parquet",
            "h.csv",
            "h.hdr",
            "p.svg",
            "s.json",
            "sum.csv",
            "sum.json"
        ]
    );
    let rows = std::fs::read_to_string(dir.path().join("g.csv")).unwrap();
    assert_eq!(rows.lines().count(), 20_001, "every game and the header");
}

#[test]
fn a_hard_limit_too_low_is_refused_before_any_work() {
    let refusal = "error: open files are limited to 12 at once (`ulimit -Hn`), and warsim needs \
                   room for 16 (a run with every output holds 9 open): raise the limit (`ulimit \
                   -n 1024`) in the shell or job script that starts warsim\n";
    let commands = [
        EVERY_OUTPUT,
        "sweep --players 2..3 --games 100 -q --state s.json --games-csv g.csv",
        "enumerate --suits 1 --ranks 6 -q --state e.json",
        "merge a.json b.json --json m.json",
        "resume s.json",
    ];
    for command in commands {
        let dir = TempDir::new().unwrap();
        let out = under("ulimit -n 12", dir.path(), command);
        assert_eq!(out.status.code(), Some(2), "{command}");
        assert_eq!(String::from_utf8_lossy(&out.stderr), refusal, "{command}");
        assert!(out.stdout.is_empty(), "{command}");
        assert_eq!(names_in(dir.path()), Vec::<String>::new(), "{command}");
    }
    // Single games and the documents need no more than the standard streams.
    let dir = TempDir::new().unwrap();
    for command in ["play --seed 3", "rules classic", "man run"] {
        let out = under("ulimit -n 12", dir.path(), command);
        assert_eq!(out.status.code(), Some(0), "{command}");
    }
}
