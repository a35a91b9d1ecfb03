#!/bin/bash
# usage: pair2.sh RUNS GAMES_A "flags A" GAMES_B "flags B" BIN: two workloads of one binary at the same time, one per core (cores swapped each run); prints the medians (ns/round) and the median of the per-run ratios B/A
runs=$1; ga=$2; fa=$3; gb=$4; fb=$5; A=$6; B=$6
nsr() { python3 -c "import json;d=json.load(open('$1'));print(1e9/(d['games_per_second']*d['rounds_mean']))"; }
for i in $(seq $runs); do
  if [ $((i%2)) = 0 ]; then ca=0; cb=1; else ca=1; cb=0; fi
  taskset -c $ca $A run --games $ga --threads 1 -q --json /tmp/pa.json $fa >/dev/null &
  taskset -c $cb $B run --games $gb --threads 1 -q --json /tmp/pb.json $fb >/dev/null &
  wait
  echo "$(nsr /tmp/pa.json) $(nsr /tmp/pb.json)"
done | python3 -c "
import sys,statistics as st
rows=[tuple(map(float,l.split())) for l in sys.stdin]
a=[r[0] for r in rows]; b=[r[1] for r in rows]; q=[r[1]/r[0] for r in rows]
print(f'A median {st.median(a):.3f}  B median {st.median(b):.3f}  B/A median ratio {st.median(q):.3f} (min {min(q):.3f} max {max(q):.3f}, n={len(q)})')"
