"""Pools the batches of rustwar's own runs (output.txt): the mean turns of finished games,
weighted by their number, and the indeterminate games (over 10,000 turns) as a share of the
finished games, as rustwar prints it, and of all games. The ± is the batches' standard error."""

import re
import statistics

text = open("output.txt").read()
rows = re.findall(
    r"Games \[\d+ (Shuffled|Unshuffled)\s*\]: 100,000 ([\d.]+) \(Indeterminate games: ([\d.]+)%\)",
    text,
)
for kind in ("Shuffled", "Unshuffled"):
    means = [float(m) for k, m, _ in rows if k == kind]
    shares = [float(p) for k, _, p in rows if k == kind]
    finished = [100_000 / (1 + p / 100) for p in shares]  # p = indeterminate / finished
    endless = [p / 100 * f for p, f in zip(shares, finished)]
    n = len(means)
    mean = sum(m * f for m, f in zip(means, finished)) / sum(finished)
    print(
        f"{kind}: {n} batches of 100,000; mean {mean:.2f} ± {statistics.stdev(means) / n**0.5:.2f} "
        f"turns; indeterminate {100 * sum(endless) / sum(finished):.3f}% "
        f"± {statistics.stdev(shares) / n**0.5:.3f} of the finished games, "
        f"{100 * sum(endless) / (100_000 * n):.3f}% of all"
    )
