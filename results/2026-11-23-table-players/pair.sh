#!/bin/bash
# usage: pair.sh RUNS GAMES_A "FLAGS_A" BIN_A GAMES_B "FLAGS_B" BIN_B
# Runs A and B at the same time, one per core (cores swapped every run), so both see the same
# moment of a noisy host; prints each side's median ns/round and the median of the per-run
# ratios B/A. Two binaries on one workload, or two workloads of one binary.
runs=$1; ga=$2; fa=$3; A=$4; gb=$5; fb=$6; B=$7
nsr() { python3 -c "import json;d=json.load(open('$1'));print(1e9/(d['games_per_second']*d['rounds_mean']))"; }
for i in $(seq "$runs"); do
  if [ $((i % 2)) = 0 ]; then ca=0; cb=1; else ca=1; cb=0; fi
  taskset -c $ca "$A" run --games "$ga" --threads 1 -q --json /tmp/pair-a.json $fa >/dev/null &
  taskset -c $cb "$B" run --games "$gb" --threads 1 -q --json /tmp/pair-b.json $fb >/dev/null &
  wait
  echo "$(nsr /tmp/pair-a.json) $(nsr /tmp/pair-b.json)"
done | python3 -c "
import sys, statistics as st
rows = [tuple(map(float, l.split())) for l in sys.stdin]
a = [r[0] for r in rows]; b = [r[1] for r in rows]; q = [r[1] / r[0] for r in rows]
print(f'A median {st.median(a):.3f}  B median {st.median(b):.3f}  B/A median ratio {st.median(q):.3f} (min {min(q):.3f} max {max(q):.3f}, n={len(q)})')"
