#!/usr/bin/env bash
# Two warsim binaries alternating, 7 pairs: games/s from wall time (start-up counted) for the
# headline's rows. Usage: headline-pairs.sh OLD NEW > headline-pairs.txt
# (here OLD was d2c76ea, the 2026-11-24 headline's revision, and NEW 6c75cc1, both release).
set -euo pipefail
old=${1:?usage: headline-pairs.sh OLD NEW}
new=${2:?usage: headline-pairs.sh OLD NEW}
works=("wcg-csv|--rules war-card-game --games 1e6 --threads 1 --csv /dev/null"
       "classic-1|--games 1e6 --threads 1"
       "classic-2|--games 2e6 --threads 2"
       "warsim2p|--rules war-simulator --games 1e6 --threads 1"
       "warsim4p|--rules war-simulator --players 4 --games 1e6 --threads 1")
for pair in 1 2 3 4 5 6 7; do
  for w in "${works[@]}"; do
    label=${w%%|*} flags=${w#*|}
    games=$(grep -o -- '--games [0-9e]*' <<<"$flags" | awk '{print $2}')
    for b in old new; do
      s=$(date +%s.%N)
      # shellcheck disable=SC2086 # the flags are words
      "${!b}" run $flags -q > /dev/null
      e=$(date +%s.%N)
      echo "$pair $label $b $(awk -v g="$games" -v s="$s" -v e="$e" 'BEGIN { printf "%.0f", g / (e - s) }')"
    done
  done
done
