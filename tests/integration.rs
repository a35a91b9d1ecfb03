//! The integration tests, one module per file beside this one, in one test binary: as 65 binaries
//! they took about 285 CPU-seconds of CI's test build to compile and link, and ran one after
//! another; in one, libtest spreads every test over the cores. `merge_memory.rs` stays its own
//! binary (its own allocator and `main`). A file in `tests/` must be named here to run:
//! `every_test_file_is_a_module_here` checks it.

mod common;

#[path = "checkpoint_signal.rs"]
mod checkpoint_signal;
#[path = "children.rs"]
mod children;
#[path = "classic_rules.rs"]
mod classic_rules;
#[path = "cli.rs"]
mod cli;
#[path = "continue_run.rs"]
mod continue_run;
#[path = "disk_room.rs"]
mod disk_room;
#[path = "edited_states.rs"]
mod edited_states;
#[path = "engine_paths.rs"]
mod engine_paths;
#[path = "enumerate.rs"]
mod enumerate;
#[path = "enumerate_checkpoints.rs"]
mod enumerate_checkpoints;
#[path = "enumerate_refusals.rs"]
mod enumerate_refusals;
#[path = "enumerate_shards.rs"]
mod enumerate_shards;
#[path = "full_disk.rs"]
mod full_disk;
#[path = "golden.rs"]
mod golden;
#[path = "help.rs"]
mod help;
#[path = "ignored_signals.rs"]
mod ignored_signals;
#[path = "inputs.rs"]
mod inputs;
#[path = "lengths.rs"]
mod lengths;
#[path = "literature_rules.rs"]
mod literature_rules;
#[path = "lost_outputs.rs"]
mod lost_outputs;
#[path = "merge.rs"]
mod merge;
#[path = "merge_refusals.rs"]
mod merge_refusals;
#[path = "moved_outputs.rs"]
mod moved_outputs;
#[path = "named_pipes.rs"]
mod named_pipes;
#[path = "odd_paths.rs"]
mod odd_paths;
#[path = "open_files.rs"]
mod open_files;
#[path = "other_parts.rs"]
mod other_parts;
#[path = "other_writers.rs"]
mod other_writers;
#[path = "outputs.rs"]
mod outputs;
#[path = "parquet.rs"]
mod parquet;
#[path = "parquet_checkpoints.rs"]
mod parquet_checkpoints;
#[path = "parquet_resume.rs"]
mod parquet_resume;
#[path = "play.rs"]
mod play;
#[path = "play_deal.rs"]
mod play_deal;
#[path = "play_interactive.rs"]
mod play_interactive;
#[path = "play_interrupts.rs"]
mod play_interrupts;
#[path = "play_loops.rs"]
mod play_loops;
#[path = "plot_captions.rs"]
mod plot_captions;
#[path = "plot_columns.rs"]
mod plot_columns;
#[path = "plots.rs"]
mod plots;
#[path = "presets.rs"]
mod presets;
#[path = "rand_oracle.rs"]
mod rand_oracle;
#[path = "random_cli.rs"]
mod random_cli;
#[path = "random_rules.rs"]
mod random_rules;
#[path = "readme.rs"]
mod readme;
#[path = "real_disks.rs"]
mod real_disks;
#[path = "resume.rs"]
mod resume;
#[path = "resume_moved.rs"]
mod resume_moved;
#[path = "run_plots.rs"]
mod run_plots;
#[path = "safety.rs"]
mod safety;
#[path = "sampling.rs"]
mod sampling;
#[path = "scheduler_signals.rs"]
mod scheduler_signals;
#[path = "second_signal.rs"]
mod second_signal;
#[path = "shards.rs"]
mod shards;
#[path = "standard_output_file.rs"]
mod standard_output_file;
#[path = "statistics.rs"]
mod statistics;
#[path = "stream_resume.rs"]
mod stream_resume;
#[path = "sweep.rs"]
mod sweep;
#[path = "sweep_combinations.rs"]
mod sweep_combinations;
#[path = "sweep_continue.rs"]
mod sweep_continue;
#[path = "sweep_shards.rs"]
mod sweep_shards;
#[path = "threads.rs"]
mod threads;
#[path = "war_simulator.rs"]
mod war_simulator;
#[path = "write_errors.rs"]
mod write_errors;
#[path = "wrong_files.rs"]
mod wrong_files;

/// Cargo's automatic test targets are off (`autotests = false`), so a file added to `tests/`
/// and not named above would silently never run.
#[test]
fn every_test_file_is_a_module_here() {
    let tests = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let root = std::fs::read_to_string(tests.join("integration.rs")).unwrap();
    for entry in std::fs::read_dir(&tests).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        let Some(module) = name.strip_suffix(".rs") else {
            continue;
        };
        if ["integration", "merge_memory"].contains(&module) {
            continue;
        }
        let declared = format!("#[path = \"{name}\"]\nmod {module};");
        assert!(
            root.contains(&declared),
            "tests/{name} is not a module of tests/integration.rs"
        );
    }
}
