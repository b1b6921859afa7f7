#!/usr/bin/env python3
"""Issue 20 §2's benchmark: what analysing when it matters saves, and that it warns no later.

For each 15-fps 640x480 video and mode, `assist see VIDEO --quiet --json --no-history` plays the
video live (on the wall clock, frames arriving during processing dropped, as from a camera), once
analysing every frame (`--analyse-every-frame`) and once with the adaptive schedule (the default):
  - CPU-seconds per minute of video, counted from the "activated" line to the end (utime + stime of
    the assist process, /proc/PID/stat at activation and wait4 at the end), so model loading is
    left out;
  - frames analysed, and why (the `analysedBecause` of each --json line).
The approach warning is timed on a video that zooms towards ../shared/data/images/bus.jpg (2 s
still, then a constant-speed approach: the zoom is d0/(d0 - v t), 1x to 4x over 10 s), rendered
offline on the video's own clock (`--speak-to`, with --frame-cost fixed so both schedules see the
same time per analysed frame): the input time at which "Coming closer." and the first mention of
the bus are first heard. The live runs' times are printed too.

Videos are made with ffmpeg into --out (default /bench-out/adaptive); nothing is committed.
Standard library only; not a test.
"""
import argparse
import json
import os
import subprocess
import sys
import time
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from live import make_video  # noqa: E402

FFMPEG = ["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y"]


def make_bus_video(shared, out, still_seconds=2, approach_seconds=10, fps=15):
    """bus.jpg on a grey canvas three times its size (the bus starts small, far away), still for
    2 s, then zoomed as a constant-speed approach: zoom = d0 / (d0 - v t), 1 -> 4 over 10 s."""
    if os.path.exists(out):
        return out
    still, total = still_seconds * fps, (still_seconds + approach_seconds) * fps
    d0, v = 20.0, 15.0 / approach_seconds     # 20 units away, 5 left at the end: 4x
    zoom = f"if(lt(on\\,{still})\\,1\\,{d0}/({d0}-{v}*(on-{still})/{fps}))"
    vf = ("scale=810:1080,pad=2880:2160:(ow-iw)/2:(oh-ih)/2:color=0x707070,setsar=1,"
          f"zoompan=z='{zoom}':x='iw/2-iw/zoom/2':y='ih/2-ih/zoom/2':d={total}:s=640x480:fps={fps},format=yuv420p")
    subprocess.run(FFMPEG + ["-loop", "1", "-i", os.path.join(shared, "data/images/bus.jpg"), "-vf", vf,
                             "-frames:v", str(total), "-c:v", "libx264", "-preset", "veryfast", "-g", str(fps),
                             out + ".part.mp4"], check=True)
    os.replace(out + ".part.mp4", out)
    return out


def cpu_seconds(pid):
    """utime + stime of a running process, from /proc/PID/stat."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def warnings(reports):
    """Input times at which the first bus mention and the first "Coming closer." were heard."""
    first_bus, first_closer = None, None
    for report in reports:
        for announcement in report.get("announcements", []):
            heard = announcement.get("firstAudioTime")
            said = announcement.get("said", "")
            if heard is None:
                continue
            if "Bus" in said and (first_bus is None or heard < first_bus):
                first_bus = heard
            if "Coming closer." in said and (first_closer is None or heard < first_closer):
                first_closer = heard
    return first_bus, first_closer


def run(assist, video, mode, every_frame, extra=()):
    command = [assist, "see", video, "--mode", mode, "--json", "--no-history", *extra]
    if every_frame:
        command.append("--analyse-every-frame")
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
    reports, cpu_at_activation, wall_at_activation, schedule = [], None, None, None
    for line in process.stdout:
        try:
            report = json.loads(line)
        except json.JSONDecodeError:
            continue
        if report.get("event") == "activated":
            cpu_at_activation = cpu_seconds(process.pid)
            wall_at_activation = time.monotonic()
            schedule = report.get("analysisSchedule")
        reports.append(report)
    stderr = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        sys.exit(f"adaptive bench: {' '.join(command)} exited with {process.returncode}: {stderr.strip()}")
    frames = [r for r in reports if r.get("event") is None]
    video_seconds = float(subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", video],
                                         capture_output=True, text=True, check=True).stdout.strip())
    cpu = usage.ru_utime + usage.ru_stime - (cpu_at_activation or 0)
    first_bus, first_closer = warnings(reports)
    return {
        "command": " ".join(command),
        "schedule": schedule,
        "videoSeconds": video_seconds,
        "wallSecondsAfterActivation": time.monotonic() - wall_at_activation if wall_at_activation else None,
        "cpuSecondsAfterActivation": cpu,
        "cpuSecondsPerMinute": cpu / video_seconds * 60,
        "framesAnalysed": len(frames),
        "reasons": dict(Counter(r.get("analysedBecause") for r in frames)),
        "firstBusHeardSeconds": first_bus,
        "firstComingCloserHeardSeconds": first_closer,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--assist", default=".build/release/assist")
    parser.add_argument("--shared", default="../shared")
    parser.add_argument("--out", default="/bench-out/adaptive")
    parser.add_argument("--seconds", type=float, default=60, help="length of the slideshow video")
    parser.add_argument("--frame-cost", type=float, default=0.05, help="seconds per analysed frame in the offline render")
    parser.add_argument("--skip-live", action="store_true")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    slideshow = make_video(args.shared, os.path.join(args.out, f"slideshow-{int(args.seconds)}s.mp4"), args.seconds)
    bus = make_bus_video(args.shared, os.path.join(args.out, "bus-approach.mp4"))
    results = {"live": [], "offline": []}
    for every_frame in (True, False):
        wav = os.path.join(args.out, "bus.wav")
        result = run(args.assist, bus, "continuous", every_frame,
                     ["--speak-to", wav, "--frame-cost", str(args.frame_cost)])
        results["offline"].append(result)
        print(f"offline bus, {result['schedule']}: {result['framesAnalysed']} frames analysed {result['reasons']}; "
              f"bus first heard at {result['firstBusHeardSeconds']} s, \"Coming closer.\" at {result['firstComingCloserHeardSeconds']} s",
              flush=True)
    if not args.skip_live:
        for video in (slideshow, bus):
            for mode in ("continuous", "navigate"):
                for every_frame in (True, False):
                    result = run(args.assist, video, mode, every_frame, ["--quiet"])
                    result["video"] = os.path.basename(video)
                    result["mode"] = mode
                    results["live"].append(result)
                    print(f"live {result['video']} {mode}, {result['schedule']}: {result['cpuSecondsPerMinute']:.1f} CPU-s per minute "
                          f"({result['cpuSecondsAfterActivation']:.1f} CPU-s over {result['videoSeconds']:.0f} s), "
                          f"{result['framesAnalysed']} frames analysed {result['reasons']}; bus heard {result['firstBusHeardSeconds']}, "
                          f"\"Coming closer.\" {result['firstComingCloserHeardSeconds']}", flush=True)
    with open(os.path.join(args.out, "adaptive.json"), "w") as f:
        json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
