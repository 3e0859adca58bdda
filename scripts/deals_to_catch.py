#!/usr/bin/env python3
"""How many deals each known flaw needs before the verdict is `fail`, for one build.

Usage: scripts/deals_to_catch.py BINARY [CASE...]

Issue 40 changed where p-values come from at small counts (exact and simulated laws
instead of the chi-square law read where it does not hold). A p-value that was too small
could only have caught a flaw sooner than it should; this measures whether any flaw now
needs more deals. For each biased input (catalogue shuffles through `run --seed 1`, a
clock reseed, and the orders of a deck dealt in turn through `ingest`) it tries deal
counts on a grid growing by 1.25x from 10 and prints the first one whose verdict is
`fail`. Run it with two builds (say, this one and one of an older commit built with
`git worktree` and its own CARGO_TARGET_DIR) and compare. Deterministic: fixed seeds.
"""
import itertools, json, subprocess, sys, os, tempfile
binary = sys.argv[1]
grid = sorted(set(int(round(10 * 1.25 ** i)) for i in range(0, 60)))
grid = [t for t in grid if t <= 2_000_000]

def verdict_run(args, trials):
    out = subprocess.run([binary, "run", *args, "--trials", str(trials), "--seed", "1", "--json", "-", "--threads", "2"],
                         capture_output=True, text=True)
    return json.loads(out.stdout)["results"][0]["verdict"]

def verdict_ingest(lines):
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("\n".join(lines) + "\n"); path = f.name
    out = subprocess.run([binary, "ingest", path, "--json", "-"], capture_output=True, text=True)
    os.unlink(path)
    return json.loads(out.stdout)["results"][0]["verdict"]

def in_turn(n):
    orders = [" ".join(map(str, p)) for p in itertools.permutations(range(n))]
    return lambda t: verdict_ingest([orders[i % len(orders)] for i in range(t)])

cases = {
  "naive-swap n=3": lambda t: verdict_run(["naive-swap", "--n", "3"], t),
  "naive-swap n=52": lambda t: verdict_run(["naive-swap", "--n", "52"], t),
  "sattolo n=5": lambda t: verdict_run(["sattolo", "--n", "5"], t),
  "sort-comparator-merge n=8": lambda t: verdict_run(["sort-comparator-merge", "--n", "8"], t),
  "riffles:7 n=52": lambda t: verdict_run(["riffles:7", "--n", "52"], t),
  "dealer-riffles:3 n=52": lambda t: verdict_run(["dealer-riffles:3", "--n", "52"], t),
  "clock-reseed step 1 n=4": lambda t: verdict_run(["fisher-yates", "--n", "4", "--source", "clock-reseed", "--clock-step", "1"], t),
  "orders in turn n=3 (ingest)": in_turn(3),
  "orders in turn n=4 (ingest)": in_turn(4),
}
only = sys.argv[2:]
for name, case in cases.items():
    if only and name not in only: continue
    found = None
    for t in grid:
        if case(t) == "fail":
            found = t; break
    print(f"{name}: first fail at {found}", flush=True)
