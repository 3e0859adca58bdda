#!/usr/bin/env python3
"""Time the same tallying work in CPython and numpy, and compare with shuffle-audit.

Work 1: shuffle a 3-card deck with Fisher-Yates and count every order.
Work 2: shuffle a 52-card deck with Fisher-Yates and count the card x position matrix.

CPython uses random.shuffle (Fisher-Yates) and collections.Counter; numpy, when it is
installed, shuffles a batch of decks at once with Generator.permuted and counts with
bincount. shuffle-audit's figure is the trials_per_second of its own JSON output, on all
cores, for many more shuffles (its runs are too short to time at Python's sizes).

Usage: scripts/compare_python.py [--python-trials N]
"""

import argparse
import collections
import json
import os
import random
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def cpython_three_cards(trials):
    deck = [0, 1, 2]
    counts = collections.Counter()
    shuffle = random.shuffle
    for _ in range(trials):
        shuffle(deck)
        counts[tuple(deck)] += 1
    assert sum(counts.values()) == trials
    return counts


def cpython_positions(trials, n=52):
    deck = list(range(n))
    matrix = [[0] * n for _ in range(n)]
    shuffle = random.shuffle
    for _ in range(trials):
        shuffle(deck)
        for position, card in enumerate(deck):
            matrix[card][position] += 1
    return matrix


def numpy_three_cards(np, trials, batch=1_000_000):
    rng = np.random.default_rng(1)
    counts = np.zeros(27, dtype=np.int64)
    done = 0
    while done < trials:
        size = min(batch, trials - done)
        decks = rng.permuted(np.tile(np.arange(3), (size, 1)), axis=1)
        codes = decks[:, 0] * 9 + decks[:, 1] * 3 + decks[:, 2]
        counts += np.bincount(codes, minlength=27)
        done += size
    assert counts.sum() == trials
    return counts


def numpy_positions(np, trials, n=52, batch=20_000):
    rng = np.random.default_rng(1)
    matrix = np.zeros(n * n, dtype=np.int64)
    columns = np.arange(n)
    done = 0
    while done < trials:
        size = min(batch, trials - done)
        decks = rng.permuted(np.tile(np.arange(n), (size, 1)), axis=1)
        matrix += np.bincount((decks * n + columns).ravel(), minlength=n * n)
        done += size
    assert matrix.sum() == trials * n
    return matrix


def rate(work, trials):
    started = time.perf_counter()
    work(trials)
    return trials / (time.perf_counter() - started)


def shuffle_audit_rate(n, trials):
    command = ["cargo", "run", "--quiet", "--release", "--", "run", "fisher-yates",
               "--n", str(n), "--trials", str(trials), "--seed", "1", "--json", "-"]
    output = subprocess.run(command, cwd=ROOT, check=True, capture_output=True, text=True)
    return json.loads(output.stdout)["trials_per_second"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python-trials", type=int, default=1_000_000,
                        help="3-card shuffles for CPython (52-card: a fiftieth of it)")
    args = parser.parse_args()
    small = args.python_trials
    large = max(1, small // 50)

    try:
        import numpy as np
    except ImportError:
        np = None

    rows = []
    print(f"CPython {sys.version.split()[0]}"
          + (f", numpy {np.__version__}" if np else ", numpy not installed"), flush=True)
    for title, n, python_work, numpy_work, python_trials, tool_trials in [
        ("fisher-yates, 3 cards, count every order", 3,
         cpython_three_cards, numpy_three_cards, small, 200_000_000),
        ("fisher-yates, 52 cards, card x position matrix", 52,
         cpython_positions, numpy_positions, large, 4_000_000),
    ]:
        python = rate(python_work, python_trials)
        numpy_rate = rate(lambda t: numpy_work(np, t), python_trials * 10) if np else None
        tool = shuffle_audit_rate(n, tool_trials)
        rows.append((title, python, numpy_rate, tool))

    for title, python, numpy_rate, tool in rows:
        print(title)
        print(f"  CPython random.shuffle + counting:{python / 1e6:10.3f} M shuffles/s")
        if numpy_rate is not None:
            print(f"  numpy, batched:                   {numpy_rate / 1e6:10.3f} M shuffles/s")
        print(f"  shuffle-audit (all cores):        {tool / 1e6:10.3f} M shuffles/s"
              f"  ({tool / python:,.0f}x CPython"
              + (f", {tool / numpy_rate:,.0f}x numpy)" if numpy_rate else ")"))


if __name__ == "__main__":
    main()
