#!/usr/bin/env bash
# An independent check of warsim's figures (run by .ci/run): plays runs of every preset, runs
# whose games are capped, cycle or are abandoned, one game, an empty shard, a merge of shards, a
# sweep and a merge of a sweep's shards, and has scripts/check_figures.py recompute every figure
# of their summaries from the per-game rows with numpy, scipy and pandas, and
# scripts/read_hlog.py read each run's HdrHistogram log with HdrHistogram's own Python reader
# (its counts against the histogram CSV, its tag against the summary); and runs the README's
# notebook example, scripts/plot_sweep.py (matplotlib). Those packages come from PyPI into a
# virtual environment under target/ (made once, then reused).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/warsim-binary.sh
venv=target/check-figures-venv
if ! "$venv/bin/python" -c "import numpy, scipy, pandas, pyarrow, hdrh, matplotlib" 2> /dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q "numpy>=1.24" "scipy>=1.11" "pandas>=2" "pyarrow>=14" \
    "hdrhistogram>=0.10" "matplotlib>=3.7"
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
check() { "$venv/bin/python" scripts/check_figures.py "$@"; }

# A run's every output, in a folder of its own.
run() {
  local name=$1
  shift
  mkdir -p "$dir/$name"
  "$warsim" run -q "$@" --csv "$dir/$name/games.csv" --json "$dir/$name/summary.json" \
    --summary "$dir/$name/summary.csv" --histogram "$dir/$name/histogram.csv" \
    --parquet "$dir/$name/games.parquet" --hdr "$dir/$name/lengths.hlog" > /dev/null
  check run "$dir/$name"
  "$venv/bin/python" scripts/read_hlog.py "$dir/$name/lengths.hlog" "$dir/$name/histogram.csv" \
    "$dir/$name/summary.json" > "$dir/$name/hlog.txt" || { cat "$dir/$name/hlog.txt"; exit 1; }
  echo "agrees: hdr log $dir/$name"
}

run classic-capped --games 20001 --seed 1 --max-rounds 300 # the median's interval past 10,000
run classic-cycles --games 3000 --seed 2 --pickup seats --max-rounds 5000
run war-card-game --rules war-card-game --games 3000 --seed 3
run game-of-war --rules game-of-war --games 3000 --seed 4
run war-simulator-3 --rules war-simulator --players 3 --games 3000 --seed 5
# 10,413 games: the normal approximation put the median's interval at X(5106) to X(5308), 202 to
# 212 rounds, where the binomial distribution puts it at X(5107) to X(5307), 203 to 212
run war-simulator-10413 --rules war-simulator --games 10413 --seed 2
run abandoned --rules war-simulator-original --players 4 --suits 2 --ranks 4 --games 3000
run cards-war --rules cards-war --suits 3 --ranks 3 --games 3000 --seed 6
run fixed-rounds --rules fixed-rounds --games 3000 --seed 7
run six-players --players 6 --suits 8 --ranks 13 --games 3000 --seed 8
run one-game --games 1 --seed 9
run empty-shard --games 2 --shard 5/7

# Three shards merged: the merge's figures against the single run's rows.
mkdir -p "$dir/merged"
for k in 0 1 2; do
  "$warsim" run -q --games 5000 --seed 10 --max-rounds 400 --shard $k/3 --state "$dir/$k.state" > /dev/null
done
"$warsim" run -q --games 5000 --seed 10 --max-rounds 400 --csv "$dir/merged/games.csv" > /dev/null
"$warsim" merge "$dir"/2.state "$dir"/0.state "$dir"/1.state --json "$dir/merged/summary.json" \
  --histogram "$dir/merged/histogram.csv" > /dev/null
check run "$dir/merged"

# A sweep's tables against its rows.
mkdir -p "$dir/sweep"
"$warsim" sweep -q --players 2..4 --ranks 5,13 --max-rounds 500 --games 2000 --seed 11 \
  --games-csv "$dir/sweep/games.csv" --json "$dir/sweep/sweep.json" --seats "$dir/sweep/seats.csv" \
  --histogram "$dir/sweep/histogram.csv" --parquet "$dir/sweep/games.parquet" > /dev/null
check sweep "$dir/sweep"

# The README's notebook example, scripts/plot_sweep.py, on a sweep's Parquet file: it draws a
# figure, and the medians it prints are the sweep's (censored where warsim's is empty).
mkdir -p "$dir/notebook"
"$warsim" sweep -q --players 2,3 --pickup table,seats --max-rounds 3000 --games 2000 --seed 12 \
  --json "$dir/notebook/sweep.json" --parquet "$dir/notebook/games.parquet" > /dev/null
"$venv/bin/python" scripts/plot_sweep.py "$dir/notebook/games.parquet" \
  "$dir/notebook/survival.png" > "$dir/notebook/printed.txt"
"$venv/bin/python" - "$dir/notebook" <<'PYTHON'
import json, re, sys
folder = sys.argv[1]
cells = json.load(open(f"{folder}/sweep.json"))["cells"]
printed = re.findall(r"^cell (\d+) \((.*)\): .* median (.*)$", open(f"{folder}/printed.txt").read(), re.M)
assert len(printed) == len(cells) == 4, printed
for (cell, label, median), row in zip(printed, cells):
    wanted = "censored" if row["rounds_p50"] is None else f"{row['rounds_p50']} rounds"
    assert (int(cell), median) == (row["cell"], wanted), (cell, median, row)
    assert label == f"players={row['players']} pickup={row['pickup']}", label
assert sum(m == "censored" for _, _, m in printed) == 2, printed
with open(f"{folder}/survival.png", "rb") as figure:
    assert figure.read(8) == b"\x89PNG\r\n\x1a\n", "not a PNG"
PYTHON
echo "agrees: plot_sweep.py $dir/notebook"

# A sweep in three shards, merged: the merged tables against the shards' rows (the rows sorted
# by cell and game, as the single sweep writes them).
shards=$dir/sweep-shards
mkdir -p "$shards"
for k in 0 1 2; do
  "$warsim" sweep -q --players 2..4 --ranks 5,13 --max-rounds 500 --games 2000 --seed 11 \
    --shard $k/3 --state "$shards/state-$k.json" --games-csv "$shards/games-$k.csv" > /dev/null
done
"$warsim" merge "$shards"/state-{2,0,1}.json --json "$shards/sweep.json" \
  --seats "$shards/seats.csv" --histogram "$shards/histogram.csv" > /dev/null
{ head -n 1 "$shards/games-0.csv"; tail -q -n +2 "$shards"/games-{0,1,2}.csv | sort -t, -k1,1n -k4,4n; } \
  > "$shards/games.csv"
check sweep "$shards"
