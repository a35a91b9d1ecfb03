# shellcheck shell=bash
# Sourced by the scripts that measure warsim binaries (flat-cost.sh, instructions.sh,
# shuffle-share.sh, and results scripts): the binaries to measure and how many runs, the runs
# themselves, the host line, a run's ns per round, medians.
#
# compared_binaries USAGE ARG...: sets `bins` to the binaries named by the ARGs left after the
# script's own options, or to a fresh release build (target/release/warsim) when none is; an
# ARG that looks like an option prints USAGE and exits 2.
compared_binaries() {
  local usage=$1
  shift
  bins=()
  for arg in "$@"; do
    case "$arg" in
      -*) echo "usage: $usage" >&2; exit 2 ;;
      *) bins+=("$arg") ;;
    esac
  done
  if [ ${#bins[@]} -eq 0 ]; then
    cargo build --release >&2
    bins=(target/release/warsim)
  fi
}

# runs_and_binaries USAGE ARG...: sets `runs` from `--runs N` (5 without it) and `bins` from
# the other ARGs, as compared_binaries does.
runs_and_binaries() {
  local usage=$1
  shift
  runs=5
  local names=()
  while [ $# -gt 0 ]; do
    case "$1" in
      --runs) runs="$2"; shift 2 ;;
      *) names+=("$1"); shift ;;
    esac
  done
  compared_binaries "$usage" "${names[@]}"
}

# alternate_works RAW JSON SCALE MEASURE: `runs` times, every work of the array `works`
# ("label|games|warsim run flags") on every binary of `bins` in turn, so that all of them run
# in one sitting: one thread, quiet, the JSON summary to JSON, the work's games / SCALE.
# Appends "label|binary|what MEASURE prints" to RAW; MEASURE is given JSON and the games.
alternate_works() {
  local raw=$1 json=$2 scale=$3 measure=$4 i work label games flags b
  for i in $(seq "$runs"); do
    echo "run $i of $runs" >&2
    for work in "${works[@]}"; do
      IFS='|' read -r label games flags <<< "$work"
      games=$((games / scale))
      for b in "${!bins[@]}"; do
        # shellcheck disable=SC2086 # flags are words
        "${bins[$b]}" run --games "$games" --threads 1 -q --json "$json" $flags > /dev/null
        echo "$label|$b|$("$measure" "$json" "$games")" >> "$raw"
      done
    done
  done
}

# host_line: the date and the processor, for the head of a results file (the AVX-512 and
# family/model figures say which of the project's hosts ran it).
host_line() {
  echo "date $(date -u +%F), $(lscpu | sed -n 's/^Model name: *//p') (family $(grep -m1 '^cpu family' /proc/cpuinfo | sed 's/.*: //') model $(grep -m1 '^model[[:space:]]*:' /proc/cpuinfo | sed 's/.*: //'), $(grep -qw avx512f /proc/cpuinfo && echo with || echo no) AVX-512)"
}

# round_figures JSON: "NS ROUNDS" of a `warsim run --json` summary, ns per round =
# 1e9 / (games/s x mean rounds) (in-process timing: start-up is not counted) and mean rounds.
round_figures() {
  awk '
    /"rounds_mean"/ { gsub(/[,]/, "", $2); r = $2 }
    /"games_per_second"/ { gsub(/[,]/, "", $2); g = $2 }
    END { printf "%.4f %.1f\n", 1e9 / (g * r), r }' "$1"
}

# spread: numbers, one a line -> "median lowest highest".
spread() {
  sort -n | awk '{ v[NR] = $1 } END {
    printf "%.10g %.10g %.10g", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2, v[1], v[NR] }'
}
