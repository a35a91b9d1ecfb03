# shellcheck shell=bash
# Sourced by the scripts that measure warsim binaries (flat-cost.sh, instructions.sh,
# shuffle-share.sh): the binaries to measure, the host line, a run's ns per round, medians.
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
