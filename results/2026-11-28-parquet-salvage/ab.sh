#!/bin/bash
# alternating old/new, per-game Parquet file to a regular file, 1 thread and 2 threads
for t in 1 2; do
for i in 1 2 3 4 5 6 7; do
  for b in old new; do
    rm -f /tmp/abpq.parquet
    s=$(date +%s.%N); /tmp/warsim-$b run --games 2e6 --seed 9 --threads $t --parquet /tmp/abpq.parquet -q > /dev/null; e=$(date +%s.%N)
    echo "$t $b $(echo "$e - $s" | bc)"
  done
done
done
