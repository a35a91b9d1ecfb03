#!/usr/bin/env bash
# Side-by-side throughput of warsim and its public peer war_card_game 0.3.1, every preset's
# speed, thread scaling, (with --memory) peak memory of 100,000,000-game runs, and the cost of a
# round by deck size, players and rules (scripts/flat-cost.sh, one thread).
#
# Usage: scripts/bench.sh [--runs N] [--memory] [--out DIR]
#   --runs N    repetitions of each measurement; medians are reported (default 5)
#   --memory    also run 1e8 classic games with and without --csv and report peak RSS (slow)
#   --out DIR   also keep every raw measurement line in DIR/raw.txt, and flat-cost.sh's runs in
#               DIR/flat-cost-raw.txt
# Needs: the Rust toolchain and /usr/bin/time. Installs the peer with cargo into
# $PEER_ROOT (default ~/.cache/warsim-peers) when missing. Run it on an otherwise idle machine.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=5
memory=0
out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --memory) memory=1; shift ;;
    --out) out="$2"; shift 2 ;;
    *) echo "usage: scripts/bench.sh [--runs N] [--memory] [--out DIR]" >&2; exit 2 ;;
  esac
done

peer_root="${PEER_ROOT:-$HOME/.cache/warsim-peers}"
peer="$peer_root/bin/war_card_game"
if [ ! -x "$peer" ]; then
  cargo install war_card_game --version 0.3.1 --root "$peer_root" >&2
fi
cargo build --release >&2
warsim=target/release/warsim
raw=$(mktemp)
[ -n "$out" ] && mkdir -p "$out"

# measure LABEL GAMES COMMAND...: appends "LABEL games/s peak-KB" to the raw file.
measure() {
  local label=$1 games=$2; shift 2
  local t; t=$(mktemp)
  /usr/bin/time -f "%e %M" -o "$t" "$@" > /dev/null 2>&1
  read -r secs kb < "$t"; rm -f "$t"
  awk -v l="$label" -v g="$games" -v s="$secs" -v k="$kb" 'BEGIN { printf "%s %.0f %s\n", l, g / s, k }' >> "$raw"
}

median() { # LABEL -> median games/s
  awk -v l="$1" '$1 == l { print $2 }' "$raw" | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : int((v[NR / 2] + v[NR / 2 + 1]) / 2) }'
}

for i in $(seq "$runs"); do
  echo "run $i of $runs" >&2
  measure peer-war_card_game 100000 sh -c "\"$peer\" -r 0-99999 > /dev/null"
  measure warsim-war-card-game-csv 1000000 "$warsim" run --rules war-card-game --games 1e6 --threads 1 --csv /dev/null -q
  measure classic-1-thread 1000000 "$warsim" run --games 1e6 --threads 1 -q
  measure classic-2-threads 2000000 "$warsim" run --games 2e6 --threads 2 -q
  for preset in war-card-game game-of-war war-simulator cards-war; do
    measure "$preset-1-thread" 1000000 "$warsim" run --rules "$preset" --games 1e6 --threads 1 -q
  done
  measure war-simulator-4-players-1-thread 1000000 "$warsim" run --rules war-simulator --players 4 --games 1e6 --threads 1 -q
  measure fixed-rounds-1-thread 10000000 "$warsim" run --rules fixed-rounds --games 1e7 --threads 1 -q
done
if [ "$memory" = 1 ]; then
  measure memory-1e8-no-csv 100000000 "$warsim" run --games 1e8 -q
  measure memory-1e8-csv 100000000 "$warsim" run --games 1e8 -q --csv /dev/null
fi

peer_rate=$(median peer-war_card_game)
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
echo "date $(date -u +%F), git $(git rev-parse --short HEAD), $(rustc --version), $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores"
echo "medians of $runs runs, games/s"
printf '%-36s %12s  %s\n' measurement games/s "ratio / note"
printf '%-36s %12s  %s\n' "war_card_game 0.3.1 (peer, 1 core)" "$peer_rate" "war_card_game -r 0-99999 > /dev/null"
w=$(median warsim-war-card-game-csv)
printf '%-36s %12s  %sx the peer (per-game CSV to /dev/null)\n' "warsim war-card-game, 1 thread" "$w" "$(ratio "$w" "$peer_rate")"
c1=$(median classic-1-thread); c2=$(median classic-2-threads)
printf '%-36s %12s  %s\n' "classic, 1 thread" "$c1" "target 1,000,000"
printf '%-36s %12s  %sx one thread (target 1.85x)\n' "classic, 2 threads" "$c2" "$(ratio "$c2" "$c1")"
for preset in war-card-game game-of-war cards-war; do
  printf '%-36s %12s\n' "$preset, 1 thread" "$(median "$preset-1-thread")"
done
s2=$(median war-simulator-1-thread); s4=$(median war-simulator-4-players-1-thread)
printf '%-36s %12s  %sx WarSimulator per thread (4,753 = 38,023 / 8)\n' "war-simulator 2 players, 1 thread" "$s2" "$(ratio "$s2" 4753)"
printf '%-36s %12s  %sx WarSimulator per thread (3,444 = 27,548 / 8)\n' "war-simulator 4 players, 1 thread" "$s4" "$(ratio "$s4" 3444)"
printf '%-36s %12s\n' "fixed-rounds, 1 thread" "$(median fixed-rounds-1-thread)"
if [ "$memory" = 1 ]; then
  awk '$1 ~ /^memory/ { printf "%-36s %12s  peak RSS %.1f MB\n", $1, $2, $3 / 1024 }' "$raw"
fi
[ -n "$out" ] && cp "$raw" "$out/raw.txt"
rm -f "$raw"
echo
echo "ns per round (scripts/flat-cost.sh; give it two binaries to compare them alternating):"
keep_runs=()
[ -z "$out" ] || keep_runs=(--raw "$out/flat-cost-raw.txt")
scripts/flat-cost.sh --runs "$runs" "${keep_runs[@]}" "$warsim"
