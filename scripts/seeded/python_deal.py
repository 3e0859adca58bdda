#!/usr/bin/env python3
"""python_deal.py SEED N DEALS: DEALS deals of the cards 1..N by CPython's own
`random.shuffle`, after `random.seed(SEED)`, each on a fresh list, one line each.

The dealer of `seeds recover --runtime python`'s fixtures (tests/fixtures/recover/python-*):
written as a program that deals cards writes it, so that the deals are CPython's, not our
reading of its source.
"""
import random
import sys

seed, n, deals = (int(arg) for arg in sys.argv[1:4])
random.seed(seed)
for _ in range(deals):
    deck = list(range(1, n + 1))
    random.shuffle(deck)
    print(" ".join(map(str, deck)))
