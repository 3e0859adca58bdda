#!/usr/bin/env bash
# Simulation throughput against loops that only make the same random draws, on all
# cores (issue 2's speed goal: 3-card Fisher-Yates with every tally at >= 0.8x its
# draw-only loop). Prints each figure and the ratio, then shuffle-bag stream throughput
# in draws per second (issue 3); see benches/throughput.rs.
#
# Usage: scripts/bench.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo bench --quiet --bench throughput
