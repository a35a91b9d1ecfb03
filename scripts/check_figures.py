# /// script
# requires-python = ">=3.9"
# dependencies = ["numpy>=1.24", "scipy>=1.11", "pandas>=2", "pyarrow>=14"]
# ///
"""An independent check of warsim's figures: recomputes every figure of a summary from the
per-game rows with numpy, scipy and pandas (not warsim's code), and compares.

    check_figures.py run DIR     # DIR: games.csv and summary.json (a run's or a merge's);
                                 # histogram.csv, games.parquet, summary.csv when present
    check_figures.py sweep DIR   # DIR: games.csv, sweep.json, seats.csv, histogram.csv and
                                 # games.parquet of one `warsim sweep`

Checked: outcome counts and shares, decided_by counts, wins by seat, the 95% Wilson intervals
of the outcomes' and the seats' shares (scipy's binomtest), mean, sd, se, min and max of the
finished games, every quantile (nearest rank, capped games after the finished ones, cycles
last), the intervals of the median, p90, p99 and p99.9 (binomial order statistics, scipy's
binom), cards laid, wars per game and per finished game with their sd and se, the histogram's rows, the Parquet
file's rows and the summary CSV against the JSON. Prints one line per check and exits 1 if any
figure differs. Run by scripts/check-figures.sh.
"""

import csv
import json
import math
import os
import sys
from fractions import Fraction

import numpy as np
import pandas as pd
from scipy.stats import binom, binomtest

QUANTILES = [("p1", 1_000), ("p5", 5_000), ("p10", 10_000), ("p25", 25_000), ("p50", 50_000),
             ("p75", 75_000), ("p90", 90_000), ("p95", 95_000), ("p99", 99_000),
             ("p999", 99_900)]
INTERVALS = [("p50", 50_000), ("p90", 90_000), ("p99", 99_000), ("p999", 99_900)]
TIMINGS = ("threads", "wall_seconds", "games_per_second")


def read_games(path):
    return pd.read_csv(path, dtype={"seed": "uint64", "winner": "Int64", "outcome": "string",
                                    "decided_by": "string"},
                       keep_default_na=False, na_values={"winner": [""]})


def least_past_tail(n, p):
    """The least c with P(B <= c) > 2.5%, B ~ Bin(n, p)."""
    c = max(0, int(binom.ppf(0.025, n, p)))
    while c > 0 and binom.cdf(c - 1, n, p) > 0.025:
        c -= 1
    while binom.cdf(c, n, p) <= 0.025:
        c += 1
    return c


def check_summary(games, summary, histogram=None):
    """The differences between `summary` and the figures of `games`, as text."""
    errors = []

    def same(key, expected, tolerance=1e-12):
        got = summary[key]
        if expected is None or got is None:
            if expected is not None or got is not None:
                errors.append(f"{key}: {got!r}, recomputed {expected!r}")
        elif isinstance(expected, float) or isinstance(got, float):
            if not math.isclose(float(got), float(expected), rel_tol=tolerance, abs_tol=tolerance):
                errors.append(f"{key}: {got!r}, recomputed {expected!r}")
        elif got != expected:
            errors.append(f"{key}: {got!r}, recomputed {expected!r}")

    n = len(games)
    same("games", n)
    def same_share(prefix, share_key, count):
        """A count's share of the games and its 95% Wilson interval (none of no games)."""
        keys = [f"{prefix}_{key}" for key in [share_key, "ci95_low", "ci95_high"]]
        if n == 0:
            for key in keys:
                same(key, None)
            return
        interval = binomtest(count, n).proportion_ci(0.95, method="wilson")
        same(keys[0], count / n)
        same(keys[1], max(0.0, interval.low), 1e-9)
        same(keys[2], min(1.0, interval.high), 1e-9)

    outcomes = games["outcome"].value_counts().to_dict()
    for outcome in ["win", "draw", "capped", "cycle", "abandoned"]:
        count = int(outcomes.get(outcome, 0))
        same(outcome, count)
        same_share(outcome, "share", count)
    finished = games[games["outcome"].isin(["win", "draw"])]
    same("finished", len(finished))
    decided = games["decided_by"].value_counts().to_dict()
    for by in ["cards", "cap", "sudden_death", "short_tie", "score"]:
        same(f"win_by_{by}", int(decided.get(by, 0)))
    for seat in range(1, summary["players"] + 1):
        wins = int((games["winner"] == seat).sum())
        same(f"seat{seat}_wins", wins)
        same_share(f"seat{seat}", "win_share", wins)
    rounds = np.sort(finished["rounds"].to_numpy(dtype=np.int64))
    k = len(rounds)
    same("rounds_mean", float(rounds.mean()) if k else None)
    same("rounds_sd", float(rounds.std(ddof=1)) if k > 1 else None, 1e-9)
    same("rounds_se", float(rounds.std(ddof=1) / math.sqrt(k)) if k > 1 else None, 1e-9)
    same("rounds_min", int(rounds[0]) if k else None)
    same("rounds_max", int(rounds[-1]) if k else None)
    same("cards_played_mean", float(finished["cards_played"].mean()) if k else None)
    cards = finished["cards_played"].to_numpy(dtype=np.float64)
    same("cards_played_sd", float(cards.std(ddof=1)) if k > 1 else None, 1e-9)
    same("cards_played_se", float(cards.std(ddof=1) / math.sqrt(k)) if k > 1 else None, 1e-9)
    same("wars_per_game", float(games["wars"].mean()) if n else None)
    wars = games["wars"].to_numpy(dtype=np.float64)
    same("wars_per_game_sd", float(wars.std(ddof=1)) if n > 1 else None, 1e-9)
    same("wars_per_game_se", float(wars.std(ddof=1) / math.sqrt(n)) if n > 1 else None, 1e-9)
    ties = finished["wars"].to_numpy(dtype=np.float64)
    same("wars_per_finished_game", float(ties.mean()) if k else None, 1e-12)
    same("wars_per_finished_game_sd", float(ties.std(ddof=1)) if k > 1 else None, 1e-9)
    same("wars_per_finished_game_se",
         float(ties.std(ddof=1) / math.sqrt(k)) if k > 1 else None, 1e-9)

    def ranked(rank):  # the rank-th shortest game (1-based), None among the censored ones
        return int(rounds[rank - 1]) if rank <= k else None

    for name, parts in QUANTILES:
        rank = max(1, min(n, math.ceil(Fraction(parts, 100_000) * n)))
        same(f"rounds_{name}", ranked(rank) if n else None)
    for name, parts in INTERVALS:
        # X(l) to X(u): l the largest with P(B < l) <= 2.5%, u the smallest with P(B >= u) <=
        # 2.5%, B ~ Bin(n, p); n - B ~ Bin(n, 1 - p).
        low = high = None
        if n:
            l = least_past_tail(n, parts / 100_000)
            u = n + 1 - least_past_tail(n, (100_000 - parts) / 100_000)
            if l >= 1 and u <= n:
                low, high = ranked(l), ranked(u)
        same(f"rounds_{name}_ci95_low", low)
        same(f"rounds_{name}_ci95_high", high)
    if histogram is not None:
        counts = finished["rounds"].value_counts().sort_index()
        if len(histogram) != len(counts):
            errors.append(f"histogram: {len(histogram)} rows, recomputed {len(counts)}")
        ended = 0
        for row, (length, count) in zip(histogram, counts.items()):
            ended += count
            expected = [length, count, count / n, ended / n, (n - ended) / n]
            got = [int(row["rounds"]), int(row["games"]), float(row["share"]),
                   float(row["cumulative"]), float(row["survival"])]
            if not all(math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-15)
                       for a, b in zip(expected, got)):
                errors.append(f"histogram at {length} rounds: {got}, recomputed {expected}")
                break
    return errors


def same_rows(games, path):
    """Whether the Parquet file at `path` holds the rows of `games`."""
    table = pd.read_parquet(path, dtype_backend="numpy_nullable")
    as_text = lambda frame, column: frame[column].astype("string").fillna("").tolist()
    return list(table.columns) == list(games.columns) and all(
        as_text(games, c) == as_text(table, c) for c in games.columns)


def check_run(folder):
    path = lambda name: os.path.join(folder, name)
    games = read_games(path("games.csv"))
    summary = json.load(open(path("summary.json")))
    histogram = (list(csv.DictReader(open(path("histogram.csv"))))
                 if os.path.exists(path("histogram.csv")) else None)
    errors = check_summary(games, summary, histogram)
    if os.path.exists(path("games.parquet")) and not same_rows(games, path("games.parquet")):
        errors.append("games.parquet: rows differ from games.csv")
    if os.path.exists(path("summary.csv")):
        keys, values = list(csv.reader(open(path("summary.csv"))))
        if keys != list(summary):
            errors.append("summary.csv: keys differ from summary.json")
        for key, text in zip(keys, values):
            value = summary[key]
            if key in TIMINGS:
                continue
            expected = ("" if value is None else str(value).lower() if isinstance(value, bool)
                        else repr(value) if isinstance(value, float) else str(value))
            if text != expected and not (isinstance(value, float) and float(text) == value):
                errors.append(f"summary.csv {key}: {text!r}, summary.json {value!r}")
    return errors


def check_sweep(folder):
    path = lambda name: os.path.join(folder, name)
    sweep = json.load(open(path("sweep.json")))
    games = read_games(path("games.csv"))
    seats = pd.read_csv(path("seats.csv"))
    histogram = list(csv.DictReader(open(path("histogram.csv"))))
    errors = []
    if os.path.exists(path("games.parquet")) and not same_rows(games, path("games.parquet")):
        errors.append("games.parquet: rows differ from games.csv")
    own = [c for c in games.columns if c not in ["cell"] + sweep["swept"]]
    for cell in sweep["cells"]:
        index = cell["cell"]
        summary = dict(cell)
        for _, row in seats[seats["cell"] == index].iterrows():
            seat = int(row["seat"])
            summary[f"seat{seat}_wins"] = int(row["wins"])
            for key in ["win_share", "ci95_low", "ci95_high"]:
                summary[f"seat{seat}_{key}"] = None if pd.isna(row[key]) else float(row[key])
        rows = [r for r in histogram if int(r["cell"]) == index]
        cell_games = games[games["cell"] == index][own].reset_index(drop=True)
        errors += [f"cell {index}: {e}" for e in check_summary(cell_games, summary, rows)]
    return errors


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("run", "sweep"):
        sys.exit("usage: check_figures.py run|sweep DIR")
    found = (check_run if sys.argv[1] == "run" else check_sweep)(sys.argv[2])
    print(f"{'differs' if found else 'agrees'}: {sys.argv[1]} {sys.argv[2]}")
    for error in found:
        print(f"  {error}")
    sys.exit(1 if found else 0)
