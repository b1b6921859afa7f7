#!/usr/bin/env bash
# Is it JACK's dummy backend or our client? Runs a dummy-backend server of its own (48 kHz,
# 64-frame periods) for SECONDS with the trivial count_client alone, or (with ASSIST) with
# `assist hear --live --json` connected as well, and prints: the server's periods against the
# wall clock's (count_client), the aid's blocks and dropouts (its JSON summary), and jackd's own
# xrun lines split by cause (a client not finished in time, by name; the backend's timer late).
# Usage: bench/jack/soak_check.sh SECONDS [ASSIST]      (stops its jackd by process id)
# Environment: JACKD_OPTIONS: more server options (before -d, e.g. "-P 80" for a higher real-time
# priority); CPU_WAKE_LATENCY_US: hold /dev/cpu_dma_latency at this many microseconds for the run
# (0 keeps idle CPUs polling instead of halting, so a woken thread starts at once; the kernel
# restores the setting when the holder exits).
set -euo pipefail
seconds=$1; assist=${2:-}
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
work=$(mktemp -d)
cc -O2 "$here/count_client.c" -o "$work/count_client" -ljack
name="soak-check-$$"
holder=""
if [ -n "${CPU_WAKE_LATENCY_US:-}" ]; then
  python3 -c 'import os, struct, sys, time
fd = os.open("/dev/cpu_dma_latency", os.O_WRONLY); os.write(fd, struct.pack("i", int(sys.argv[1]))); time.sleep(1e9)' "$CPU_WAKE_LATENCY_US" &
  holder=$!
fi
# shellcheck disable=SC2086
jackd ${JACKD_OPTIONS:-} -n "$name" -d dummy -r 48000 -p 64 > "$work/jackd.log" 2>&1 &
server=$!
trap 'kill $server ${holder} 2>/dev/null || true; wait $server 2>/dev/null || true; rm -rf "$work"' EXIT
echo "server: jackd ${JACKD_OPTIONS:-} -d dummy -r 48000 -p 64; CPU wake latency held: ${CPU_WAKE_LATENCY_US:-no}" 
export JACK_DEFAULT_SERVER=$name JACK_NO_START_SERVER=1
jack_wait -w -s "$name" -t 10 > /dev/null
echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg); steal jiffies: $(awk '/^cpu /{print $9}' /proc/stat)"
aid=""
if [ -n "$assist" ]; then
  cat > "$work/me.json" <<'J'
{"rule": "nal-r",
 "left":  {"thresholds": {"250": 20, "500": 30, "1000": 40, "2000": 55, "4000": 70, "8000": 75}},
 "right": {"thresholds": {"250": 25, "500": 35, "1000": 45, "2000": 60, "4000": 70}}}
J
  XDG_DATA_HOME=$work/data XDG_CONFIG_HOME=$work/config XDG_RUNTIME_DIR=$work/run \
    "$assist" hear --live --audiogram "$work/me.json" --duration "$seconds" --json < /dev/null > "$work/aid.json" 2> /dev/null &
  aid=$!
  for _ in $(seq 100); do jack_lsp 2> /dev/null | grep -q '^assist-hear:in_1$' && break; sleep 0.1; done
  # JACK runs each client's process callback on a real-time thread when the server is real-time.
  echo "aid threads with real-time scheduling: $(for t in /proc/$aid/task/*; do chrt -p "${t##*/}" 2> /dev/null; done | grep -c 'SCHED_FIFO\|SCHED_RR' || true)"
fi
echo "server (count_client): $("$work/count_client" "$seconds" 2> /dev/null)"
if [ -n "$aid" ]; then
  wait "$aid"
  python3 -c "import json,sys; t=open(sys.argv[1]).read(); s=json.loads(t[t.index('{'):]); print('aid:', {k: s[k] for k in ('seconds', 'blocks', 'dropouts')})" "$work/aid.json"
fi
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg); steal jiffies: $(awk '/^cpu /{print $9}' /proc/stat)"
kill "$server"; wait "$server" 2> /dev/null || true
echo "jackd's xrun lines: $(grep -c 'XRun' "$work/jackd.log" || true); backend timer late: $(grep -c 'JackTimedDriver::Process XRun' "$work/jackd.log" || true)"
# jackd names the client still running when the next cycle began: with two clients, mostly the
# later one in the graph, whichever was slow.
echo "client not finished in time, by client:"
grep 'was not finished' "$work/jackd.log" | sed 's/.*client = \([^ ]*\).*/\1/' | sort | uniq -c || true
