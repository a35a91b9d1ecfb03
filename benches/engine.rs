//! Criterion benches of the engine: one game, a batch of games, per preset.
//! Run with `cargo bench`; dated results live in results/.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use warsim::batch::{BatchSpec, run_batch};
use warsim::engine::{Engine, Preset};

fn one_game(c: &mut Criterion) {
    for preset in Preset::ALL {
        let rules = preset.rules();
        let mut engine = Engine::for_rules(&rules);
        let mut seed = 0u64;
        c.bench_function(&format!("one game/{preset}"), |b| {
            b.iter(|| {
                seed += 1;
                black_box(engine.play(&rules, black_box(seed)))
            })
        });
    }
}

fn batch(c: &mut Criterion) {
    let mut group = c.benchmark_group("batch of 10000 games, 1 thread");
    group.throughput(Throughput::Elements(10_000));
    group.sample_size(10);
    for preset in Preset::ALL {
        let spec = BatchSpec {
            rules: preset.rules(),
            games: 10_000,
            seed: 1,
            threads: 1,
        };
        group.bench_function(preset.name(), |b| {
            b.iter(|| black_box(run_batch(&spec, None, &|_| {}).unwrap().games))
        });
    }
    group.finish();
}

criterion_group!(benches, one_game, batch);
criterion_main!(benches);
