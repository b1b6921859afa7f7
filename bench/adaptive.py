#!/usr/bin/env python3
"""Issue 20 §2's benchmark: what analysing when it matters saves, and that it warns no later.

For each 15-fps 640x480 video and mode, `assist see VIDEO --json --no-history` runs once analysing
every frame (`--analyse-every-frame`) and once with the adaptive schedule (the default), and reports
  - CPU-seconds per minute of video, counted from the "activated" line to the end (utime + stime of
    the assist process: /proc/PID/stat at activation, wait4 at the end), so loading the model is
    left out; decoding every frame and the speech are in;
  - frames analysed, and why (the `analysedBecause` of each --json line);
  - the bus alerts heard, on the video that zooms towards ../shared/data/images/bus.jpg (2 s still,
    then a constant-speed approach: zoom d0 / (d0 - v t), 1x to 4x over 10 s): the input time at
    which each hazard alert naming the bus ("[tone vehicle] Bus, 10 meters, ahead.", again at each
    closer band, said as "Bus coming closer, N meters, ahead." once the approach is declared) is first heard.
The runs are rendered offline on the video's own clock (`--speak-to`) with `--frame-cost` fixed
(0.04 s, an idle machine's inference): both schedules analyse exactly the frames a live run on an
idle machine would, whatever else the shared machine is doing, and the warning times are on the
video's clock. `--live` also plays each video live on the wall clock (`--quiet`), where a busy
machine analyses fewer frames.

A third video (`--videos still`) holds a coco128 picture still for 30 s: the still scene; a fourth
(`--videos parked`) holds a square with parked vehicles still for 30 s: hazards that stand still.
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


def make_still_video(shared, out, seconds=30, fps=15, picture="000000000009.jpg"):
    """A camera held still in front of a table (coco128 000000000009.jpg, bowls of food), nothing
    moving: what the adaptive schedule's base rate is for. With `picture` 000000000257.jpg: a
    square with a parked ambulance and a van, people standing about (the vehicles are hazards
    that stand still)."""
    if os.path.exists(out):
        return out
    subprocess.run(FFMPEG + ["-loop", "1", "-framerate", str(fps), "-i",
                             os.path.join(shared, "data/coco128/images/train2017", picture),
                             "-vf", "scale=640:480,setsar=1,format=yuv420p", "-frames:v", str(seconds * fps),
                             "-c:v", "libx264", "-preset", "veryfast", "-g", str(fps), out + ".part.mp4"], check=True)
    os.replace(out + ".part.mp4", out)
    return out


def cpu_seconds(pid):
    """utime + stime of a running process, from /proc/PID/stat."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def warnings(reports):
    """The bus alerts heard, in order: (input seconds first heard, what was said). The approach
    warning is the hazard alert that names the bus ("[tone vehicle] Bus, 10 meters, ahead."), said
    again at each closer distance band, and as "Bus coming closer, 6 meters, ahead." once the tracker declares the approach."""
    heard = []
    for report in reports:
        for announcement in report.get("announcements", []):
            time_heard, said = announcement.get("firstAudioTime"), announcement.get("said", "")
            if time_heard is not None and "Bus" in said and announcement.get("priority") == "hazard":
                heard.append((round(time_heard, 3), said))
    return sorted(heard)


def stream(command, bench):
    """Runs one `assist see --json` to its end: its reports, its resource usage, and its CPU and
    wall seconds after the `activated` line (loading the model left out). Exits on a failure."""
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
    reports, cpu_at_activation, wall_at_activation = [], None, None
    for line in process.stdout:
        try:
            report = json.loads(line)
        except json.JSONDecodeError:
            continue
        if report.get("event") == "activated":
            cpu_at_activation = cpu_seconds(process.pid)
            wall_at_activation = time.monotonic()
        reports.append(report)
    stderr = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.exit(f"{bench} bench: {' '.join(command)} exited with {code}: {stderr.strip()}")
    wall = time.monotonic() - wall_at_activation if wall_at_activation else None
    return reports, usage, usage.ru_utime + usage.ru_stime - (cpu_at_activation or 0), wall


def run(assist, video, mode, every_frame, extra=()):
    # A generous watchdog: the first analysis compiles the model for the frame's shape, which on a
    # busy 2-core machine can take longer than the default 4 s ("Detection failed.").
    command = [assist, "see", video, "--mode", mode, "--json", "--no-history", "--watchdog", "60", *extra]
    if every_frame:
        command.append("--analyse-every-frame")
    reports, usage, cpu, wall = stream(command, "adaptive")
    schedule = next((r.get("analysisSchedule") for r in reports if r.get("event") == "activated"), None)
    frames = [r for r in reports if r.get("event") is None]
    video_seconds = float(subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", video],
                                         capture_output=True, text=True, check=True).stdout.strip())
    bus_alerts = warnings(reports)
    return {
        "maxRssMiB": usage.ru_maxrss / 1024,
        # The biggest bus box of each analysed frame: (input seconds, box, distance said in --json).
        "busSeen": [(r["time"], b["box"], b.get("distanceMeters")) for r in frames
                    for b in sorted((o for o in r.get("objects", []) if o.get("label") == "bus"),
                                    key=lambda o: -(o["box"]["y1"] - o["box"]["y0"]))[:1]],
        "command": " ".join(command),
        "schedule": schedule,
        "videoSeconds": video_seconds,
        "wallSecondsAfterActivation": wall,
        "cpuSecondsAfterActivation": cpu,
        "cpuSecondsPerMinute": cpu / video_seconds * 60,
        "framesAnalysed": len(frames),
        "reasons": dict(Counter(r.get("analysedBecause") for r in frames)),
        "busAlerts": bus_alerts,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--assist", default=".build/release/assist")
    parser.add_argument("--shared", default="../shared")
    parser.add_argument("--out", default="/bench-out/adaptive")
    parser.add_argument("--seconds", type=float, default=60, help="length of the slideshow video")
    parser.add_argument("--frame-cost", type=float, default=0.04,
                        help="seconds counted per analysed frame offline (an idle machine's inference, issue 20: 36-43 ms)")
    parser.add_argument("--live", action="store_true", help="also play each video live, on the wall clock")
    parser.add_argument("--videos", default="slideshow,bus",
                        help="comma-separated: slideshow, bus, still, parked, or paths of other videos")
    parser.add_argument("--modes", default="continuous,navigate")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    videos = {"slideshow": lambda: make_video(args.shared, os.path.join(args.out, f"slideshow-{int(args.seconds)}s.mp4"), args.seconds),
              "bus": lambda: make_bus_video(args.shared, os.path.join(args.out, "bus-approach.mp4")),
              "still": lambda: make_still_video(args.shared, os.path.join(args.out, "still-table.mp4")),
              "parked": lambda: make_still_video(args.shared, os.path.join(args.out, "still-parked.mp4"),
                                                 picture="000000000257.jpg")}
    results = []
    kinds = [("offline", ["--speak-to", os.path.join(args.out, "speech.wav"), "--frame-cost", str(args.frame_cost)])]
    if args.live:
        kinds.append(("live", ["--quiet"]))
    for mode in args.modes.split(","):
        for name in args.videos.split(","):
            # A name of its own, or the path of any video (a walk recorded elsewhere; not committed).
            video = videos[name]() if name in videos else name
            if not os.path.exists(video):
                sys.exit(f"adaptive bench: {name} is neither {', '.join(videos)} nor a video file.")
            for kind, extra in kinds:
                for every_frame in (True, False):
                    result = run(args.assist, video, mode, every_frame, extra)
                    result.update(video=os.path.basename(video), mode=mode, kind=kind)
                    results.append(result)
                    print(f"{kind} {result['video']} {mode}, {result['schedule']}: {result['cpuSecondsPerMinute']:.1f} CPU-s per minute "
                          f"({result['cpuSecondsAfterActivation']:.1f} CPU-s over {result['videoSeconds']:.0f} s of video, "
                          f"{result['wallSecondsAfterActivation']:.0f} s wall), {result['framesAnalysed']} frames analysed "
                          f"{result['reasons']}; bus alerts heard {result['busAlerts']}", flush=True)
    names = "-".join(os.path.splitext(os.path.basename(name))[0] for name in args.videos.split(","))
    with open(os.path.join(args.out, f"adaptive-{names}.json"), "w") as f:
        json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
