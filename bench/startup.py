#!/usr/bin/env python3
"""Issue 20's start-up target: launch of `assist see VIDEO` -> its "Assistive Vision activated." line.

Runs the real command several times on a short video (offline render, `--speak-to` a WAV in a
temporary folder, `--json`), the first run filling OpenVINO's compiled-model cache, and prints the
seconds from launch to the `activated` event for each later (warm) run, their median and maximum.
Standard library only; not a test. Usage: bench/startup.py --assist .build/release/assist [--runs 10]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time


def make_video(path):
    if not os.path.exists(path):
        subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-loop", "1", "-i",
                        os.path.join(os.path.dirname(__file__), "../../shared/data/images/bus.jpg"),
                        "-vf", "scale=640:480,setsar=1,format=yuv420p", "-r", "15", "-t", "2", path], check=True)
    return path


def once(assist, video, folder):
    start = time.monotonic()
    process = subprocess.Popen([assist, "see", video, "--json", "--no-history", "--speak-to", os.path.join(folder, "out.wav")],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seconds, event = None, None
    for line in process.stdout:
        try:
            report = json.loads(line)
        except ValueError:
            continue
        if report.get("event") == "activated":
            seconds, event = time.monotonic() - start, report
            break
    process.stdout.read()
    process.wait()
    if seconds is None:
        sys.exit(f"assist ended (status {process.returncode}) without an activated line: {process.stderr.read().strip()}")
    return seconds, event


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--assist", default=".build/release/assist")
    parser.add_argument("--runs", type=int, default=10, help="warm runs after the one that fills the cache")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        video = make_video(os.path.join(folder, "still.mp4"))
        first, event = once(args.assist, video, folder)
        print(f"first run (fills the model cache): {first:.3f} s; precision {json.dumps(event.get('precision'))}", flush=True)
        warm = []
        for index in range(args.runs):
            seconds, _ = once(args.assist, video, folder)
            warm.append(seconds)
            print(f"warm run {index + 1}: {seconds:.3f} s", flush=True)
    print(f"launch -> 'Assistive Vision activated.', warm cache, {len(warm)} runs: median {statistics.median(warm):.3f} s, "
          f"max {max(warm):.3f} s (target <= 0.5 s); load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
