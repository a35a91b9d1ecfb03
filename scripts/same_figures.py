"""Exits non-zero, naming the keys, unless a merged summary holds the single run's figures: every
key of the single run's `--json` (a run's summary or a sweep's JSON, whose cells are compared
one by one) equal but for how the runs went (threads, wall time, games/s). Used by the Slurm and
Kubernetes tests; standard library only.

Usage: python3 scripts/same_figures.py WHOLE.json MERGED.json
"""
import json
import sys

TIMING = ("threads", "wall_seconds", "games_per_second")


def figures(summary):
    return {k: v for k, v in summary.items() if k not in TIMING}


def differences(whole, merged):
    differ = [k for k in figures(whole) if k != "cells" and whole[k] != merged.get(k)]
    if "cells" in whole:
        cells = [figures(c) for c in whole["cells"]], [figures(c) for c in merged.get("cells", [])]
        if cells[0] != cells[1]:
            differ.append("cells")
    return differ


if __name__ == "__main__":
    whole, merged = (json.load(open(path)) for path in sys.argv[1:3])
    differ = differences(whole, merged)
    if differ:
        sys.exit(f"error: {sys.argv[2]} differs from the single run's {sys.argv[1]} in {differ}")
