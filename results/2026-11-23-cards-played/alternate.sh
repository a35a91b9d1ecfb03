#!/usr/bin/env bash
# Wall time of two warsim binaries on the same runs, alternating in one sitting: OLD NEW [ROUNDS].
# Prints each run's median games/s and the ratio new/old.
set -euo pipefail
old=$1 new=$2 rounds=${3:-5}
runs=(
  "classic, 1 thread|--threads 1 --games 2e6"
  "classic, 2 threads, --csv|--games 4e6 --csv /dev/null"
  "war-simulator, 1 thread|--rules war-simulator --threads 1 --games 5e5"
)
seconds() { local s; s=$(date +%s.%N); "$@" > /dev/null; echo "$(date +%s.%N) - $s" | bc; }
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
printf '%-34s %10s %10s %8s\n' run old_s new_s new/old
for entry in "${runs[@]}"; do
  label=${entry%%|*}; args=${entry#*|}
  a=(); b=()
  for _ in $(seq "$rounds"); do
    # shellcheck disable=SC2086
    a+=("$(seconds "$old" run -q --seed 5 $args)")
    # shellcheck disable=SC2086
    b+=("$(seconds "$new" run -q --seed 5 $args)")
  done
  ma=$(median "${a[@]}"); mb=$(median "${b[@]}")
  printf '%-34s %10.3f %10.3f %8.3f\n' "$label" "$ma" "$mb" "$(echo "$mb / $ma" | bc -l)"
done
