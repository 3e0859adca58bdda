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

import math
import random
import sys
from collections import defaultdict

import shuffle_audit

LEVELS = (1e-1, 1e-2, 1e-3)
FLAG_BELOW = 1e-4
MOST_SUSPICIOUS_SHARE = 0.005


def binomial_upper_tail(k, m, p):
    """P(X >= k) for X ~ Binomial(m, p), summed from k up (no cancellation)."""
    if k <= 0:
        return 1.0
    total = 0.0
    for i in range(k, m + 1):
        total += math.exp(
            math.lgamma(m + 1) - math.lgamma(i + 1) - math.lgamma(m - i + 1)
            + i * math.log(p) + (m - i) * math.log1p(-p)
        )
    return min(total, 1.0)


def sweep(n, deals, inputs):
    per_test = defaultdict(lambda: [0, [0, 0, 0], defaultdict(int)])
    verdicts = defaultdict(int)
    for seed in range(inputs):
        rng = random.Random(1_000_003 * n + 7919 * deals + seed)
        cards = list(range(n))
        dealt = []
        for _ in range(deals):
            rng.shuffle(cards)
            dealt.append(list(cards))
        result = shuffle_audit.ingest(dealt, deck=list(range(n)), threads=1)
        verdicts[result.verdict] += 1
        for test in result.tests:
            p = test.get("p_value")
            if p is None:
                continue
            entry = per_test[test["name"]]
            entry[0] += 1
            for i, level in enumerate(LEVELS):
                if p <= level:
                    entry[1][i] += 1
            entry[2][test.get("p_method", "?")] += 1
    met = True
    print(f"python ingest, {n} cards, {deals} deals ({inputs} inputs from random.shuffle)")
    for name in sorted(per_test):
        ran, counts, methods = per_test[name]
        line = f"  {name:<24} ran {ran:>5}"
        for level, count in zip(LEVELS, counts):
            flagged = binomial_upper_tail(count, ran, level) < FLAG_BELOW
            met &= not flagged
            line += f"  p<={level:<5} {100 * count / ran:6.2f} % (nominal {100 * level:g} %)" + (" HIGH" if flagged else "")
        line += "  [" + ", ".join(f"{m} {c}" for m, c in sorted(methods.items())) + "]"
        print(line)
    bad = verdicts["suspicious"] + verdicts["fail"]
    too_many = binomial_upper_tail(bad, inputs, MOST_SUSPICIOUS_SHARE) < FLAG_BELOW
    met &= not too_many
    print(
        f"  verdicts: suspicious {100 * verdicts['suspicious'] / inputs:.2f} %, fail {100 * verdicts['fail'] / inputs:.2f} % "
        f"(goal: together at most {100 * MOST_SUSPICIOUS_SHARE:g} %){' NOT MET' if too_many else ''}; "
        f"inconclusive {100 * verdicts['inconclusive'] / inputs:.1f} %"
    )
    return met


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
