# /// script
# requires-python = ">=3.9"
# dependencies = ["pandas>=2", "pyarrow>=14", "matplotlib>=3.7"]
# ///
"""A notebook-style example: read a sweep's per-game Parquet file and draw one figure of the
study, the survival curve (share of games still going after n rounds) of every cell.

    warsim sweep --players 2..6 --games 1e5 --parquet sweep.parquet
    uv run scripts/plot_sweep.py sweep.parquet survival.png
    # or: pip install pandas pyarrow matplotlib && python scripts/plot_sweep.py sweep.parquet survival.png

Each cell's games are one group of rows; capped and cycling games have no length and stay in
the survival to the end, exactly as warsim's own --histogram counts them.
"""

import sys

import matplotlib

matplotlib.use("Agg")  # draws to a file: no display needed
import matplotlib.pyplot as plt
import pandas as pd


def survival(rounds: pd.Series, finished: pd.Series) -> pd.DataFrame:
    """Share of all games still going after n rounds, at every length a finished game had."""
    games = len(rounds)
    lengths = rounds[finished].value_counts().sort_index()
    ended = lengths.cumsum()
    return pd.DataFrame({"rounds": lengths.index, "survival": (games - ended.values) / games})


def main(path: str, figure: str) -> None:
    # numpy_nullable: winner stays a nullable integer (pandas' default makes it float, NaN)
    games = pd.read_parquet(path, dtype_backend="numpy_nullable")
    swept = [c for c in games.columns if c not in {
        "cell", "game", "seed", "rounds", "winner", "outcome", "wars", "longest_war",
        "decided_by", "cards_played"}]
    # A label names the settings that differ between cells (a flag given one value is a column
    # too, the same in every cell).
    settings = [s for s in swept if games[s].nunique() > 1]
    fig, ax = plt.subplots(figsize=(9, 5.5))
    print(f"{len(games):,} games in {games['cell'].nunique()} cells")
    for cell, rows in games.groupby("cell", sort=True):
        label = " ".join(f"{s}={rows[s].iloc[0]}" for s in settings) or f"cell {cell}"
        finished = rows["outcome"].isin(["win", "draw"])
        curve = survival(rows["rounds"], finished)
        ax.step(curve["rounds"], curve["survival"], where="post", label=label)
        # warsim's median: the shortest length by which half of all games had ended (capped and
        # cycling games rank after every finished one).
        ended = curve[curve["survival"] <= 0.5]
        median = f"{int(ended['rounds'].iloc[0])} rounds" if len(ended) else "censored"
        print(f"cell {cell} ({label}): {len(rows):,} games, median {median}")
    ax.set_yscale("log")
    ax.set_xlabel("rounds")
    ax.set_ylabel("share of games still going (log scale)")
    ax.set_title("How long does War last? Survival by cell")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=9)
    fig.tight_layout()
    fig.savefig(figure, dpi=120)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: plot_sweep.py SWEEP.parquet FIGURE.png")
    main(sys.argv[1], sys.argv[2])
