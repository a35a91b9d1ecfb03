#!/usr/bin/env bash
# Peak memory (GNU time's maximum resident set) and wall time of sweeps with many cells, for
# each warsim binary given, alternating, RUNS times; and a merge of a sweep's two shards.
# Usage: sweep-memory.sh RUNS BINARY...
set -euo pipefail
runs=$1
shift
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
grid=(--players 2..32 --ranks 13..255 --skip-invalid -q)
for run in $(seq "$runs"); do
  for b in "$@"; do
    name=$(basename "$b")
    measure() { # LABEL ARGS...
      local label=$1
      shift
      /usr/bin/time -f "%e %M" -o "$dir/time" "$b" "$@" > /dev/null
      read -r seconds kb < "$dir/time"
      echo "$name|$label|run $run|$seconds s|$kb KB"
    }
    measure "7,533 cells x 10 games" sweep "${grid[@]}" --games 10
    measure "7,533 cells x 10 games, --json" sweep "${grid[@]}" --games 10 --json "$dir/s.json"
    measure "40 cells x 100,000 games" sweep --players 2..6 --ranks 6..13 --games 1e5 -q
    "$b" sweep "${grid[@]}" --games 10 --shard 0/2 --state "$dir/0.state" > /dev/null
    "$b" sweep "${grid[@]}" --games 10 --shard 1/2 --state "$dir/1.state" > /dev/null
    measure "merge of 2 shards of 7,533 cells" merge "$dir/0.state" "$dir/1.state" --json "$dir/m.json"
  done
done
