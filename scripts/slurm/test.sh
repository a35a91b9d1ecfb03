#!/usr/bin/env bash
# The Slurm path, tested for real (run by .ci/run; needs root): brings up a single-node cluster
# (scripts/slurm/cluster.sh), runs a 10^6-game batch as a 4-task job array with a merge job
# (scripts/slurm/submit.sh --wait), and checks that the merged summary equals the single run's
# (every key but the run-time ones) and that the shards' CSVs concatenate to the single run's;
# that a task requeued part-way by Slurm, and one cancelled part-way and resubmitted with --only,
# continue from their checkpoints, to the same figures and CSV, and that one sent SIGUSR1 writes
# a checkpoint and plays on, and one requeued goes on with its Parquet file; that a sweep's
# shards merge into
# the single sweep's tables and their rows, sorted, into its per-game CSV, and an enumeration's
# parts, one requeued part-way and continued, into its exact figures; then that an array
# whose tasks fail makes --wait fail. A failure prints what Slurm and the tasks said. Tears the
# cluster down.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/warsim-binary.sh
# submit.sh starts the tasks with the same binary.
export WARSIM=$warsim
dir=$(mktemp -d)
chmod 755 "$dir"  # the cluster's munge daemon runs as the munge user
cleanup() { scripts/slurm/cluster.sh stop "$dir/cluster" || true; rm -rf "$dir"; }
trap cleanup EXIT
if ! conf=$(scripts/slurm/cluster.sh start "$dir/cluster"); then
  echo "error: could not bring up the single-node Slurm cluster" >&2
  exit 1
fi
export SLURM_CONF=$conf
# What Slurm and the tasks said, for a failure in $1 to explain itself.
explain() {
  { echo "--- submit.sh:"; cat "$1.out" 2>/dev/null
    for log in "$1"/shard-*.log "$1"/merge.log; do
      echo "--- $log:"; grep -i -E 'error|interrupted|resuming|kept|signal|refus' "$log" || true
    done
    echo "--- scontrol show job:"; scontrol show job 2>&1 | grep -E 'JobId|JobState|ExitCode|Dependency|Reason' || true
    echo "--- slurmctld.log:"; tail -n 40 "$dir/cluster/slurmctld.log"; } >&2
}
fail() { echo "error: $2" >&2; explain "$1"; exit 1; }
# Runs the command "$@" every 20 ms until it succeeds, for a minute at most; fails if it never does.
await() { for _ in $(seq 3000); do "$@" && return 0; sleep 0.02; done; return 1; }
scripts/slurm/submit.sh --shards 4 --out "$dir/out" --wait --per-game csv -- --games 1e6 --seed 11 \
  || fail "$dir/out" "the 4-task array did not merge"
"$warsim" run --games 1e6 --seed 11 -q --json "$dir/whole.json" --csv "$dir/whole.csv" > /dev/null
# The merged summary against the single run's (every key but how the runs went).
same_summary() { python3 scripts/same_figures.py "$1" "$2"; }
same_summary "$dir/whole.json" "$dir/out/summary.json"
cat "$dir"/out/games-{0,1,2,3}.csv | cmp -s - "$dir/whole.csv" \
  || fail "$dir/out" "the shards' CSVs do not concatenate to the single run's"

# Tasks stopped part-way continue from their checkpoints (`warsim run --continue`), and the
# figures and CSV are still exact: one requeued by Slurm (as a pre-emption or a lost node does),
# one cancelled and resubmitted with --only (as after a time limit). Long games (208 cards), so
# that a task plays for seconds after its first checkpoint: one that finished before the test
# stopped it would prove nothing.
batch=(--games 2e6 --suits 16 --seed 12)
"$warsim" run "${batch[@]}" --threads 2 -q --json "$dir/whole-long.json" --csv "$dir/whole-long.csv" > /dev/null
# Submits the batch into $1 in the background (its output in $1.out); then `first_checkpoint $1`
# waits for task 1's first checkpoint and prints the array job's id.
start_batch() {
  scripts/slurm/submit.sh --shards 2 --out "$1" --wait --per-game csv -- "${batch[@]}" --checkpoint-every 50ms --threads 1 > "$1.out" 2>&1 &
}
first_checkpoint() {
  await test -s "$1/state-1.json" || fail "$1" "task 1 wrote no checkpoint within a minute"
  grep -o "array job [0-9]*" "$1.out" | grep -o "[0-9]*"
}
# Checks that task 1 in $1 was stopped and continued, and that the merged figures and the CSV
# are the single run's.
check_continued() {
  grep -q "interrupted after" "$1/shard-1.log" && grep -q "resuming after" "$1/shard-1.log" \
    || fail "$1" "task 1 was not stopped and continued"
  same_summary "$dir/whole-long.json" "$1/summary.json" || fail "$1" "the merged figures differ"
  cat "$1"/games-{0,1}.csv | cmp -s - "$dir/whole-long.csv" \
    || fail "$1" "the continued shard's CSV does not complete the single run's"
}
# Stops task 1 of the array job $2 with the command $3; it must still be running, as the batch
# script's own process (so Slurm waits for it to end before it runs the task again).
stop_task_1() {
  # Task 1's warsim, and the name of its parent, from /proc (procps may not be installed).
  local proc parent=""
  for proc in /proc/[0-9]*; do
    [[ "$(tr '\0' ' ' 2> /dev/null < "$proc/cmdline")" == *"--state $1/state-1.json "* ]] || continue
    parent=$(cat "/proc/$(awk '/^PPid:/ {print $2}' "$proc/status")/comm")
    break
  done
  [ "$parent" = slurmstepd ] || fail "$1" "task 1's warsim runs under '$parent', not as the batch script"
  scontrol show job "${2}_1" | grep -q JobState=RUNNING \
    || fail "$1" "task 1 was no longer running when the test came to stop it (the host stalled?)"
  $3 "${2}_1"
}
# Requeues task 1 of the array job $2 (its batch in $1) part-way, as a pre-emption or a lost
# node does, and lets it start again.
task_1_pending() { scontrol show job "${1}_1" | grep -q JobState=PENDING; }
requeue_task_1() {
  stop_task_1 "$1" "$2" "scontrol requeue"
  # A requeued job waits two minutes before it may start again: let it start sooner, but not
  # within the second of the requeue, which slurmd refuses ("Job credential revoked": it
  # compares the new credential's time with the revocation's in whole seconds; a CI run failed so).
  await task_1_pending "$2" || fail "$1" "the requeued task was not queued again within a minute"
  sleep 2
  scontrol update JobId="${2}_1" StartTime=now || fail "$1" "the requeued task did not wait in the queue"
}
start_batch "$dir/requeued"
job=$(first_checkpoint "$dir/requeued")
requeue_task_1 "$dir/requeued" "$job"
wait $! || fail "$dir/requeued" "the requeued task's batch did not merge"
check_continued "$dir/requeued"

start_batch "$dir/cancelled"
job=$(first_checkpoint "$dir/cancelled")
stop_task_1 "$dir/cancelled" "$job" scancel
if wait $!; then fail "$dir/cancelled" "a cancelled task did not fail --wait"; fi
grep -q "array tasks 1 failed" "$dir/cancelled.out" || fail "$dir/cancelled" "--wait did not name the cancelled task"
scripts/slurm/submit.sh --shards 2 --out "$dir/cancelled" --wait --per-game csv --only 1 -- "${batch[@]}" --checkpoint-every 50ms --threads 1 \
  > "$dir/cancelled.out" 2>&1 || fail "$dir/cancelled" "the resubmitted task's batch did not merge"
check_continued "$dir/cancelled"

# SIGUSR1 asks a task for a checkpoint now, and it plays on: what `#SBATCH --signal=B:USR1@120`
# sends the batch script (warsim, which it execs) before a time limit; `scancel --batch
# --signal=USR1` sends it at once. Its default action would end the task.
scripts/slurm/submit.sh --shards 2 --out "$dir/usr1" --wait --per-game csv -- "${batch[@]}" --checkpoint-every 1h --threads 1 > "$dir/usr1.out" 2>&1 &
job=$(first_checkpoint "$dir/usr1")
scancel --batch --signal=USR1 "${job}_1" || fail "$dir/usr1" "task 1 could not be sent SIGUSR1"
asked() { grep -q "checkpoint written as asked (SIGUSR1)" "$dir/usr1/shard-1.log"; }
await asked || fail "$dir/usr1" "task 1 wrote no checkpoint when SIGUSR1 asked for one"
wait $! || fail "$dir/usr1" "a task sent SIGUSR1 did not play on to the merge"
same_summary "$dir/whole-long.json" "$dir/usr1/summary.json" || fail "$dir/usr1" "the merged figures differ"
cat "$dir"/usr1/games-{0,1}.csv | cmp -s - "$dir/whole-long.csv" \
  || fail "$dir/usr1" "the CSVs of a batch whose task was sent SIGUSR1 differ from the single run's"

# With --per-game parquet a requeued task goes on with its Parquet file (ended with a footer at
# each checkpoint, and when stopped; continued, the rest written after the file's row groups):
# the shards' rows are the single run's, read back with pyarrow from the environment
# scripts/check-figures.sh makes (run before this by .ci/run).
scripts/slurm/submit.sh --shards 2 --out "$dir/parquet" --wait --per-game parquet -- "${batch[@]}" --checkpoint-every 50ms --threads 1 > "$dir/parquet.out" 2>&1 &
row_group_in() { [ "$(stat -c %s "$dir/parquet/games-1.parquet" 2> /dev/null || echo 0)" -gt 100000 ]; }
await row_group_in || fail "$dir/parquet" "task 1 wrote no row group within a minute"
requeue_task_1 "$dir/parquet" "$(grep -o "array job [0-9]*" "$dir/parquet.out" | grep -o "[0-9]*")"
wait $! || fail "$dir/parquet" "the requeued Parquet task's batch did not merge"
grep -q "interrupted after" "$dir/parquet/shard-1.log" && grep -q "resuming after" "$dir/parquet/shard-1.log" \
  || fail "$dir/parquet" "task 1 was not stopped and continued"
same_summary "$dir/whole-long.json" "$dir/parquet/summary.json" || fail "$dir/parquet" "the merged figures differ"
parquet_checked="not read back (no target/check-figures-venv: scripts/check-figures.sh makes it)"
if [ -x target/check-figures-venv/bin/python ]; then
  target/check-figures-venv/bin/python - "$dir" <<'PYTHON' || fail "$dir/parquet" "the continued shard's Parquet rows differ from the single run's"
import sys
import pandas as pd
sys.path.insert(0, "scripts")
from check_figures import read_games
whole = read_games(sys.argv[1] + "/whole-long.csv")
parts = [pd.read_parquet(f"{sys.argv[1]}/parquet/games-{k}.parquet", dtype_backend="numpy_nullable") for k in (0, 1)]
rows = pd.concat(parts, ignore_index=True)
text = lambda frame, column: frame[column].astype("string").fillna("").tolist()
same = list(rows.columns) == list(whole.columns)
sys.exit(0 if same and all(text(rows, c) == text(whole, c) for c in whole.columns) else 1)
PYTHON
  parquet_checked="read back equal to the single run's"
fi

# A sweep as an array of shards: the merged tables are the single sweep's.
sweep=(--players 2,3 --ranks 6,13 --games 2e4 --seed 13)
scripts/slurm/submit.sh --shards 3 --out "$dir/sweep" --sweep --wait --per-game csv -- "${sweep[@]}" \
  || fail "$dir/sweep" "the sweep's array did not merge"
"$warsim" sweep "${sweep[@]}" -q --json "$dir/whole-sweep.json" --seats "$dir/whole-seats.csv" \
  --games-csv "$dir/whole-games.csv" > /dev/null
cmp -s "$dir/whole-seats.csv" "$dir/sweep/seats.csv" \
  || fail "$dir/sweep" "the merged sweep's table of seats differs from the single sweep's"
cmp -s "$dir/whole-games.csv" "$dir/sweep/games.csv" \
  || fail "$dir/sweep" "the shards' sorted rows differ from the single sweep's per-game CSV"
grep -q '<svg' "$dir/sweep/medians.svg" \
  || fail "$dir/sweep" "the merged sweep has no plot of its medians"
# Every cell and every key of the sweep's JSON (so its 4 cells and complete: true).
same_summary "$dir/whole-sweep.json" "$dir/sweep/summary.json"
python3 -c 'import json, sys; s = json.load(open(sys.argv[1])); sys.exit(len(s["cells"]) != 4 or not s["complete"])' \
  "$dir/sweep/summary.json" || fail "$dir/sweep" "the merged sweep is not 4 whole cells"

# A sweep's shard goes on with its Parquet file too: task 1 requeued part-way, the shards' rows,
# sorted by cell and game, are the single sweep's, each led by its cell's settings.
long_sweep=(--players 2,3 --suits 16 --games 5e5 --seed 15)
"$warsim" sweep "${long_sweep[@]}" --threads 2 -q --json "$dir/whole-long-sweep.json" \
  --parquet "$dir/whole-long-sweep.parquet" > /dev/null
scripts/slurm/submit.sh --shards 2 --out "$dir/sweep-parquet" --sweep --wait --per-game parquet -- \
  "${long_sweep[@]}" --checkpoint-every 50ms --threads 1 > "$dir/sweep-parquet.out" 2>&1 &
sweep_rows_in() { [ "$(stat -c %s "$dir/sweep-parquet/games-1.parquet" 2> /dev/null || echo 0)" -gt 100000 ]; }
await sweep_rows_in || fail "$dir/sweep-parquet" "task 1 wrote no rows within a minute"
requeue_task_1 "$dir/sweep-parquet" "$(grep -o "array job [0-9]*" "$dir/sweep-parquet.out" | grep -o "[0-9]*")"
wait $! || fail "$dir/sweep-parquet" "the requeued Parquet sweep did not merge"
grep -q "interrupted in cell" "$dir/sweep-parquet/shard-1.log" \
  && grep -q "resuming after" "$dir/sweep-parquet/shard-1.log" \
  || fail "$dir/sweep-parquet" "task 1 was not stopped and continued"
same_summary "$dir/whole-long-sweep.json" "$dir/sweep-parquet/summary.json" \
  || fail "$dir/sweep-parquet" "the merged sweep's figures differ"
sweep_parquet_checked="not read back (no target/check-figures-venv)"
if [ -x target/check-figures-venv/bin/python ]; then
  target/check-figures-venv/bin/python - "$dir" <<'PYTHON' || fail "$dir/sweep-parquet" "the shards' Parquet rows differ from the single sweep's"
import sys
import pandas as pd
read = lambda path: pd.read_parquet(path, dtype_backend="numpy_nullable")
whole = read(f"{sys.argv[1]}/whole-long-sweep.parquet")
parts = [read(f"{sys.argv[1]}/sweep-parquet/games-{k}.parquet") for k in (0, 1)]
rows = pd.concat(parts, ignore_index=True).sort_values(["cell", "game"], ignore_index=True)
sys.exit(0 if len(rows) == 1_000_000 and rows.equals(whole) else 1)
PYTHON
  sweep_parquet_checked="read back equal to the single sweep's"
fi

# An enumeration as an array of parts: the merged figures are the whole enumeration's, exactly,
# with task 1 requeued part-way: it goes on from its checkpoint (`warsim enumerate --continue`).
# 63,063,000 sequences: each part plays for seconds after its first checkpoint.
enumeration=(--suits 4 --ranks 4)
"$warsim" enumerate "${enumeration[@]}" -q --json "$dir/whole-enumeration.json" > /dev/null
scripts/slurm/submit.sh --shards 2 --out "$dir/enumeration" --enumerate --wait -- "${enumeration[@]}" \
  --checkpoint-every 50ms --threads 1 > "$dir/enumeration.out" 2>&1 &
job=$(first_checkpoint "$dir/enumeration")
requeue_task_1 "$dir/enumeration" "$job"
wait $! || fail "$dir/enumeration" "the enumeration's array did not merge"
grep -q "interrupted (SIGTERM)" "$dir/enumeration/shard-1.log" \
  && grep -q "resuming after" "$dir/enumeration/shard-1.log" \
  || fail "$dir/enumeration" "task 1 was not stopped and continued"
cmp -s "$dir/whole-enumeration.json" "$dir/enumeration/summary.json" \
  || fail "$dir/enumeration" "the merged enumeration's figures differ from the whole enumeration's"

if scripts/slurm/submit.sh --shards 2 --out "$dir/bad" --wait -- --games 1e4 --players 99 > "$dir/bad.out" 2>&1; then
  fail "$dir/bad" "an array of failing tasks did not fail --wait"
fi
grep -q "array tasks 0,1 failed" "$dir/bad.out" || fail "$dir/bad" "--wait did not name the failed tasks"
echo "slurm: a 4-task array of 10^6 games merged equal to the single run; a requeued task and a cancelled one resubmitted with --only continued; a task sent SIGUSR1 checkpointed and played on; a requeued task went on with its Parquet file ($parquet_checked); a 3-shard sweep merged equal to the single sweep, its rows sorted into its per-game CSV; a requeued sweep task went on with its Parquet file ($sweep_parquet_checked); a 2-part enumeration, one part requeued and continued, merged equal to the whole; failing tasks reported"
