//! Criterion bench of the per-game CSV's rows: formatting the records of 10,000 classic games,
//! the work a run's writer thread (or a worker, when the writer is busy) does for `--csv`.
//! Run with `cargo bench --bench rows`; dated results live in results/.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use warsim::batch::BatchSpec;
use warsim::engine::{Engine, Preset};
use warsim::testing::format_rows;

fn rows(c: &mut Criterion) {
    let games = 10_000;
    let spec = BatchSpec {
        first: 0,
        rules: Preset::Classic.rules(),
        games,
        seed: 1,
        threads: 1,
    };
    let mut engine = Engine::for_rules(&spec.rules);
    let records: Vec<_> = (0..games)
        .map(|i| engine.play(&spec.rules, spec.rules.game_seed(spec.seed, i)))
        .collect();
    let mut group = c.benchmark_group("per-game CSV rows");
    group.throughput(Throughput::Elements(games));
    let mut rows = Vec::with_capacity(1 << 20);
    for (name, prefix) in [("run", &b""[..]), ("sweep cell", &b"7,4,13,table,"[..])] {
        group.bench_function(format!("{name}, 10000 classic games"), |b| {
            b.iter(|| {
                rows.clear();
                format_rows(prefix, &spec, 0, black_box(&records), &mut rows);
                black_box(rows.len())
            })
        });
    }
}

criterion_group!(benches, rows);
criterion_main!(benches);
