#!/usr/bin/env bash
# Peak RSS (KB) and seconds of classic runs on two threads, with and without the per-game CSV:
# two binaries at 1e8 games, then NEW at 1e6 and 1e7 (is the peak bounded?).
# Usage: peak-rss.sh OLD NEW > peak-rss.txt
set -euo pipefail
old=${1:?usage: peak-rss.sh OLD NEW}
new=${2:?usage: peak-rss.sh OLD NEW}
t=$(mktemp)
trap 'rm -f "$t"' EXIT
one() { # NAME BINARY GAMES [CSV FLAGS...]
  local name=$1 bin=$2 games=$3
  shift 3
  /usr/bin/time -f "%M %e" -o "$t" "$bin" run --games "$games" -q "$@" > /dev/null
  echo "$name games=$games csv=$([ $# -gt 0 ] && echo "$*" || echo none) $(cat "$t")"
}
for csv in no yes; do
  flags=()
  [ $csv = yes ] && flags=(--csv /dev/null)
  one old "$old" 1e8 "${flags[@]}"
  one new "$new" 1e8 "${flags[@]}"
done
for games in 1e6 1e7; do
  one new "$new" "$games"
  one new "$new" "$games" --csv /dev/null
done
