#!/bin/bash
# usage: ab.sh RUNS GAMES "flags" BIN...
runs=$1; games=$2; flags=$3; shift 3
for i in $(seq $runs); do
  for b in "$@"; do
    $b run --games $games --threads 1 -q --json /tmp/ab.json $flags >/dev/null
    python3 -c "
import json;d=json.load(open('/tmp/ab.json'));print('$b', round(1e9/(d['games_per_second']*d['rounds_mean']),3))"
  done
done | awk '{v[$1]=v[$1]" "$2} END {for (b in v) print b, v[b]}' | while read b rest; do echo "$b $(echo $rest | tr ' ' '\n' | sort -n | awk '{a[NR]=$1} END{print "median", a[int((NR+1)/2)], "all:", a[1], a[NR]}')"; done
