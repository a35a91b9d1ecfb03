#!/usr/bin/env bash
# Nanoseconds per round on one thread, by deck size, by number of players and for war-simulator,
# with and without the cycle watch: where a change to the engine moved the cost of a round.
# ns/round = 1e9 / (games/s × mean rounds), both from warsim's own --json (in-process timing,
# so start-up is not counted).
#
# Usage: scripts/flat-cost.sh [--runs N] [--quick] [--raw FILE] [BINARY...]
#   --runs N   measurements of each line per binary; medians are reported (default 5)
#   --quick    a tenth of the games (for a look, not for results/)
#   --raw FILE also keep every run's figures in FILE ("work|binary number|ns/round|mean rounds",
#              in the order they ran), so that a results/ folder can be worked over again
#   BINARY     warsim binaries to compare (default: target/release/warsim, built first). With
#              several, every run goes through all of them in turn (alternating, one sitting),
#              and the table shows each binary's median and the ratio to the first.
# Last, issue 16's ratios to classic and the cycle watch's cost per deck size, run by run (each
# run's work over its classic, its watched over its unwatched time): median and range over the
# runs, for every binary.
# Run it on an otherwise idle machine.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=scripts/binaries.sh
. scripts/binaries.sh

usage="scripts/flat-cost.sh [--runs N] [--quick] [--raw FILE] [BINARY...]"
scale=1
keep=""
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) scale=10; shift ;;
    --raw)
      [ $# -ge 2 ] || { echo "usage: $usage" >&2; exit 2; }
      keep=$2
      shift 2
      ;;
    *) args+=("$1"); shift ;;
  esac
done
runs_and_binaries "$usage" "${args[@]}"

# The "no watch" rows: `--at-cap larger-pile` with WARSIM_NO_CYCLE_SKIP set plays every round,
# unwatched (without it, warsim watches those games too, to skip the laps of their loops). No
# other row is changed by it.
export WARSIM_NO_CYCLE_SKIP=1

# label | games | warsim run flags (one thread, quiet, and the JSON summary are added)
works=(
  "classic 2p 52 cards|200000|"
  "2p 4x26=104 cards|100000|--ranks 26"
  "2p 4x26=104 cards, no watch|100000|--ranks 26 --at-cap larger-pile"
  "2p 4x52=208 cards|20000|--ranks 52"
  "2p 4x52=208 cards, no watch|20000|--ranks 52 --at-cap larger-pile"
  "2p 4x255=1020 cards|400|--ranks 255 --max-rounds 1000000"
  "2p 4x255=1020 cards, no watch|400|--ranks 255 --max-rounds 1000000 --at-cap larger-pile"
  "3p 52 cards|100000|--players 3"
  "4p 52 cards|100000|--players 4"
  "4p 4x64=256 cards|10000|--players 4 --ranks 64"
  "8p 4x64=256 cards|10000|--players 8 --ranks 64"
  "16p 4x64=256 cards|10000|--players 16 --ranks 64"
  "32p 4x64=256 cards|10000|--players 32 --ranks 64"
  "war-simulator 2p|200000|--rules war-simulator"
  "war-simulator 4p|100000|--rules war-simulator --players 4"
)

raw=$(mktemp)
json=$(mktemp)
trap 'rm -f "$raw" "$json"' EXIT
ns_and_rounds() { round_figures "$1" | tr ' ' '|'; }
alternate_works "$raw" "$json" "$scale" ns_and_rounds
[ -z "$keep" ] || cp "$raw" "$keep"

median() { # LABEL BINARY -> median ns/round
  awk -F'|' -v l="$1" -v b="$2" '$1 == l && $2 == b { print $3 }' "$raw" | spread |
    awk '{ printf "%.2f", $1 }'
}
mean_rounds() { awk -F'|' -v l="$1" '$1 == l { print $4; exit }' "$raw"; }

echo "$(host_line), one thread, medians of $runs runs"
for b in "${!bins[@]}"; do echo "binary $b: ${bins[$b]}"; done
header=$(printf '%-34s %12s' work "mean rounds")
for b in "${!bins[@]}"; do header+=$(printf ' %10s' "ns/rd b$b"); done
header+=$(printf ' %10s' "x classic")
[ ${#bins[@]} -gt 1 ] && header+=$(printf ' %10s' "last/b0")
echo "$header"
classic=$(median "classic 2p 52 cards" $((${#bins[@]} - 1)))
for work in "${works[@]}"; do
  IFS='|' read -r label _ _ <<< "$work"
  line=$(printf '%-34s %12s' "$label" "$(mean_rounds "$label")")
  for b in "${!bins[@]}"; do line+=$(printf ' %10s' "$(median "$label" "$b")"); done
  last=$(median "$label" $((${#bins[@]} - 1)))
  line+=$(awk -v a="$last" -v c="$classic" 'BEGIN { printf " %10.2f", a / c }')
  if [ ${#bins[@]} -gt 1 ]; then
    line+=$(awk -v a="$last" -v c="$(median "$label" 0)" 'BEGIN { printf " %10.2f", a / c }')
  fi
  echo "$line"
done

# by_runs WORK OVER DIGITS: for every binary, WORK's ns/round over OVER's run by run, "bN
# median (lowest-highest)" with DIGITS decimals. A run's works ran seconds apart, so the median
# of their ratios holds when the host drifts between runs, where the ratio of two medians may not.
by_runs() {
  local b
  for b in "${!bins[@]}"; do
    awk -F'|' -v w="$1" -v o="$2" -v b="$b" '
      $2 == b && $1 == w { work[++i] = $3 }
      $2 == b && $1 == o { over[++j] = $3 }
      END { for (k = 1; k <= i && k <= j; k++) print work[k] / over[k] }' "$raw" |
      spread | awk -v b="$b" -v d="$3" '{ printf "  b%d %.*f (%.*f-%.*f)", b, d, $1, d, $2, d, $3 }'
  done
}

# Issue 16's targets over classic.
targets=("2p 4x52=208 cards|1.5" "4p 52 cards|2.5" "war-simulator 2p|2" "war-simulator 4p|4")
echo "x classic run by run, the same binary and run: median (lowest-highest); issue 16's target"
for target in "${targets[@]}"; do
  IFS='|' read -r label most <<< "$target"
  echo "$(printf '%-34s' "$label")$(by_runs "$label" "classic 2p 52 cards" 2)  at most ${most}x"
done

# The watch's cost (issue 16: at most 1.1x).
echo "the cycle watch's cost, watched / no watch in the same binary and run: median (lowest-highest)"
for work in "${works[@]}"; do
  IFS='|' read -r label _ _ <<< "$work"
  case "$label" in *", no watch") continue ;; esac
  grep -qF "$label, no watch|" "$raw" || continue
  echo "$(printf '%-34s' "$label")$(by_runs "$label" "$label, no watch" 3)"
done
