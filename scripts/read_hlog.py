# /// script
# requires-python = ">=3.9"
# dependencies = ["hdrhistogram>=0.10"]
# ///
"""Reads a warsim `--hdr` log with HdrHistogram's own Python reader and checks it against the
same run's `--histogram` CSV: every interval's tag, total and quantiles, and the count of every
length below 2,048 rounds (exact at 3 significant digits). A sweep's log holds one interval per
cell, checked against the rows of that cell. Given a run's `--json` summary too, its tag is
checked against it: every `key=value` the summary's, `capped` its capped games, `cycle` its
cycling and abandoned ones.

    warsim run --games 1e5 --hdr lengths.hlog --histogram lengths.csv --json summary.json -q
    uv run scripts/read_hlog.py lengths.hlog lengths.csv summary.json  # or: pip install hdrhistogram
    warsim sweep --players 2..4 --games 1e4 --hdr cells.hlog --histogram cells.csv -q
    uv run scripts/read_hlog.py cells.hlog cells.csv

Exits 1 on any disagreement.
"""

import csv
import json
import sys

from hdrh.histogram import HdrHistogram
from hdrh.log import HistogramLogReader


def tag_disagreements(tag: str, summary: dict) -> list:
    """The tag's `key=value` pairs that the run's summary does not have."""
    expected = {key: value for key, value in summary.items()}
    expected["capped"] = summary["capped"]
    expected["cycle"] = summary["cycle"] + summary["abandoned"]
    text = lambda value: str(value).lower() if isinstance(value, bool) else str(value)
    pairs = [pair.split("=", 1) for pair in tag.split(";")]
    return [f"tag {key}={value}, summary {expected.get(key)!r}" for key, value in pairs
            if key not in expected or text(expected[key]) != value]


def main(log_path: str, csv_path: str, summary_path: str = None) -> int:
    cells = {}  # cell (0 for a run) -> {rounds: games}
    with open(csv_path, newline="") as f:
        for row in csv.DictReader(f):
            cell = int(row.get("cell", 0))
            cells.setdefault(cell, {})[int(row["rounds"])] = int(row["games"])
    longest = max((max(c) for c in cells.values() if c), default=2)
    reference = HdrHistogram(1, max(2, longest), 3)
    reader = HistogramLogReader(log_path, reference)
    intervals = 0
    failures = 0
    while True:
        histogram = reader.get_next_interval_histogram()
        if histogram is None:
            break
        exact = cells.get(intervals, {})
        intervals += 1
        tag = histogram.get_tag()
        total = histogram.get_total_count()
        print(f"interval {intervals}: {total} finished games, tag {tag}")
        print(
            "  p50 {} p90 {} p99 {}".format(
                *(histogram.get_value_at_percentile(p) for p in (50, 90, 99))
            )
        )
        if total != sum(exact.values()):
            print(f"  total {total} != {sum(exact.values())} in {csv_path}")
            failures += 1
        for rounds, games in exact.items():
            if rounds < 2048 and histogram.get_count_at_value(rounds) != games:
                print(f"  {rounds} rounds: {histogram.get_count_at_value(rounds)} != {games}")
                failures += 1
        if summary_path is not None:
            for disagreement in tag_disagreements(tag, json.load(open(summary_path))):
                print(f"  {disagreement}")
                failures += 1
    reader.close()
    if intervals != max(1, len(cells)):
        print(f"{intervals} intervals, expected one per run or cell ({len(cells)})")
        failures += 1
    print("agrees" if failures == 0 else f"{failures} disagreements")
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
