#!/usr/bin/env bash
# Reruns issue 30's probes of `serve` on a shared machine against the real binary, and
# the report's panic through the page's upload: one line per case (case, expected,
# observed, ok/FAIL), exit 1 on any FAIL. Needs bash, curl and Linux's /proc; installs
# nothing; stops every server it started, however it ends. About 45 s, 20 of them the
# slow-client case (it waits out the 10 s header timeout twice).
#
# Usage: scripts/probe_serve.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/target_dir.sh
cargo build --quiet --release
bin=$release_bin

work=$(mktemp -d -t probe-serve.XXXXXX)
servers=()
cleanup() {
    for pid in "${servers[@]}"; do
        kill "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    rm -rf "$work"
}
trap cleanup EXIT

failures=0
report() { # case expected observed ok
    local verdict=ok
    [[ $4 == 1 ]] || { verdict=FAIL; failures=$((failures + 1)); }
    printf '%-44s %-30s %-34s %s\n' "$1" "$2" "$3" "$verdict"
}
printf '%-44s %-30s %-34s %s\n' case expected observed outcome

now_ms() { echo $(($(date +%s%N) / 1000000)); }
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
ticks=$(getconf CLK_TCK)
vm() { awk -v f="$2:" '$1 == f {print int($2 / 1024)}' "/proc/$1/status"; } # pid VmRSS|VmHWM (MB)

# start NAME [ARGS...]: a server; sets ${NAME}_pid, ${NAME}_url, ${NAME}_host.
start() {
    local name=$1
    shift
    "$bin" serve --threads 2 "$@" >"$work/$name.log" 2>&1 &
    local pid=$!
    servers+=("$pid")
    for _ in $(seq 100); do
        grep -qs 'http://' "$work/$name.log" && break
        sleep 0.05
    done
    local url
    url=$(grep -o 'http://[^ ]*' "$work/$name.log" | head -1)
    url=${url%/}
    [[ -n $url ]] || { echo "probe_serve: serve printed no address: $(head -c 300 "$work/$name.log")" >&2; exit 1; }
    printf -v "${name}_pid" '%s' "$pid"
    printf -v "${name}_url" '%s' "$url"
    printf -v "${name}_host" '%s' "${url#http://}"
}
start_run() { # url json -> id
    curl -s -X POST "$1/api/runs" -d "$2" | sed -n 's/.*"id":"\([0-9a-f]*\)".*/\1/p'
}
long='{"algorithm":"naive-repeated:100000","n":"2000","trials":"1000","seed":"1"}'
slow='{"algorithm":"naive-repeated:100000","n":"2000","trials":"1000","seed":"1","speed":"1000"}'
ten='{"algorithm":"fisher-yates","n":"10","trials":"1e6","seed":"1"}'

start main
url=$main_url
pid=$main_pid

# --- Stop stops: within 200 ms, inside deals of 2·10⁸ swaps, at full speed and at the
# page's slowest speeds (a slow step of 1,000 deals a second is ~100 such deals); the
# server idle after.
stop_case() { # name request
    local id watcher t0 took c0 c1
    id=$(start_run "$url" "$2")
    curl -sN "$url/api/runs/$id/events" >"$work/stop.events" &
    watcher=$!
    sleep 1.5
    t0=$(now_ms)
    curl -s -X POST "$url/api/runs/$id/stop" >/dev/null
    until grep -q '"phase":"stopped"' "$work/stop.events" || (($(now_ms) - t0 > 30000)); do sleep 0.005; done
    took=$(($(now_ms) - t0))
    wait "$watcher" 2>/dev/null || true
    c0=$(cpu_ticks "$pid"); sleep 1; c1=$(cpu_ticks "$pid")
    report "$1" "stopped within 200 ms" "stopped after ${took} ms" $((took < 200))
    report "  server CPU in the second after Stop" "< 0.1 CPU-s" "$(((c1 - c0) * 1000 / ticks)) ms" $(((c1 - c0) * 10 < ticks))
}
stop_case "Stop naive-repeated:100000, 2000 cards" "$long"
stop_case "  the same at 1000 deals a second" "$slow"

# --- A dropped stream (closed tab) ends its run within 200 ms (seen by a second page
# watching the same run), and frees its slot: four such runs no longer hold every slot.
ids=()
for _ in 1 2 3 4; do ids+=("$(start_run "$url" "$long")"); done
watchers=()
for id in "${ids[@]}"; do
    curl -sN "$url/api/runs/$id/events" >/dev/null &
    watchers+=($!)
done
curl -sN "$url/api/runs/${ids[0]}/events" >"$work/observer.events" &
observer=$!
sleep 1
full=$(curl -s -o /dev/null -w '%{http_code}' -X POST "$url/api/runs" -d "$long")
t0=$(now_ms)
kill "${watchers[0]}"
until grep -q '"phase":"stopped"' "$work/observer.events" || (($(now_ms) - t0 > 30000)); do sleep 0.005; done
took=$(($(now_ms) - t0))
wait "$observer" 2>/dev/null || true
fifth=$(start_run "$url" "$long")
report "a 5th run while 4 run" "503" "$full" $((full == 503))
report "a closed stream ends its run" "within 200 ms" "after ${took} ms" $((took < 200))
report "  then a 5th run" "started" "${fifth:+started}" $([[ -n $fifth ]] && echo 1 || echo 0)
for id in "${ids[@]:1}" "$fifth"; do curl -s -X POST "$url/api/runs/$id/stop" >/dev/null; done
for watcher in "${watchers[@]:1}"; do wait "$watcher" 2>/dev/null || true; done

# --- No cross-site reach: an <img>-style GET of a run's events is refused; ids unguessable.
id=$(start_run "$url" '{"algorithm":"fisher-yates","n":"52","trials":"1e12","seed":"1"}')
code=$(curl -s -o /dev/null -w '%{http_code}' -H 'Sec-Fetch-Site: cross-site' "$url/api/runs/$id/events")
report "cross-site GET of a run's events" "403" "$code" $((code == 403))
code=$(curl -s -o /dev/null -w '%{http_code}' -X POST -H 'Sec-Fetch-Site: same-site' "$url/api/runs/$id/stop")
report "same-site POST of Stop" "403" "$code" $((code == 403))
phase=$(curl -sN --max-time 1 "$url/api/runs/$id/events" | grep -o '"phase":"[a-z]*"' | head -1 || true)
report "  the run after those" '"phase":"running"' "$phase" $([[ $phase == '"phase":"running"' ]] && echo 1 || echo 0)
[[ $id =~ ^[0-9a-f]{32}$ ]] && ok=1 || ok=0
report "run id" "128 random bits, 32 hex digits" "${id:0:12}... (${#id} chars)" $ok
code=$(curl -s -o /dev/null -w '%{http_code}' "$url/api/runs/1/json")
report "a guessed run id (1)" "404" "$code" $((code == 404))
headers=$(curl -s -D - -o /dev/null -H 'Host: evil.example' "$url/")
grep -qi '^x-content-type-options: nosniff' <<<"$headers" && grep -qi '^x-frame-options: DENY' <<<"$headers" && ok=1 || ok=0
report "a 403's headers" "nosniff, X-Frame-Options" "$(grep -ci -e nosniff -e x-frame <<<"$headers") of 2 present" $ok

# --- --bind 0.0.0.0: the loopback names, the bound address, the machine's own, --allow-host.
start wide --bind 0.0.0.0 --allow-host classroom.example
port=${wide_host##*:}
hosts=("127.0.0.1:$port" "localhost:$port" "0.0.0.0:$port" "classroom.example:$port")
for address in $(hostname -I 2>/dev/null || true); do
    [[ $address == *.*.*.* ]] && hosts+=("$address:$port")
done
for host in "${hosts[@]}"; do
    code=$(curl -s -o /dev/null -w '%{http_code}' -H "Host: $host" "$wide_url/")
    report "--bind 0.0.0.0, Host $host" "200" "$code" $((code == 200))
done
code=$(curl -s -o /dev/null -w '%{http_code}' -H "Host: rebound.example:$port" "$wide_url/")
report "--bind 0.0.0.0, Host rebound.example" "403" "$code" $((code == 403))

# --- Bounded cost: 8 parallel GETs of a finished 10-card run's events, CPU of the server.
id=$(start_run "$url" "$ten")
curl -sN "$url/api/runs/$id/events" >/dev/null
c0=$(cpu_ticks "$pid")
getters=()
for _ in $(seq 8); do
    curl -sN "$url/api/runs/$id/events" >/dev/null &
    getters+=($!)
done
wait "${getters[@]}"
c1=$(cpu_ticks "$pid")
ms=$(((c1 - c0) * 1000 / ticks))
report "8 parallel GETs of a finished run's events" "< 1 CPU-s (was 9.2)" "${ms} CPU-ms" $((ms < 1000))

# --- JSON downloads of that run (207 MB each), four at once: the server's peak memory.
before=$(vm "$pid" VmRSS)
echo 5 >"/proc/$pid/clear_refs" 2>/dev/null || true # the peak counted from here
getters=()
for i in 1 2 3 4; do
    curl -s "$url/api/runs/$id/json" -o /dev/null -w '%{size_download}\n' >"$work/size$i" &
    getters+=($!)
done
wait "${getters[@]}"
peak=$(vm "$pid" VmHWM)
sizes=$(sort -u "$work"/size? | wc -l)
size=$(($(head -1 "$work/size1") / 1000000))
report "4 parallel JSON downloads (${size} MB each)" "peak RSS + < 300 MB (was 1.1 GB)" "${before} -> ${peak} MB" $(((peak - before) < 300 && sizes == 1 && size > 200))

# --- Parallel 63 MiB uploads: two read at a time, the others 503; the server's peak memory.
start uploads
head -n $((63 * 1048576 / 20)) < <(yes '0 1 2 3 4 5 6 7 8 9') >"$work/deals63.txt" # 63 MiB of deals
getters=()
for i in 1 2 3 4; do
    curl -s -o /dev/null -w '%{http_code}\n' -X POST --data-binary "@$work/deals63.txt" "$uploads_url/api/ingest" >"$work/code$i" &
    getters+=($!)
done
wait "${getters[@]}"
codes=$(cat "$work"/code? | sort | tr '\n' ' ')
peak=$(vm "$uploads_pid" VmHWM)
busy=$(grep -c 503 <<<"${codes// /$'\n'}" || true)
report "4 parallel 63 MiB uploads" "some 503, peak RSS < 600 MB" "${codes}peak ${peak} MB" $((busy >= 1 && peak < 600))

# --- Own shuffle: a refused 63 MiB batch is not kept; the next batch is read.
session=$(curl -s -X POST "$url/api/own?deck=0+1+2+3+4+5+6+7+8+9" | sed -n 's/.*"id":"\([0-9a-f]*\)".*/\1/p')
{ cat "$work/deals63.txt"; echo "0 1 2"; } >"$work/bad63.txt"
bad=$(curl -s -o /dev/null -w '%{http_code}' -X POST --data-binary "@$work/bad63.txt" "$url/api/own/$session/deals")
good=$(printf '1 0 2 3 4 5 6 7 8 9\n' | curl -s -o /dev/null -w '%{http_code}' -X POST --data-binary @- "$url/api/own/$session/deals")
report "own shuffle: refused 63 MiB batch, then one" "400, then 200" "$bad, then $good" $((bad == 400 && good == 200))
rm -f "$work/deals63.txt" "$work/bad63.txt"

# --- Slow clients: 300 half-sent requests are dropped after the 10 s header timeout.
fds=()
for _ in $(seq 300); do
    exec {fd}<>"/dev/tcp/127.0.0.1/${main_host##*:}"
    printf 'GET / HTTP/1.1\r\nHost: %s\r\nUser-Agent: slow' "$main_host" >&"$fd"
    fds+=("$fd")
done
t0=$(now_ms)
sleep 0.5
held=$(($(ls "/proc/$pid/fd" | wc -l)))
answered=$(curl -s -o /dev/null -w '%{http_code}' --max-time 30 "$url/api/catalogue")
waited=$(($(now_ms) - t0))
closed=0
for fd in "${fds[@]}"; do
    # The server closes each: read ends (end of file) rather than timing out.
    if timeout 30 cat <&"$fd" >/dev/null 2>&1; then closed=$((closed + 1)); fi
    exec {fd}>&-
done
all=$(($(now_ms) - t0))
report "300 half-sent requests" "all closed in < 28 s (were held)" "$closed closed after $((all / 1000)) s" $((closed == 300 && all < 28000))
report "  open files of the server meanwhile" "<= 256 connections + a few" "$held" $((held <= 280))
report "  a whole request meanwhile" "200 within 15 s" "$answered after $((waited / 1000)) s" $((answered == 200 && waited < 15000))

# --- The report's panic (issue 30, section 1) through the page's upload: 3 deals of 12 cards.
printf 'A B C D E F G H I J K L\nL K J I H G F E D C B A\nB A C D E F G H I J K L\n' >"$work/three12.txt"
code=$(curl -s -o "$work/three12.out" -w '%{http_code}' -X POST --data-binary "@$work/three12.txt" "$url/api/ingest")
report "/api/ingest of 3 deals of 12 cards" "200 (no panic)" "$code $(head -c 60 "$work/three12.out" | tr -d '\n')" $((code == 200))
id=$(start_run "$url" '{"algorithm":"fisher-yates","n":"12","trials":"3","seed":"1"}')
last=$(curl -sN "$url/api/runs/$id/events" | grep '^data: ' | tail -1 | grep -o '"phase":"[a-z]*"' || true)
report "a run of 3 deals of 12 cards: last update" 'a phase, never data: {}' "${last:-data: {\}}" $([[ -n $last ]] && echo 1 || echo 0)

# --- First update within 300 ms (10-card Fisher–Yates; its exact law takes seconds),
# the exact law when it is ready.
id=$(start_run "$url" '{"algorithm":"fisher-yates","n":"10","trials":"2e6","seed":"1"}')
t0=$(now_ms)
curl -sN "$url/api/runs/$id/events" | {
    first='' exact=-
    while read -r line; do
        line=${line%$'\r'}
        [[ $line == 'event: '* ]] || continue
        [[ -n $first ]] || first="${line#event: } $(($(now_ms) - t0))"
        [[ $line != 'event: exact' ]] || exact=$(($(now_ms) - t0))
    done
    echo "$first $exact" >"$work/first"
}
read -r first took exact <"$work/first"
report "first update of 10-card Fisher-Yates" "a snapshot within 300 ms" "$first after ${took} ms" \
    $([[ $first == snapshot ]] && ((took < 300)) && echo 1 || echo 0)
report "  its exact law" "an exact event, later" "after ${exact} ms" \
    $([[ $exact != - ]] && ((exact >= took)) && echo 1 || echo 0)

# --- SIGTERM ends the server, a long run and all, within 200 ms, with 143.
start last
id=$(start_run "$last_url" "$long")
curl -sN "$last_url/api/runs/$id/events" >/dev/null &
sleep 1
t0=$(now_ms)
kill -TERM "$last_pid"
status=0
wait "$last_pid" || status=$?
took=$(($(now_ms) - t0))
report "SIGTERM during a long run" "exit 143 within 200 ms" "exit $status after ${took} ms" $((status == 143 && took < 200))

echo "probe_serve: $failures FAIL"
((failures == 0))
