#!/usr/bin/env bash
# Peak memory (GNU time's maximum resident set) and wall time of `warsim merge` over many shard
# states, for each warsim binary given, alternating, RUNS times. The states are played once by
# the first binary into DIR (kept for later runs): a 7,533-cell sweep in 8 shards (16 games a
# cell) and in 64 shards (64 games a cell), and a run of 10^6 classic games in 1,000 shards.
# Usage: merge-folding.sh DIR RUNS BINARY...
set -euo pipefail
dir=$1
runs=$2
shift 2
first=$1
grid=(--players 2..32 --ranks 13..255 --skip-invalid -q --threads 1)
play() { # NAME SHARDS COMMAND...: plays the shards into DIR/NAME unless already there
  local name=$1 shards=$2
  shift 2
  [ -f "$dir/$name/done" ] && return
  mkdir -p "$dir/$name"
  for k in $(seq 0 $((shards - 1))); do
    "$first" "$@" --shard "$k/$shards" --state "$dir/$name/$k.state" > /dev/null
  done
  touch "$dir/$name/done"
}
play sweep-8 8 sweep "${grid[@]}" --games 16
play sweep-64 64 sweep "${grid[@]}" --games 64
play run-1000 1000 run -q --threads 1 --games 1e6
states() { ls "$dir/$1"/*.state | sort -V; }
for run in $(seq "$runs"); do
  for b in "$@"; do
    name=$(basename "$b")
    for work in sweep-8 sweep-64 run-1000; do
      mapfile -t files < <(states "$work")
      /usr/bin/time -f "%e %M" -o "$dir/time" "$b" merge "${files[@]}" --json "$dir/$name-$work.json" > /dev/null
      read -r seconds kb < "$dir/time"
      echo "$name|$work|run $run|$seconds s|$kb KB"
    done
  done
done
