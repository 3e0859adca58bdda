"""Shares of small p-values and of alarming verdicts over fair inputs: the bookkeeping of
the small-sample sweep (issue 40), shared by scripts/calibrate_python.py (the Python
module's ingest) and scripts/calibrate_runners.py (the binary's run and check).

A cell is a set of fair inputs of one size. For each test that ran, the share of its
p-values at or below 1e-1, 1e-2 and 1e-3 is printed beside the nominal rate, with how
they were computed, and flagged HIGH where the count is above nominal beyond binomial
noise (P(Binomial(M, level) >= count) < 1e-4). The verdicts' line flags a cell whose
share of suspicious-or-worse verdicts is above 0.5 % beyond noise in the same way. The
same rules as examples/calibrate_small.rs, which sweeps ingest in-process.
"""

import math
from collections import defaultdict

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


class Cell:
    """The tests and verdicts of one cell's fair inputs."""

    def __init__(self, title):
        self.title = title
        self.per_test = defaultdict(lambda: [0, [0, 0, 0], defaultdict(int)])
        self.verdicts = defaultdict(int)

    def add(self, tests, verdict):
        """One input's tests (JSON-like dicts with `name`, `p_value`, `p_method`) and verdict."""
        self.verdicts[verdict] += 1
        for test in tests:
            p = test.get("p_value")
            if p is None:
                continue
            ran, counts, methods = self.per_test[test["name"]]
            self.per_test[test["name"]][0] = ran + 1
            for i, level in enumerate(LEVELS):
                if p <= level:
                    counts[i] += 1
            methods[test.get("p_method", "?")] += 1

    def report(self, verdicts_label="verdicts", extra=""):
        """Prints the cell; True when no share is flagged."""
        met = True
        print(self.title)
        for name in sorted(self.per_test):
            ran, counts, methods = self.per_test[name]
            line = f"  {name:<24} ran {ran:>5}"
            for level, count in zip(LEVELS, counts):
                flagged = binomial_upper_tail(count, ran, level) < FLAG_BELOW
                met &= not flagged
                line += f"  p<={level:<5} {100 * count / ran:6.2f} % (nominal {100 * level:g} %)"
                line += " HIGH" if flagged else ""
            line += "  [" + ", ".join(f"{method} {count}" for method, count in sorted(methods.items())) + "]"
            print(line)
        inputs = sum(self.verdicts.values())
        bad = self.verdicts["suspicious"] + self.verdicts["fail"]
        too_many = binomial_upper_tail(bad, inputs, MOST_SUSPICIOUS_SHARE) < FLAG_BELOW
        met &= not too_many
        print(
            f"  {verdicts_label}: suspicious {100 * self.verdicts['suspicious'] / inputs:.2f} %, "
            f"fail {100 * self.verdicts['fail'] / inputs:.2f} % "
            f"(goal: together at most {100 * MOST_SUSPICIOUS_SHARE:g} %){' NOT MET' if too_many else ''}; "
            f"inconclusive {100 * self.verdicts['inconclusive'] / inputs:.1f} %{extra}"
        )
        return met
