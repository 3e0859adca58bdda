#!/usr/bin/env bash
# The live page (`shuffle-audit serve`) in a real browser: installs Debian's chromium when
# missing (apt-get, as root) and playwright-core (npm ci in scripts/browser: no browser
# download), starts the server on a free port, and drives the page headless with
# scripts/browser/serve_test.mjs, which saves a screenshot of each state. The server it
# started is stopped however the script ends.
#
# Usage: scripts/browser_test.sh [--docs] [SCREENSHOT_DIR]   (default: a temporary directory)
#   --docs   also write the guide's picture of the page, docs/src/serve.png (the naive swap
#            on 3 cards caught, beside its exact expectation), from the same run
set -euo pipefail
cd "$(dirname "$0")/.."

docs_png=()
if [[ ${1:-} == --docs ]]; then
    docs_png=("$PWD/docs/src/serve.png")
    shift
fi

if ! command -v chromium >/dev/null 2>&1 && [[ -z ${CHROMIUM:-} ]]; then
    echo "browser_test: installing Chromium (Debian package chromium)" >&2
    if [[ $(id -u) -eq 0 ]]; then
        apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null
    else
        sudo apt-get update -q && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null
    fi
fi
if [[ ! -d scripts/browser/node_modules/playwright-core ]]; then
    (cd scripts/browser && npm ci --no-audit --no-fund)
fi
cargo build --quiet --release
source scripts/target_dir.sh

shots=${1:-$(mktemp -d -t serve-shots.XXXXXX)}
log=$(mktemp -t serve-log.XXXXXX)
"$release_bin" serve >"$log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 100); do
    grep -q 'http://' "$log" && break
    kill -0 "$server" 2>/dev/null || { cat "$log" >&2; exit 1; }
    sleep 0.1
done
url=$(grep -o 'http://[^ ]*' "$log" | head -1)
echo "browser_test: serving at $url; screenshots to $shots"
node scripts/browser/serve_test.mjs "$url" "$shots" "${docs_png[@]}"
