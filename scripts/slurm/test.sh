#!/usr/bin/env bash
# The Slurm path, tested for real (run by .ci/run; needs root): brings up a single-node cluster
# (scripts/slurm/cluster.sh), runs a 10^6-game batch as a 4-task job array with a merge job
# (scripts/slurm/submit.sh --wait), and checks that the merged summary equals the single run's
# (every key but the run-time ones) and that the shards' CSVs concatenate to the single run's;
# that a task killed part-way and resubmitted with --only resumes from its checkpoint, to the
# same figures and CSV; then that an array whose tasks fail makes --wait fail. Tears the
# cluster down.
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release -q
dir=$(mktemp -d)
chmod 755 "$dir"  # the cluster's munge daemon runs as the munge user
cleanup() { scripts/slurm/cluster.sh stop "$dir/cluster" || true; rm -rf "$dir"; }
trap cleanup EXIT
if ! conf=$(scripts/slurm/cluster.sh start "$dir/cluster"); then
  echo "error: could not bring up the single-node Slurm cluster" >&2
  exit 1
fi
export SLURM_CONF=$conf
warsim=target/release/warsim
scripts/slurm/submit.sh --shards 4 --out "$dir/out" --wait --per-game csv -- --games 1e6 --seed 11
"$warsim" run --games 1e6 --seed 11 -q --json "$dir/whole.json" --csv "$dir/whole.csv" > /dev/null
# The merged summary against the single run's (every key but how the runs went).
same_summary() {
  python3 - "$1" "$2" <<'PY'
import json, sys
whole, merged = (json.load(open(p)) for p in sys.argv[1:])
differ = [k for k in whole if whole[k] != merged.get(k) and k not in ("threads", "wall_seconds", "games_per_second")]
if differ:
    sys.exit(f"error: the merged summary differs from the single run's in {differ}")
PY
}
same_summary "$dir/whole.json" "$dir/out/summary.json"
cat "$dir"/out/games-{0,1,2,3}.csv | cmp -s - "$dir/whole.csv" \
  || { echo "error: the shards' CSVs do not concatenate to the single run's" >&2; exit 1; }

# A task stopped part-way (here killed by hand, as a time limit or a lost node would) and
# resubmitted with --only continues from its checkpoint, and the figures are still exact.
batch=(--games 1e6 --seed 12 --pickup seats)
scripts/slurm/submit.sh --shards 2 --out "$dir/resumed" --wait --per-game csv -- "${batch[@]}"
rm "$dir/resumed/state-1.json"
"$warsim" run "${batch[@]}" -q --shard 1/2 --state "$dir/resumed/state-1.json" \
  --csv "$dir/resumed/games-1.csv" --no-header --checkpoint-every 50ms > /dev/null &
task=$!
for _ in $(seq 500); do [ -s "$dir/resumed/state-1.json" ] && break; sleep 0.02; done
sleep 0.2
kill -KILL $task 2> /dev/null || true
wait $task 2> /dev/null || true
grep -q '"games": 500000,' "$dir/resumed/state-1.json" \
  && { echo "error: the task to resume finished before it was killed" >&2; exit 1; }
scripts/slurm/submit.sh --shards 2 --out "$dir/resumed" --wait --per-game csv --only 1 -- "${batch[@]}"
grep -q "resuming after" "$dir/resumed/shard-1.log" \
  || { echo "error: task 1 did not resume (log: $(cat "$dir/resumed/shard-1.log"))" >&2; exit 1; }
"$warsim" run "${batch[@]}" -q --json "$dir/whole-seats.json" --csv "$dir/whole-seats.csv" > /dev/null
same_summary "$dir/whole-seats.json" "$dir/resumed/summary.json"
cat "$dir"/resumed/games-{0,1}.csv | cmp -s - "$dir/whole-seats.csv" \
  || { echo "error: the resumed shard's CSV does not complete the single run's" >&2; exit 1; }
if scripts/slurm/submit.sh --shards 2 --out "$dir/bad" --wait -- --games 1e4 --players 99 2> "$dir/bad.err"; then
  echo "error: an array of failing tasks did not fail --wait" >&2
  exit 1
fi
grep -q "array tasks 0,1 failed" "$dir/bad.err" || { cat "$dir/bad.err" >&2; exit 1; }
echo "slurm: a 4-task array of 10^6 games merged equal to the single run; a killed task resubmitted with --only resumed; failing tasks reported"
