# Sourced by every script that runs a built binary: sets `target_dir` to the directory
# cargo builds into, as `cargo metadata` reports it, so that CARGO_TARGET_DIR (common in
# CI caches) and a `build.target-dir` in a cargo config are honoured, and `release_bin`
# to the release `shuffle-audit` in it. Why not `./target/release`: it is only the default.
target_dir=$(cargo metadata --format-version 1 --no-deps 2>/dev/null |
    sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
if [[ -z $target_dir ]]; then
    echo "$(basename "$0"): cargo metadata did not say where cargo builds (is cargo installed?)" >&2
    exit 2
fi
release_bin=$target_dir/release/shuffle-audit
