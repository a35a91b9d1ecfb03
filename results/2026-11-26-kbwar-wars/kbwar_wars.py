"""kbWar's turn (kevinabrandon/kbWar, kbWar/kbWarGame.cs: NewTurn, ThrowDown, UpdateCounters),
re-implemented in Python from reading that code, with the winning cards shuffled every turn as
its published million-game run does, to count a game's wars both ways:

- as kbWar counts them: `recursionCount`, raised only when two or more tied players still hold
  cards and go on into the war;
- as warsim counts them (`wars`): every tie of the top card, including the tie that ends a game
  because the loser has no card left to go on with.

    python3 kbwar_wars.py SEED GAMES
"""

import random
import sys
from collections import deque


def play(rng: random.Random, counts: dict) -> None:
    deck = [rank for rank in range(2, 15) for _ in range(4)]
    rng.shuffle(deck)
    hands = [deque(), deque()]
    for i, card in enumerate(deck):  # Deal(): one at a time, AddToTop
        hands[i % 2].appendleft(card)
    turns = 0
    while True:
        thrown = [[], []]
        playing = [p for p in (0, 1) if hands[p]]
        recursions = 0
        while True:  # ThrowDown
            for p in playing:
                thrown[p].append(hands[p].popleft())
            best = max(thrown[p][-1] for p in playing)
            winners = [p for p in playing if thrown[p][-1] == best]
            if len(winners) == 1:
                break
            counts["ties"] += 1
            ready = [p for p in winners if hands[p]]
            for p in ready:  # up to 3 face down, keeping one card to throw face up
                for _ in range(min(len(hands[p]), 4) - 1):
                    thrown[p].append(hands[p].popleft())
            if not ready:  # both out: they split the cards
                break
            if len(ready) == 1:  # the other has no card left: no recursion, no war counted
                winners = ready
                counts["ended_on_a_tie"] += 1
                break
            recursions += 1
            playing = ready
        won = thrown[0] + thrown[1]
        rng.shuffle(won)
        for i, card in enumerate(won):
            hands[winners[i % len(winners)]].append(card)
        turns += 1
        counts["kbwar_wars"] += recursions
        if 1 <= recursions <= 3:
            counts[("single", "double", "triple")[recursions - 1]] += 1
        if 52 in (len(hands[0]), len(hands[1])) or turns > 20000:
            counts["turns"] += turns
            return


def main(seed: int, games: int) -> None:
    rng = random.Random(seed)
    counts = dict.fromkeys(
        ["turns", "ties", "kbwar_wars", "ended_on_a_tie", "single", "double", "triple"], 0
    )
    for _ in range(games):
        play(rng, counts)
    print(f"games {games:,} (seed {seed})")
    for key, total in counts.items():
        print(f"  {key:15} {total / games:.4f} a game")


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]))
