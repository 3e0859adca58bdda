#!/usr/bin/env python3
"""What `shuffle_audit.assert_fair_shuffle` costs beyond calling the user's shuffle
(issue 34's goal: under 20 % for a shuffle as cheap as `random.shuffle` at 5 cards).

The baseline is what a test would spend calling the shuffle itself: a loop that makes a
fresh `list(range(5))` and calls `random.shuffle` on it, as many times as the assertion
deals by default (`deals_needed(5)`). The assertion is timed end to end: the same calls
made from the native loop, each deal checked and handed to `ingest` on another thread,
then every test, the guessing game among them. Pairs are timed back to back, and the
median of their ratios is printed, so that a busy machine moves both sides of a pair.

Also printed: the dealing alone (the part that grows with the deals), and the same at ten
times the default deals.

    python3 scripts/bench_python.py          # in an environment with the wheel installed
"""

import random
import statistics
import sys
import time

import shuffle_audit
from shuffle_audit import _native, assert_fair_shuffle, deals_needed

GOAL = 0.20
PAIRS = 11


def baseline(n, deals):
    started = time.perf_counter()
    for _ in range(deals):
        deck = list(range(n))
        random.shuffle(deck)
    return time.perf_counter() - started


def assertion(n, deals):
    started = time.perf_counter()
    assert_fair_shuffle(random.shuffle, n=n, trials=deals, seed=1)
    return time.perf_counter() - started


def dealing(n, deals):
    counter = _native.DealCounter()
    _native.deal(random.shuffle, n, deals, 1e-6, 2, "bench", "bench", counter)
    return counter.dealing_seconds


def main():
    n = 5
    print(f"shuffle_audit {shuffle_audit.__version__}, Python {sys.version.split()[0]}")
    for deals in (deals_needed(n), 10 * deals_needed(n)):
        assertion(n, deals)  # warm: the first call loads and sizes everything once
        ratios, dealing_ratios, bases = [], [], []
        for _ in range(PAIRS):
            base = baseline(n, deals)
            ratios.append(assertion(n, deals) / base - 1)
            dealing_ratios.append(dealing(n, deals) / baseline(n, deals) - 1)
            bases.append(base)
        overhead = statistics.median(ratios)
        met = "met" if overhead < GOAL else "NOT MET"
        print(
            f"{deals:>9,} deals of {n} cards: random.shuffle alone {statistics.median(bases) * 1000:7.1f} ms; "
            f"assertion overhead {overhead:+.1%} (goal under {GOAL:.0%}: {met}); "
            f"dealing alone {statistics.median(dealing_ratios):+.1%}"
        )


if __name__ == "__main__":
    main()
