#!/bin/bash
# alternating old/new, per-game CSV to a regular file, 2 threads and 1 thread
for t in 1 2; do
for i in 1 2 3 4 5 6 7; do
  for b in old new; do
    rm -f /tmp/abcsv.csv
    s=$(date +%s.%N); /tmp/warsim-$b run --games 2e6 --seed 9 --threads $t --csv /tmp/abcsv.csv -q > /dev/null; e=$(date +%s.%N)
    echo "$t $b $(echo "$e - $s" | bc)"
  done
done
done
