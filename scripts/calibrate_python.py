"""The small-sample calibration sweep through the Python module (issue 40).

Fair deals from Python's own ``random.shuffle`` (one ``random.Random(seed)`` per input),
audited by ``shuffle_audit.ingest`` in this process, as a notebook or a pytest would. For
each cell (deck size, deals) prints every test's share of p-values at or below 1e-1, 1e-2
and 1e-3 beside the nominal rate, how the p-values were computed, and the share of
suspicious and failing verdicts; flags a share above nominal beyond binomial noise
(P(Binomial(M, level) >= count) < 1e-4) and a cell whose suspicious-or-worse share is
above 0.5 % beyond noise, and exits with 1 when any is flagged.

Usage: python3 scripts/calibrate_python.py [INPUTS] [N:DEALS[:INPUTS] ...]
(default 1000 inputs; cells 3:30, 5:20, 8:20, 13:20, 52:20). Run by scripts/calibrate.sh
--small where the module is installed, and by scripts/wheel_test.sh in the wheel's venv
(lean). Decks of 8 or more cards take about 0.3 s each (ingest's predictability check).
"""

import random
import sys

import shuffle_audit

from calibrate_shares import Cell


def sweep(n, deals, inputs):
    cell = Cell(f"python ingest, {n} cards, {deals} deals ({inputs} inputs from random.shuffle)")
    for seed in range(inputs):
        rng = random.Random(1_000_003 * n + 7919 * deals + seed)
        cards = list(range(n))
        dealt = []
        for _ in range(deals):
            rng.shuffle(cards)
            dealt.append(list(cards))
        # As a notebook calls it: no deck, so the first deal fixes it (the reference).
        result = shuffle_audit.ingest(dealt, threads=1)
        cell.add(result.tests, result.verdict)
    return cell.report()


def main(argv):
    inputs = int(argv[1]) if len(argv) > 1 else 1000
    cells = argv[2:] or ["3:30", "5:20", "8:20", "13:20", "52:20"]
    met = True
    for cell in cells:
        parts = [int(part) for part in cell.split(":")]
        n, deals = parts[0], parts[1]
        met &= sweep(n, deals, parts[2] if len(parts) > 2 else inputs)
    print(f"goals: {'met' if met else 'NOT met'}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
