#!/bin/bash
# Alternating A/B: median games/s of each binary per preset, one thread.
out=/tmp/ab3.txt; : > $out
for preset in "classic" "war-card-game" "game-of-war" "war-simulator --players 4" "cards-war" "classic --players 3"; do
  for i in 1 2 3 4 5; do
    for bin in after layout; do
      g=$( [ "$preset" = "war-simulator --players 4" ] || [ "$preset" = "classic --players 3" ] && echo 3e5 || echo 2e6 )
      v=$(/tmp/warsim-$bin run --rules $preset --games $g --threads 1 -q --json - | grep games_per_second | tr -dc '0-9.')
      echo "$preset|$bin|$v" >> $out
    done
  done
done
