#!/usr/bin/env bash
# Shard start-up, state-file sizes and the merge of 1,000 states (results/2026-11-23-shards-and-merge).
# Usage: results/2026-11-23-shards-and-merge/measure.sh   (from the repository's root)
set -euo pipefail
cargo build --release >&2
w=$PWD/target/release/warsim
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT; cd "$dir"
echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2), family $(grep -m1 'cpu family' /proc/cpuinfo | cut -d: -f2 | tr -d ' '), model $(grep -m1 '^model\s' /proc/cpuinfo | cut -d: -f2 | tr -d ' ')"
s=$(date +%s.%N); for _ in $(seq 100); do "$w" run --games 3 --shard 1/7 -q --state z.json > /dev/null; done
echo "a shard of 0 games with --state: $(echo "($(date +%s.%N) - $s) * 10" | bc) ms each (100 runs)"
"$w" run --games 1e6 -q --state classic.json > /dev/null
"$w" run --games 1e4 --suits 8 --ranks 128 -q --state big4.json > /dev/null
"$w" run --games 1e5 --suits 8 --ranks 128 -q --state big5.json > /dev/null
echo "state sizes: classic 10^6 games $(stat -c %s classic.json) B; 1,024 cards 10^4 games $(stat -c %s big4.json) B, 10^5 games $(stat -c %s big5.json) B"
s=$(date +%s.%N); for k in $(seq 0 999); do "$w" run --games 1e6 --seed 1 --shard "$k/1000" --state "s$k.json" -q --threads 1 > /dev/null; done
echo "1,000 shards of 10^6 classic games: $(echo "$(date +%s.%N) - $s" | bc) s, states $(du -sh . | cut -f1)"
s=$(date +%s.%N); "$w" merge s*.json --json merged.json > /dev/null
echo "merge of the 1,000 states: $(echo "$(date +%s.%N) - $s" | bc) s"
"$w" run --games 1e6 --seed 1 -q --json whole.json > /dev/null
python3 -c "
import json; a=json.load(open('whole.json')); b=json.load(open('merged.json'))
print('keys that differ from the single run:', [k for k in a if a[k] != b[k]])"
