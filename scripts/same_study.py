"""Exits non-zero, naming each file and what differs, unless a study made again (FRESH) holds
the committed study's files (STUDY) but for how the runs went: every table the same cell for
cell but the timing columns, every figure the same byte for byte, every report the same line
for line but its `time` line and thread count. Used by `scripts/how-long-does-war-last.sh
--check`; the standard library only (the timing keys are same_figures.py's).

Usage: python3 scripts/same_study.py STUDY FRESH
"""
import csv
import re
import sys
from pathlib import Path

from same_figures import TIMING  # how the runs went: the keys no two runs share


def table(path):
    with open(path, newline="") as file:
        return [{k: v for k, v in row.items() if k not in TIMING} for row in csv.DictReader(file)]


def report(path):
    lines = path.read_text().splitlines()
    return [re.sub(r"threads \d+", "threads N", line) for line in lines if not line.startswith("time ")]


def difference(kept, fresh):
    """What differs between two versions of one file, or None."""
    if kept.suffix == ".csv":
        kept_rows, fresh_rows = table(kept), table(fresh)
        if len(kept_rows) != len(fresh_rows):
            return f"{len(kept_rows)} rows, made again {len(fresh_rows)}"
        for number, (a, b) in enumerate(zip(kept_rows, fresh_rows), start=1):
            columns = [k for k in a.keys() | b.keys() if a.get(k) != b.get(k)]
            if columns:
                return f"row {number} differs in {sorted(columns)[:5]}"
        return None
    if kept.suffix == ".txt":
        kept_lines, fresh_lines = report(kept), report(fresh)
        for number, (a, b) in enumerate(zip(kept_lines, fresh_lines), start=1):
            if a != b:
                return f"line {number}: {a!r}, made again {b!r}"
        if len(kept_lines) != len(fresh_lines):
            return f"{len(kept_lines)} lines, made again {len(fresh_lines)}"
        return None
    return None if kept.read_bytes() == fresh.read_bytes() else "the bytes differ"


if __name__ == "__main__":
    study, fresh = Path(sys.argv[1]), Path(sys.argv[2])
    kept = sorted(p.name for p in study.iterdir() if p.name != "README.md")
    made = sorted(p.name for p in fresh.iterdir())
    problems = [f"{name}: not made again" for name in kept if name not in made]
    problems += [f"{name}: made, but not in {study}" for name in made if name not in kept]
    for name in (n for n in kept if n in made):
        differ = difference(study / name, fresh / name)
        if differ:
            problems.append(f"{name}: {differ}")
    if problems:
        print("\n".join(f"error: {study}/{p}" for p in problems), file=sys.stderr)
        sys.exit(
            f"error: the study made again differs from {study}: if warsim's figures or reports "
            "changed on purpose, run scripts/how-long-does-war-last.sh and check that the study's "
            "README still says what its files show"
        )
    print(f"agrees: {study} ({len(kept)} files made again)")
