#!/bin/bash
# Alternates two warsim binaries (OLD, NEW) on two enumerations, printing wall seconds:
# classic 4 × 4 on two threads (no cycles) and French bataille 1 × 10 on one (96 cycles,
# most deals loop). Usage: OLD=path NEW=path ab.sh PAIRS
pairs=${1:-6}
bataille=(--face-down 0 --pickup natural --war-shortage end-game)
for i in $(seq 1 "$pairs"); do
  for b in OLD NEW; do
    bin=${!b}
    s=$(date +%s.%N); "$bin" enumerate --suits 4 --ranks 4 -q > /dev/null; e=$(date +%s.%N)
    echo "4x4 $b $(echo "$e - $s" | bc)"
    s=$(date +%s.%N); "$bin" enumerate --suits 1 --ranks 10 "${bataille[@]}" --threads 1 -q > /dev/null; e=$(date +%s.%N)
    echo "1x10 $b $(echo "$e - $s" | bc)"
  done
done
