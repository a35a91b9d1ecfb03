#!/bin/bash
out=/tmp/ab2.txt; : > $out
for i in 1 2 3 4 5 6 7; do
  for bin in before after; do
    v=$(/tmp/warsim-$bin run --games 1e7 --threads 2 -q --json - | grep games_per_second | tr -dc '0-9.')
    echo "classic 2 threads|$bin|$v" >> $out
    v=$(/tmp/warsim-$bin run --rules war-card-game --games 3e6 --threads 1 -q --csv /tmp/ab-$bin.csv --json - | grep games_per_second | tr -dc '0-9.')
    echo "war-card-game + CSV 1 thread|$bin|$v" >> $out
    v=$(/tmp/warsim-$bin run --rules war-card-game --games 6e6 --threads 2 -q --csv /tmp/ab-$bin.csv --json - | grep games_per_second | tr -dc '0-9.')
    echo "war-card-game + CSV 2 threads|$bin|$v" >> $out
  done
done
rm -f /tmp/ab-*.csv
