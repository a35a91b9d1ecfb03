#!/usr/bin/env bash
# The A/B of 2026-11-29: `old` built from 38e94f1, `new` from d8a104f (release), alternating.
# Run from a folder holding both binaries; writes run.txt, en.txt and en2.txt (seconds).
set -euo pipefail
for i in 1 2 3 4 5; do for b in old new; do
  rm -f g.csv s.json s.json.lock
  ./$b run --games 2e7 --threads 2 --csv g.csv --state s.json --checkpoint-every 1h -q | awk -v b=$b '/^time/ {print b, $2}'
done; done > run.txt
rm -f g.csv s.json
for i in 1 2 3 4 5; do for b in old new; do
  ./$b enumerate --suits 4 --ranks 4 --threads 2 -q | awk -v b=$b '/^time/ {print b, $2}'
done; done > en.txt
for i in $(seq 1 10); do for b in new old; do
  ./$b enumerate --suits 4 --ranks 4 --threads 2 -q | awk -v b=$b '/^time/ {print b, $2}'
done; done > en2.txt
