#!/usr/bin/env bash
# Hearing chain benchmark: release build, then latency, real-time factor (1/2/4 ear chains at
# 48 kHz) and block times from `assist hear bench`; then, if heaptrack is installed, proof that
# the per-block path allocates nothing (no allocation backtrace passes through process()).
# Usage: Benchmarks/HearingBench.sh [AUDIOGRAM.json]   (default: a flat 40 dB HL loss, FIG6)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/env.sh
swift build -c release --product assist "${swift_link_flags[@]}" 2>&1 | grep -E "error|Compiling assist|Build" | grep -v prohibited || true
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
audiogram="${1:-$work/flat40.json}"
if [ -z "${1:-}" ]; then
  cat > "$audiogram" <<'JSON'
{"rule": "fig6",
 "left":  {"thresholds": {"250": 40, "500": 40, "1000": 40, "2000": 40, "4000": 40, "8000": 40}},
 "right": {"thresholds": {"250": 40, "500": 40, "1000": 40, "2000": 40, "4000": 40, "8000": 40}}}
JSON
fi
.build/release/assist hear bench --audiogram "$audiogram" --seconds 20
if command -v heaptrack >/dev/null && command -v heaptrack_print >/dev/null; then
  heaptrack -o "$work/trace" .build/release/assist hear bench --audiogram "$audiogram" --seconds 2 >/dev/null 2>&1
  heaptrack_print -f "$work"/trace*.zst --print-peaks 0 --print-temporary 0 --print-leaks 0 -n 100000 -s 100000 \
    > "$work/allocations.txt" 2>/dev/null || true
  first_process_line=$(grep -n "    func process(" Sources/Hearing/Processing/EarProcessor.swift | head -1 | cut -d: -f1)
  in_process=$( { grep -E 'AidProcessorC7process5input|EarProcessorC7process_' "$work/allocations.txt" || true;
                  grep -oE 'EarProcessor\.swift:[0-9]+' "$work/allocations.txt" | awk -F: -v l="$first_process_line" '$2 >= l' || true; } | wc -l)
  total=$(grep -E "^calls to allocation functions" "$work/allocations.txt" | grep -oE "[0-9]+" | head -1)
  echo "Allocation backtraces through process(): $in_process (of $total allocation calls in the whole run)"
  if [ "$in_process" -eq 0 ]; then echo "process() allocates nothing."; else echo "process() ALLOCATES: see heaptrack."; exit 1; fi
fi
