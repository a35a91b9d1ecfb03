#!/usr/bin/env bash
# Regenerates the study results/<date>-how-long-does-war-last/: every figure, table and report
# the study's README cites, made by warsim itself. Takes about ten seconds on two cores, once
# warsim is built.
#
# Usage: scripts/how-long-does-war-last.sh [DIR | --check]
#   DIR      where to write (default results/2026-11-23-how-long-does-war-last)
#   --check  make the study in a temporary folder and check (scripts/same_study.py) that the
#            committed one holds the same files, but for how the runs went (run by .ci/run)
set -euo pipefail
cd "$(dirname "$0")/.."
study=results/2026-11-23-how-long-does-war-last
if [[ ${1:-} == --check ]]; then
  fresh=$(mktemp -d)
  trap 'rm -rf "$fresh"' EXIT
  "$0" "$fresh"
  python3 scripts/same_study.py "$study" "$fresh"
  exit
fi
out=${1:-$study}
mkdir -p "$out"
source scripts/warsim-binary.sh
binary=$warsim
warsim() { "$binary" "$@"; }

# 1. Classic War: the distribution and the survival curve, in rounds and at 2 s a round.
warsim run --games 1e6 --seed 2026 -q --seconds-per-round 2 \
  --plot "$out/classic.svg" --summary "$out/classic-summary.csv" \
  --histogram "$out/classic-lengths.csv" > "$out/classic.txt"

# 2. Every preset with a deck to play, side by side (fixed-rounds plays 26 rounds always).
warsim sweep --rules classic,war-card-game,game-of-war,war-simulator,cards-war \
  --games 1e5 --seed 2026 -q --csv "$out/presets.csv" --plot "$out/presets.svg" > "$out/presets.txt"

# 3. One setting at a time, on classic's rules: face-down cards, pickup order, spoils, players.
warsim sweep --face-down 0..4 --games 1e5 --seed 2026 -q \
  --csv "$out/face-down.csv" --plot "$out/face-down.svg" > "$out/face-down.txt"
warsim sweep --pickup table,winner-first,loser-first,seats,reverse-seats,shuffled \
  --games 1e5 --seed 2026 -q --csv "$out/pickup.csv" --plot "$out/pickup.svg" > "$out/pickup.txt"
warsim sweep --spoils under-pile,heap --pickup table,shuffled --games 1e5 --seed 2026 -q \
  --csv "$out/spoils.csv" --plot "$out/spoils.svg" > "$out/spoils.txt"
warsim sweep --players 2..8 --games 1e5 --seed 2026 -q --csv "$out/players.csv" \
  --seats "$out/players-seats.csv" --plot "$out/players.svg" > "$out/players.txt"

# 4. Deck size: the median over ranks × suits (classic's rules), and the R study's own grid
#    (cards-war's rules, ranks 8..18 by 2 × suits 2..6; it played 200 games a cell).
warsim sweep --suits 1..8 --ranks 2..13 --games 1e4 --seed 2026 -q --skip-invalid \
  --csv "$out/deck.csv" --plot "$out/deck-heatmap.svg" > "$out/deck.txt"
warsim sweep --rules cards-war --suits 2..6 --ranks 8..18..2 --games 1e4 --seed 2026 -q \
  --csv "$out/cards-war-deck.csv" --plot "$out/cards-war-heatmap.svg" > "$out/cards-war-deck.txt"

# 5. Published figures: one face-down card with shuffled pickup (mean 441.4, median 334 over
#    10^6 games in the literature).
warsim run --pickup shuffled --games 1e6 --seed 2026 -q \
  --summary "$out/shuffled-summary.csv" > "$out/shuffled.txt"
echo "wrote $out" >&2
