#!/usr/bin/env python3
"""Peak resident memory of one command, and what it is made of at the peak.

Usage: bench/peak_rss.py COMMAND [ARGS...]   (TRACE=1 also prints the resident memory every 2 s)

Samples /proc/PID/smaps_rollup every 0.1 s while the command runs and prints one line: exit
status, wall time, peak resident memory, and at that peak the anonymous part (heap, the models'
weights and buffers) and the file-backed part (the binary's and libraries' pages). Used for the
natural voice's memory in a live session (BENCHMARKS.md, "Issue 37 (twenty-second session)").
Standard library only; not a test.
"""
import os
import subprocess
import sys
import time


def rollup(pid):
    values = {}
    with open(f"/proc/{pid}/smaps_rollup") as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 3 and parts[2] == "kB":
                values[parts[0].rstrip(":")] = int(parts[1])
    return values


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__.strip().splitlines()[2])
    process = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    start = time.time()
    peak, trace = {}, []
    while process.poll() is None:
        try:
            values = rollup(process.pid)
        except OSError:
            values = {}
        if values:
            trace.append((time.time() - start, values.get("Rss", 0) // 1024, values.get("Anonymous", 0) // 1024))
            if values.get("Rss", 0) > peak.get("Rss", 0):
                peak = values
        time.sleep(0.1)
    errors = process.stderr.read().decode(errors="replace")
    rss, anonymous = peak.get("Rss", 0) / 1024, peak.get("Anonymous", 0) / 1024
    print(f"rc={process.returncode} wall={time.time() - start:.1f}s peakRSS={rss:.1f}MB anon={anonymous:.1f}MB file={rss - anonymous:.1f}MB")
    if process.returncode:
        print(errors[-2000:])
    if os.environ.get("TRACE"):
        last = -1
        for seconds, megabytes, anon in trace:
            if int(seconds) // 2 != last:
                last = int(seconds) // 2
                print(f"{seconds:5.1f}s rss={megabytes} anon={anon}")


if __name__ == "__main__":
    main()
