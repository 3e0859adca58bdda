# Sourced by the scripts that time `serve` (bench_serve.sh, bench_serve_views.sh):
# `start_serve BINARY THREADS LOG` starts `serve` on a free loopback port in the
# background, waits for the address it prints, and sets `server` (its pid) and `url`
# (without the trailing slash). The caller's EXIT trap stops it: set that trap, naming
# "${server:-}", before calling.
start_serve() {
    "$1" serve --threads "$2" >"$3" 2>&1 &
    server=$!
    for _ in $(seq 50); do
        grep -q http "$3" 2>/dev/null && break
        sleep 0.1
    done
    url=$(grep -o 'http://[^ ]*' "$3" | head -1)
    url=${url%/}
    if [[ -z $url ]]; then
        echo "serve printed no address within 5 s: $(head -c 300 "$3")" >&2
        exit 1
    fi
}
