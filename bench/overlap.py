#!/usr/bin/env python3
"""Issue 20 §3's benchmark: what decoding the next frame while one is analysed gains.

`assist see VIDEO --json --no-history --analyse-every-frame --speak-to WAV --frame-cost C` renders
a video offline on its own clock with every frame analysed, once reading the next frame ahead
(`--read-ahead`) and once with `--no-read-ahead` (each frame decoded after the last was analysed), the two
interleaved run by run so that the shared machine's load falls on both alike. With the fixed frame
cost both analyse exactly the same frames and say exactly the same things (checked here); what
differs is the wall time and the CPU time the machine took for them. Reported per run:
  - frames analysed per wall second, from the "activated" line to the end (loading the model is
    left out);
  - CPU-seconds from the "activated" line to the end (utime + stime of the assist process);
  - the mean `captureMilliseconds` of the analysed frames: how long the loop waited for its frame
    (decoding it, without reading ahead).
Videos are made with ffmpeg into --out (default /bench-out/overlap); nothing is committed.
Standard library only; not a test.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from adaptive import make_bus_video, make_still_video, stream  # noqa: E402


def run(assist, video, read_ahead, out, frame_cost, taskset):
    command = [assist, "see", video, "--mode", "continuous", "--json", "--no-history", "--watchdog", "60",
               "--analyse-every-frame", "--speak-to", os.path.join(out, "speech.wav"), "--frame-cost", str(frame_cost)]
    command.append("--read-ahead" if read_ahead else "--no-read-ahead")
    if taskset:
        command = ["taskset", "-c", taskset] + command
    reports, _, cpu, wall = stream(command, "overlap")
    frames = [r for r in reports if r.get("event") is None]
    said = [(a.get("said"), a.get("firstAudioTime")) for r in reports for a in r.get("announcements", [])]
    return {
        "readAhead": read_ahead,
        "framesAnalysed": len(frames),
        "wallSeconds": wall,
        "framesPerWallSecond": len(frames) / wall,
        "cpuSeconds": cpu,
        "meanCaptureMilliseconds": statistics.fmean(r["timings"]["captureMilliseconds"] for r in frames),
        "meanAnalysisMilliseconds": statistics.fmean(r["timings"]["analysisMilliseconds"] for r in frames),
        "meanInferenceMilliseconds": statistics.fmean(r["timings"]["inferenceMilliseconds"] for r in frames),
        "said": said,
        "frameTimes": [r["time"] for r in frames],
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--assist", default=".build/release/assist")
    parser.add_argument("--shared", default="../shared")
    parser.add_argument("--out", default="/bench-out/overlap")
    parser.add_argument("--video", default="bus", choices=["bus", "still"])
    parser.add_argument("--rounds", type=int, default=3, help="pairs of runs, read-ahead and frame by frame interleaved")
    parser.add_argument("--frame-cost", type=float, default=0.04)
    parser.add_argument("--taskset", default=None, help="CPU list for taskset (e.g. 0,1: two cores on a larger machine)")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    video = (make_bus_video(args.shared, os.path.join(args.out, "bus-approach.mp4")) if args.video == "bus"
             else make_still_video(args.shared, os.path.join(args.out, "still-table.mp4")))
    results = []
    for round_index in range(args.rounds):
        # Alternate which goes first, so a load that rises or falls over a round favours neither.
        order = (True, False) if round_index % 2 == 0 else (False, True)
        for read_ahead in order:
            load = os.getloadavg()[0]
            result = run(args.assist, video, read_ahead, args.out, args.frame_cost, args.taskset)
            result.update(round=round_index, loadAverageBefore=load)
            results.append(result)
            print(f"round {round_index} {'read ahead   ' if read_ahead else 'frame by frame'}: "
                  f"{result['framesAnalysed']} frames in {result['wallSeconds']:.1f} s wall = "
                  f"{result['framesPerWallSecond']:.2f} frames/s; {result['cpuSeconds']:.1f} CPU-s; "
                  f"waited for a frame {result['meanCaptureMilliseconds']:.2f} ms, analysis {result['meanAnalysisMilliseconds']:.1f} ms "
                  f"(inference {result['meanInferenceMilliseconds']:.1f} ms) per frame (load {load:.1f})", flush=True)
    same = all(r["said"] == results[0]["said"] and r["frameTimes"] == results[0]["frameTimes"] for r in results)
    print(f"same frames analysed and same sentences at the same input times in every run: {same}")

    def summary(read_ahead):
        chosen = [r for r in results if r["readAhead"] == read_ahead]
        return {key: statistics.median(r[key] for r in chosen)
                for key in ("framesPerWallSecond", "cpuSeconds", "meanCaptureMilliseconds", "meanAnalysisMilliseconds",
                            "meanInferenceMilliseconds")}
    ahead, sequential = summary(True), summary(False)
    ratios = [a["framesPerWallSecond"] / s["framesPerWallSecond"]
              for a, s in zip([r for r in results if r["readAhead"]], [r for r in results if not r["readAhead"]])]
    print(f"median: read ahead {ahead['framesPerWallSecond']:.2f} frames/s, {ahead['cpuSeconds']:.1f} CPU-s, "
          f"waited {ahead['meanCaptureMilliseconds']:.2f} ms; frame by frame {sequential['framesPerWallSecond']:.2f} frames/s, "
          f"{sequential['cpuSeconds']:.1f} CPU-s, waited {sequential['meanCaptureMilliseconds']:.2f} ms; "
          f"rate ratio per round {', '.join(f'{r:.3f}' for r in ratios)}")
    with open(os.path.join(args.out, f"overlap-{args.video}.json"), "w") as f:
        json.dump({"results": results, "same": same}, f, indent=1)
    if not same:
        sys.exit("overlap bench: the runs did not analyse the same frames or say the same things")


if __name__ == "__main__":
    main()
