//! Criterion benches of the engine: one game, a batch of games, per preset.
//! Run with `cargo bench`; dated results live in results/.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use warsim::batch::{BatchSpec, Controls, run_batch};
use warsim::engine::{Engine, Preset};
use warsim::testing::{batched_shuffle, game_rng};

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

/// warsim's shuffle alone, per card, on heaps of the sizes war-simulator refills from (a
/// two-player game's average refill is about 20 cards, a four-player game's 17) and on a deck:
/// the floor under war-simulator's cost a round, which shuffles about 2.6 cards a round.
fn shuffle(c: &mut Criterion) {
    let mut group = c.benchmark_group("shuffle");
    for cards in [8u8, 20, 52] {
        let mut rng = game_rng(1);
        let mut items: Vec<u8> = (0..cards).collect();
        group.throughput(Throughput::Elements(u64::from(cards)));
        group.bench_function(format!("{cards} cards"), |b| {
            b.iter(|| batched_shuffle(&mut rng, black_box(&mut items[..])))
        });
    }
    group.finish();
}

criterion_group!(benches, one_game, batch, bare_engine_loop, shuffle);
criterion_main!(benches);
