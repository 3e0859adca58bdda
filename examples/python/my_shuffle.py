"""A Python project's own shuffle, and the small program that lets shuffle-audit see it.

The project deals cards with `shuffle_deck` (Durstenfeld's Fisher-Yates, written out by
hand as many projects do). `legacy_shuffle` is the naive swap it replaced, kept here to show
that the gate catches it.

shuffle-audit cannot import Python: it runs a program and reads what it prints, one deal
per line. Run as a program, this module deals COUNT shuffled decks from a generator seeded
with SEED, so the gate's `{seed}` and `{trials}` placeholders reach it:

    python3 my_shuffle.py --seed 1 --count 100000 [--shuffle legacy]
"""

import argparse
import random
import sys

DECK = ["A", "K", "Q", "J", "10"]


def shuffle_deck(cards, rng=random):
    """Shuffles `cards` in place: from the end, swap each card with one at or before it.
    (Draw for draw what `random.shuffle` does, so one seed deals the same decks.)"""
    for i in range(len(cards) - 1, 0, -1):
        j = rng.randrange(i + 1)
        cards[i], cards[j] = cards[j], cards[i]


def legacy_shuffle(cards, rng=random):
    """The naive swap: each card with one anywhere in the deck. n^n equally likely paths
    cannot fall evenly on n! orders, so some orders come out more often (biased)."""
    for i in range(len(cards)):
        j = rng.randrange(len(cards))
        cards[i], cards[j] = cards[j], cards[i]


SHUFFLES = {"deck": shuffle_deck, "legacy": legacy_shuffle}


def main(argv=None):
    parser = argparse.ArgumentParser(description="Deal shuffled decks, one per line.")
    parser.add_argument("--seed", type=int, required=True, help="seed of the generator")
    parser.add_argument("--count", type=int, required=True, help="how many decks to deal")
    parser.add_argument(
        "--shuffle", choices=sorted(SHUFFLES), default="deck", help="which shuffle deals"
    )
    args = parser.parse_args(argv)
    if args.count < 1:
        parser.error(f"--count must be at least 1, not {args.count}")
    shuffle = SHUFFLES[args.shuffle]
    rng = random.Random(args.seed)
    out = sys.stdout
    for _ in range(args.count):
        cards = DECK[:]
        shuffle(cards, rng)
        out.write(" ".join(cards) + "\n")


if __name__ == "__main__":
    main()
