#!/usr/bin/env bash
# Runs a warsim batch as a Slurm job array: one task per shard (`warsim run … --shard K/N
# --state DIR/state-K.json`), then a merge job that starts once every task has succeeded
# (--dependency=afterok) and writes DIR/summary.json, summary.csv, histogram.csv and lengths.svg:
# the figures of the single run, exactly.
#
# With --sweep, the tasks are shards of `warsim sweep` (each plays its part of every cell) and
# the merge writes the single sweep's tables: DIR/summary.json (the sweep JSON), summary.csv (the
# table of cells), seats.csv and histogram.csv, its plot medians.svg where warsim can draw it (up
# to 8 lines; a heatmap of two settings), and games.csv with --per-game csv. The merge job's
# script is DIR/merge.sh; it reads the states listed in DIR/states.txt.
#
# With --enumerate, the tasks are parts of `warsim enumerate` (each plays its part of the
# deck's deals) and the merge writes the whole enumeration's exact figures: DIR/summary.json,
# summary.csv and histogram.csv, and its report in DIR/merge.log.
#
# Usage: scripts/slurm/submit.sh --shards N --out DIR [--sweep|--enumerate] [--wait]
#                                [--per-game csv|parquet] [--only K,K,…]
#                                [-- <warsim run, sweep or enumerate flags>]
#   --shards N      tasks in the array (shard K of N is array task K)
#   --out DIR       where the states, logs, per-game files and merged figures go
#   --sweep         shards of `warsim sweep` instead of `warsim run`
#   --enumerate     parts of `warsim enumerate` instead (no per-game files)
#   --wait          wait for the merge; exit non-zero if any task or the merge failed
#   --per-game F    also write each shard's games: DIR/games-K.csv (only shard 0 with a header,
#                   so `cat DIR/games-{0..N-1}.csv` is the single run's CSV) or DIR/games-K.parquet
#                   (a sweep's shards each with a header: the merge job sorts their rows by cell
#                   and game into DIR/games.csv, the single sweep's CSV)
#   --only K,…      resubmit only these tasks (after some failed), and a new merge job
# Every task runs with `--continue`: a task that left a checkpoint in its state file (a
# time limit, a lost node, a pre-emption, `scontrol requeue`) continues from it when Slurm requeues
# it or --only resubmits it; one that left none plays its shard again. (With --per-game parquet
# each checkpoint ends the task's Parquet file with a footer first, and the task goes on with
# it.) A state of another batch in DIR makes the task fail (exit 2): give each batch its own
# --out.
# The warsim binary is $WARSIM, or target/release/warsim (built if missing).
set -euo pipefail
cd "$(dirname "$0")/../.."

shards=""; out=""; wait=0; per_game=""; only=""; sweep=0; enumerate=0
while [ $# -gt 0 ]; do
  case "$1" in
    --sweep) sweep=1; shift ;;
    --enumerate) enumerate=1; shift ;;
    --shards) shards="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --wait) wait=1; shift ;;
    --per-game) per_game="$2"; shift 2 ;;
    --only) only="$2"; shift 2 ;;
    --) shift; break ;;
    *) echo "error: unknown option '$1' (see the usage at the top of $0)" >&2; exit 2 ;;
  esac
done
if ! [[ "$shards" =~ ^[1-9][0-9]*$ ]] || [ -z "$out" ]; then
  echo "error: give --shards N (N ≥ 1) and --out DIR" >&2; exit 2
fi
case "$per_game" in ""|csv|parquet) ;; *) echo "error: --per-game takes csv or parquet" >&2; exit 2 ;; esac
if [ "$enumerate" = 1 ] && { [ "$sweep" = 1 ] || [ -n "$per_game" ]; }; then
  echo "error: --enumerate takes neither --sweep nor --per-game (an enumeration writes no games)" >&2; exit 2
fi
warsim=${WARSIM:-$PWD/target/release/warsim}
if [ ! -x "$warsim" ]; then cargo build --release >&2; fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
flags=$(printf ' %q' "$@")

command=run; [ "$sweep" = 1 ] && command=sweep; [ "$enumerate" = 1 ] && command=enumerate
task="$(printf %q "$warsim") $command$flags -q --shard \$SLURM_ARRAY_TASK_ID/$shards --state $out/state-\$SLURM_ARRAY_TASK_ID.json"
# The same games either way: a continued run's outputs are the uninterrupted run's.
case "$command $per_game" in
  "sweep csv") task="$task --continue --games-csv $out/games-\$SLURM_ARRAY_TASK_ID.csv" ;;
  "sweep parquet") task="$task --continue --parquet $out/games-\$SLURM_ARRAY_TASK_ID.parquet" ;;
  "sweep ") task="$task --continue" ;;
  "run csv") task="$task --continue --csv $out/games-\$SLURM_ARRAY_TASK_ID.csv \$( [ \$SLURM_ARRAY_TASK_ID -gt 0 ] && echo --no-header )" ;;
  "run parquet") task="$task --continue --parquet $out/games-\$SLURM_ARRAY_TASK_ID.parquet" ;;
  "run ") task="$task --continue" ;;
  "enumerate ") task="$task --continue" ;;
esac
array=${only:-0-$((shards - 1))}
# --requeue: a task whose node fails or that is pre-empted is queued again (and continues);
# --open-mode=append keeps every attempt's lines in the task's log. `exec`: warsim is the batch
# script's own process, so Slurm waits for it to write its last checkpoint before it starts the
# task again; under a shell, a process-tree tracker (proctrack/linuxproc) loses warsim once the
# signalled shell dies, and the next attempt could start while it still writes its files.
array_job=$(sbatch --parsable --job-name=warsim-shards --array="$array" --requeue \
  --open-mode=append --output="$out/shard-%a.log" --wrap="exec $task")
# Every shard's state, listed in a file: tens of thousands of paths would pass the command
# line's limit.
for k in $(seq 0 $((shards - 1))); do echo "$out/state-$k.json"; done > "$out/states.txt"
states=" --states-from $out/states.txt"
merge="$(printf %q "$warsim") merge$states --json $out/summary.json --summary $out/summary.csv --histogram $out/histogram.csv"
case "$command" in
  sweep) merge="$merge --seats $out/seats.csv" ;;
  run) merge="$merge --plot $out/lengths.svg" ;;
esac
{
  echo '#!/usr/bin/env bash'
  echo 'set -euo pipefail'
  if [ "$sweep" = 1 ]; then
    # Whether warsim can draw the sweep's medians (at most 8 lines, or a heatmap) is known from
    # any one state: asked of the first alone, so that the merge reads the states once. The
    # tables stand without the plot; the log says why there is none.
    check="$(printf %q "$warsim") merge $out/state-0.json --allow-partial -q --plot /dev/null"
    echo "if $check > /dev/null 2> $out/plot-check.log; then plot='--plot $out/medians.svg'; else plot=; echo \"no plot: \$(grep '^error' $out/plot-check.log) (run warsim merge … --plot on a slice of the sweep)\"; fi"
    echo "$merge \$plot"
  else
    echo "$merge"
  fi
  if [ "$sweep" = 1 ] && [ "$per_game" = csv ]; then
    # A sweep's shards each hold part of every cell: sorted by cell and game (its column comes
    # after the swept settings'), their rows are the single sweep's per-game CSV. The files are
    # listed for xargs, as the states are for warsim: any number fits.
    for k in $(seq 0 $((shards - 1))); do echo "$out/games-$k.csv"; done > "$out/games-csvs.txt"
    cat << EOF
game=\$(head -n 1 $out/games-0.csv | tr , '\n' | grep -nx game | cut -d: -f1)
{ head -n 1 $out/games-0.csv; xargs -d '\n' -a $out/games-csvs.txt tail -q -n +2 | LC_ALL=C sort -t, -k1,1n -k\$game,\${game}n -T $out; } > $out/games.csv.part
mv $out/games.csv.part $out/games.csv
EOF
  fi
} > "$out/merge.sh"
merge_job=$(sbatch --parsable --job-name=warsim-merge --dependency="afterok:$array_job" \
  --kill-on-invalid-dep=yes --output="$out/merge.log" "$out/merge.sh")
echo "submitted: array job $array_job (tasks $array), merge job $merge_job; figures in $out"
[ "$wait" = 1 ] || exit 0

# Wait for the merge; sacct needs a database, so states and exit codes come from scontrol.
state_of() { scontrol show job "$1" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | cut -d= -f2 | sort -u | tr '\n' ' '; }
while true; do
  merge_state=$(state_of "$merge_job")
  case "$merge_state" in
    *PENDING*|*RUNNING*|*CONFIGURING*|*COMPLETING*|"") sleep 0.5 ;;
    *) break ;;
  esac
done
# Every task that did not complete, as "id:STATE" (a requeued task shows PENDING).
unfinished=$(scontrol show job "$array_job" | awk '/ArrayTaskId=/{match($0,/ArrayTaskId=[0-9]+/); id=substr($0,RSTART+12,RLENGTH-12)} /JobState=/{match($0,/JobState=[A-Z_]+/); st=substr($0,RSTART+9,RLENGTH-9); if (st != "COMPLETED") print id ":" st}' | sort -n)
if [ -n "$unfinished" ]; then
  failed=$(cut -d: -f1 <<<"$unfinished" | paste -sd,)
  ended=$(sed 's/:/ /' <<<"$unfinished" | paste -sd, | sed 's/,/, /g')
  echo "error: array tasks $failed failed (states: $ended; the merge job: ${merge_state% }; logs: $out/shard-K.log); resubmit them with --only $failed" >&2
  exit 1
fi
if [ "$merge_state" != "COMPLETED " ]; then
  echo "error: the merge job ended $merge_state(log: $out/merge.log)" >&2
  exit 1
fi
echo "merged: $out/summary.json"
