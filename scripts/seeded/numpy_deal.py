#!/usr/bin/env python3
"""python3 scripts/seeded/numpy_deal.py SEED N DEALS [shuffle|permutation]

Deals as a numpy program using the legacy global generator deals: np.random.seed(SEED)
once, then DEALS times either a fresh deck np.arange(1, N + 1) shuffled in place by
np.random.shuffle (the default), or np.random.permutation(N) + 1. Prints one deal a line,
the cards 1..N in the order the shuffle left them."""
import sys

import numpy as np

seed, n, deals = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
variant = sys.argv[4] if len(sys.argv) > 4 else "shuffle"
if variant not in ("shuffle", "permutation"):
    sys.exit(f"unknown variant {variant!r}: shuffle or permutation")
np.random.seed(seed)
for _ in range(deals):
    if variant == "shuffle":
        deck = np.arange(1, n + 1)
        np.random.shuffle(deck)
    else:
        deck = np.random.permutation(n) + 1
    print(" ".join(map(str, deck.tolist())))
