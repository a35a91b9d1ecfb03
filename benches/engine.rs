//! Criterion benches of the engine: one game, a batch of games, per preset.
//! Run with `cargo bench`; dated results live in results/.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use warsim::batch::{BatchSpec, Controls, run_batch};
use warsim::engine::{Engine, Preset};

fn one_game(c: &mut Criterion) {
    for &preset in Preset::ALL {
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
    for &preset in Preset::ALL {
        let spec = BatchSpec {
            first: 0,
            rules: preset.rules(),
            games: 10_000,
            seed: 1,
            threads: 1,
        };
        group.bench_function(preset.name(), |b| {
            b.iter(|| black_box(run_batch(&spec, None, &Controls::none()).unwrap().games))
        });
    }
    group.finish();
}

/// The engine alone: games played back to back on one thread, no statistics, no runner. The
/// batch bench above against this one is the cost of the statistics and the runner.
fn bare_engine_loop(c: &mut Criterion) {
    let mut group = c.benchmark_group("bare engine loop, 10000 games");
    group.throughput(Throughput::Elements(10_000));
    group.sample_size(10);
    for &preset in Preset::ALL {
        let rules = preset.rules();
        let mut engine = Engine::for_rules(&rules);
        group.bench_function(preset.name(), |b| {
            b.iter(|| {
                let mut rounds = 0u64;
                engine.play_games(&rules, 1, 0..10_000, |record| {
                    rounds += u64::from(record.rounds);
                });
                black_box(rounds)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, one_game, batch, bare_engine_loop);
criterion_main!(benches);
