#!/usr/bin/env bash
# The per-game Parquet file against the per-game CSV: GAMES classic games written each way,
# alternating in one sitting; prints the median games/s of each, their ratio and the file sizes
# (issue 14 asks for Parquet at >= 80% of the CSV's games/s and at most a third of its size).
#
# Usage: scripts/bench-parquet.sh [--runs N] [--games G] [--dir DIR]
#   --runs N    alternations; medians are reported (default 5)
#   --games G   games per run (default 1e7)
#   --dir DIR   where the files go (default a temporary folder, removed at the end)
set -euo pipefail
cd "$(dirname "$0")/.."

runs=5
games=1e7
dir=""
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --games) games="$2"; shift 2 ;;
    --dir) dir="$2"; shift 2 ;;
    *) echo "usage: scripts/bench-parquet.sh [--runs N] [--games G] [--dir DIR]" >&2; exit 2 ;;
  esac
done
cargo build --release >&2
warsim=target/release/warsim
if [ -z "$dir" ]; then
  dir=$(mktemp -d)
  trap 'rm -rf "$dir"' EXIT
fi
now() { date +%s.%N; }
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
none=(); csv=(); parquet=()
for _ in $(seq "$runs"); do
  start=$(now); "$warsim" run -q --games "$games" > /dev/null; none+=("$(echo "$(now) - $start" | bc)")
  rm -f "$dir/games.csv"
  start=$(now); "$warsim" run -q --games "$games" --csv "$dir/games.csv" > /dev/null; csv+=("$(echo "$(now) - $start" | bc)")
  rm -f "$dir/games.parquet"
  start=$(now); "$warsim" run -q --games "$games" --parquet "$dir/games.parquet" > /dev/null; parquet+=("$(echo "$(now) - $start" | bc)")
done
n=$(python3 -c "print(int(float('$games')))")
rate() { echo "$n / $1" | bc; }
m0=$(median "${none[@]}"); m1=$(median "${csv[@]}"); m2=$(median "${parquet[@]}")
s1=$(stat -c %s "$dir/games.csv"); s2=$(stat -c %s "$dir/games.parquet")
echo "cpu:            $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), family $(grep -m1 'cpu family' /proc/cpuinfo | cut -d: -f2 | tr -d ' '), model $(grep -m1 '^model\s' /proc/cpuinfo | cut -d: -f2 | tr -d ' '), $(grep -qw avx512f /proc/cpuinfo && echo AVX-512 || echo no AVX-512), $(nproc) threads"
echo "games:          $n classic, $runs alternations"
echo "no file:        $m0 s  $(rate "$m0") games/s  [${none[*]}]"
echo "--csv:          $m1 s  $(rate "$m1") games/s  [${csv[*]}]  $s1 bytes"
echo "--parquet:      $m2 s  $(rate "$m2") games/s  [${parquet[*]}]  $s2 bytes"
echo "parquet/csv games/s: $(echo "scale=3; $m1 / $m2" | bc)   size: $(echo "scale=3; $s2 / $s1" | bc)"
