#!/usr/bin/env bash
# Renders a report as a reader sees it, to PNG files, with headless Chromium: the top of
# DIR/index.html, each result's section of the page on its own, and every chart on its
# own. Look at the pictures before committing a report: overlapping labels, colours
# that do not read, empty charts and legends that do not explain show up here and
# nowhere else.
#
#   scripts/screenshot.sh DIR [OUT]     (OUT defaults to screenshots/<name of DIR> in cargo's
#                                        target directory: scripts/target_dir.sh)
#
# Needs Chromium (Debian package `chromium`); installs it with apt-get when it is missing
# and this runs as root (or with sudo). Not part of CI.
set -euo pipefail

usage() { echo "usage: scripts/screenshot.sh DIR [OUT]" >&2; exit 2; }
[[ $# -ge 1 && $# -le 2 ]] || usage
dir=$1
[[ -f $dir/index.html ]] || { echo "screenshot.sh: $dir/index.html does not exist (write a report with --report DIR or shuffle-audit report)" >&2; exit 2; }
dir=$(cd "$dir" && pwd)
if [[ $# -eq 2 ]]; then
    out=$2
else
    # shellcheck source=scripts/target_dir.sh
    out=$(cd "$(dirname "$0")/.." && source scripts/target_dir.sh && echo "$target_dir")/screenshots/$(basename "$dir")
fi

browser=""
for candidate in chromium chromium-browser google-chrome; do
    if command -v "$candidate" >/dev/null 2>&1; then browser=$candidate; break; fi
done
if [[ -z $browser ]]; then
    echo "screenshot.sh: Chromium is missing; installing the Debian package chromium" >&2
    if [[ $(id -u) -eq 0 ]]; then
        apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium
    elif command -v sudo >/dev/null 2>&1; then
        sudo apt-get update -q && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium
    else
        echo "screenshot.sh: cannot install chromium (not root, no sudo); install it and re-run" >&2
        exit 1
    fi
    browser=chromium
fi

rm -rf "$out"
mkdir -p "$out"
shot() { # shot PNG WIDTH HEIGHT URL
    "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --force-device-scale-factor=1 \
        --screenshot="$1" --window-size="$2,$3" "$4" >/dev/null 2>&1
}

shot "$out/page-top.png" 1280 2400 "file://$dir/index.html"
# Each result's section alone (ids look like 07-sattolo). Headless Chromium does not
# paint a page scrolled to an anchor, so a copy of the report shows only the targeted
# section; the report itself is not touched.
sections=$(mktemp -d)
trap 'rm -rf "$sections"' EXIT
cp -r "$dir/." "$sections"
sed -i 's|</style>|main > *{display:none} main > :target{display:block}\n</style>|' "$sections/index.html"
grep -o '<section class="result" id="[a-z0-9-]*"' "$dir/index.html" | sed 's/.*id="\(.*\)"/\1/' |
    while read -r id; do
        shot "$out/page-$id.png" 1280 2400 "file://$sections/index.html#$id"
    done
# Every chart at its own size (plus a margin).
for svg in "$dir"/*.svg; do
    size=$(head -c 400 "$svg" | grep -o 'width="[0-9]*" height="[0-9]*"' | head -1 | tr -dc '0-9 ' || true)
    read -r width height <<<"${size:-900 700}"
    shot "$out/$(basename "${svg%.svg}").png" "$((width + 16))" "$((height + 16))" "file://$svg"
done
echo "screenshot.sh: $(ls "$out" | wc -l) PNG files in $out"
