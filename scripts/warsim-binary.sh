# Sourced by the scripts .ci/run runs (from the repository's root): sets $warsim to the binary
# they check, as an absolute path (Slurm's tasks and the Kubernetes pods start it from other
# folders): $WARSIM, which .ci/run sets to the one `cargo test` built, else a release build.
[ -n "${WARSIM:-}" ] || cargo build --release -q
warsim=$(realpath "${WARSIM:-target/release/warsim}")
