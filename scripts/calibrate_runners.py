"""The small-sample sweep (issue 40) through the binary's own runners, as scripts and CI
gates call them: `run` and `check`. Part of `scripts/calibrate.sh --small`; the shares
and flags are scripts/calibrate_shares.py's.

Usage:
  calibrate_runners.py run BINARY SEEDS
      `run fisher-yates` at 3 cards x 30 shuffles, 5 x 600, 13 x 65 and 52 x 20, one
      process per seed (its deals are independent by construction: no serial tests).
  calibrate_runners.py check BINARY GEN_PY WORKDIR CASES
      `check` on a suite of CASES `ingest` command cases per size (20 decks of 52 cards,
      30 of 3), each dealt by Python's random.shuffle from its own seed (GEN_PY deck N 0
      TRIALS SEED), with the gate's rule (a suspicious first run is confirmed with 4x the
      deals); the shares are the first runs'.

Exits with 1 when a share is flagged. Seeded: the same figures every run.
"""

import json
import os
import subprocess
import sys

from calibrate_shares import Cell


def sweep_run(binary, seeds):
    met = True
    for n, trials in ((3, 30), (5, 600), (13, 65), (52, 20)):
        cell = Cell(f"run fisher-yates, {n} cards, {trials} shuffles ({seeds} seeds)")
        for seed in range(1, seeds + 1):
            out = subprocess.run(
                [binary, "run", "fisher-yates", "--n", str(n), "--trials", str(trials),
                 "--seed", str(seed), "--threads", "1", "--json", "-"],
                capture_output=True, text=True, check=False)
            result = json.loads(out.stdout)["results"][0]
            cell.add(result["tests"], result["verdict"])
        met &= cell.report()
    return met


def sweep_check(binary, gen_py, workdir, cases):
    met = True
    for n, deals in ((52, 20), (3, 30)):
        deck = " ".join(str(card) for card in range(n))
        config = os.path.join(workdir, f"small-{n}.toml")
        with open(config, "w", encoding="utf-8") as suite:
            for seed in range(1, cases + 1):
                suite.write(
                    f'[[case]]\nname = "python {n} cards seed {seed}"\n'
                    f'command = ["python3", "{gen_py}", "deck", "{n}", "0", "{{trials}}", "{{seed}}"]\n'
                    f'trials = {deals}\nseed = {seed}\ndeck = "{deck}"\nexpect = "fair"\n\n')
        report = os.path.join(workdir, f"small-{n}.json")
        # Exit 1 is a case off its expectation, which the shares below judge.
        subprocess.run([binary, "check", "--config", config, "--json", report],
                       stdout=subprocess.DEVNULL, check=False)
        with open(report, encoding="utf-8") as text:
            suite_cases = json.load(text)["cases"]
        cell = Cell(f"check, {len(suite_cases)} ingest cases of {deals} decks of {n} cards")
        for case in suite_cases:
            cell.add(case["first"]["tests"], case["first"]["verdict"])
        confirmed = sum(1 for case in suite_cases
                        if case["confirmation"] and case["confirmation"]["verdict"] in ("fail", "suspicious"))
        met &= cell.report("first runs", f"; confirmations not passing: {confirmed}")
    return met


def main(argv):
    if len(argv) == 4 and argv[1] == "run":
        met = sweep_run(argv[2], int(argv[3]))
    elif len(argv) == 6 and argv[1] == "check":
        met = sweep_check(argv[2], argv[3], argv[4], int(argv[5]))
    else:
        print(__doc__, file=sys.stderr)
        return 2
    print(f"goals: {'met' if met else 'NOT met'}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
