#!/usr/bin/env python3
"""Issue 20 §5's benchmark: our vision pipeline against the Ultralytics package itself, in one run.

The peer is `YOLO(<models>/yolo11n_int8_openvino_model, task="detect")` from ultralytics 8.4.190
(the version MODELS.md's `yolo val` figures come from), on the CPU, through the OpenVINO runtime
it loads itself: the same model file as ours. It runs in its own process (`peer` mode of this
script, in the benchmark-only environment .deps/bench-ultralytics/ that `scripts/bench
--ultralytics-peer` makes; the package pulls in PyTorch, so it is never the product's).

Reported, in this order:
  1. ms per picture on a 4:3 picture (coco128 000000000009.jpg, 640x480) and a 16:9 one
     (zidane.jpg, 1280x720): `assist bench vision --serve` (its default input shape, and the
     square 640x640 beside it) and the peer's `predict(path)`, asked for one run each in turn,
     order alternating, with a short idle gap before each, so load changes hit every side. Ours:
     its stage timings (inference, whole pipeline with decoding). Peer: the speeds it reports
     itself (preprocess, inference, postprocess per image) and the wall time of each call
     (which also holds reading and decoding the file). Both at Ultralytics' predict defaults
     (confidence 0.25, NMS IoU 0.7). The input size each side used is printed.
  2. CPU-seconds per minute of 15-fps 640x480 video: ours by bench/adaptive.py's method (`assist
     see VIDEO --json --no-history --speak-to … --frame-cost 0.04`, every frame and the adaptive
     schedule, continuous and navigation mode; user + system CPU after the "activated" line), the
     peer analysing every frame (`predict(VIDEO, stream=True)`; user + system CPU of its process
     from the first frame to the last, so loading and compiling the model are left out as ours
     are). Runs alternate ours / peer / ours, so load hits both. Peak memory: max RSS (wait4) of
     every process.
  3. On the video that zooms towards a bus (bench/adaptive.py's): the input times at which our
     approach warnings are first heard; the peer gives no warnings, so for both sides the input
     time of the first frame in which a bus is detected at all, and of the first frame in which
     the bus's box, put through our distance rule (Sources/Perception/Geometry/GeometricDistance.swift,
     ported below and checked against the distances our --json prints for our own boxes), is
     within the hazard rule's 10 m and past the approach bands' 8 m and 4 m edges
     (HazardPolicy.nearMeters, DistanceBands.approach).

Videos are made with ffmpeg into --out (default /bench-out/ultralytics-peer); nothing is committed.
`--extra-video PATH` adds a real clip (a walking video, if you have one), converted to 640x480
(centre crop to 4:3) at 15 fps. Not a test.
"""
import argparse
import json
import math
import os
import platform
import resource
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from adaptive import FFMPEG, make_bus_video, run as run_ours_video  # noqa: E402
from live import make_video  # noqa: E402
from markdown_section import replace_section  # noqa: E402

CONFIDENCE, IOU = 0.25, 0.7          # Ultralytics' predict defaults, on both sides for the pictures
IDLE_GAP_SECONDS = 0.05              # as bench/run.py: the last runner's spinning threads settle first
MODEL_DIR = "models/yolo11n_int8_openvino_model"
FPS = 15


# ---------------------------------------------------------------- the peer, in its own process

def peer_main(model_dir):
    """JSON lines in, JSON lines out: {"picture": path} or {"video": path}; a first line with versions."""
    os.environ.setdefault("YOLO_OFFLINE", "1")   # nothing over the network (no update or hub checks)
    # Ultralytics logs to standard output; the answers get their own copy of it, the logs go to stderr.
    answers = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    started = time.monotonic()
    import numpy as np
    import openvino
    import torch
    import ultralytics
    from ultralytics import YOLO
    model = YOLO(model_dir, task="detect")
    # The first predict builds the predictor and loads and compiles the model: not counted.
    model.predict(np.full((480, 640, 3), 114, np.uint8), conf=CONFIDENCE, iou=IOU, verbose=False)
    predictor = model.predictor
    input_shapes = []
    preprocess = predictor.preprocess

    def recording_preprocess(images):
        tensor = preprocess(images)
        input_shapes.append(list(tensor.shape))
        return tensor
    predictor.preprocess = recording_preprocess
    compiled = predictor.model.backend.ov_compiled_model
    print(json.dumps({"ultralytics": ultralytics.__version__, "torch": torch.__version__, "openvino": openvino.__version__,
                      "torchThreads": torch.get_num_threads(),
                      "inferencePrecision": compiled.get_property("INFERENCE_PRECISION_HINT").to_string(),
                      "executionDevices": list(compiled.get_property("EXECUTION_DEVICES")),
                      "loadSeconds": time.monotonic() - started}), file=answers)

    def detections(result):
        boxes = result.boxes
        return [{"label": result.names[int(c)], "confidence": round(float(p), 4), "box": [round(float(v), 2) for v in xyxy]}
                for c, p, xyxy in zip(boxes.cls.tolist(), boxes.conf.tolist(), boxes.xyxy.tolist())]

    for line in sys.stdin:
        request = json.loads(line)
        if "picture" in request:
            input_shapes.clear()
            start = time.perf_counter()
            result = model.predict(request["picture"], conf=CONFIDENCE, iou=IOU, verbose=False)[0]
            wall = (time.perf_counter() - start) * 1000
            answer = {"wallMilliseconds": wall, "speed": result.speed, "inputShape": input_shapes[-1],
                      "imageHeight": result.orig_shape[0], "imageWidth": result.orig_shape[1],
                      "detections": detections(result)}
        else:
            input_shapes.clear()
            before, wall_before = resource.getrusage(resource.RUSAGE_SELF), time.monotonic()
            frames, speeds, bus = 0, {"preprocess": [], "inference": [], "postprocess": []}, []
            for result in model.predict(request["video"], stream=True, conf=CONFIDENCE, iou=IOU, verbose=False):
                for key in speeds:
                    speeds[key].append(result.speed[key])
                buses = [d for d in detections(result) if d["label"] == "bus"]
                if buses:
                    biggest = max(buses, key=lambda d: d["box"][3] - d["box"][1])
                    bus.append((frames / FPS, biggest["box"], biggest["confidence"]))
                frames += 1
            after = resource.getrusage(resource.RUSAGE_SELF)
            answer = {"frames": frames, "wallSeconds": time.monotonic() - wall_before,
                      "cpuSeconds": after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime,
                      "medianSpeedMilliseconds": {k: statistics.median(v) for k, v in speeds.items() if v},
                      "inputShape": input_shapes[0] if input_shapes else None, "busSeen": bus}
        print(json.dumps(answer), file=answers)


class Process:
    """A long-lived process answering one JSON line per request line; max RSS from wait4 at the end."""

    def __init__(self, command):
        self.command = command
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def ask(self, line):
        time.sleep(IDLE_GAP_SECONDS)
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        return self.read()

    def read(self):
        answer = self.proc.stdout.readline()
        if not answer:
            sys.exit(f"ultralytics peer bench: {' '.join(self.command)} stopped answering")
        return json.loads(answer)

    def close(self):
        """Ends the process; its peak resident memory in MiB."""
        self.proc.stdin.close()
        _, status, usage = os.wait4(self.proc.pid, 0)
        if os.waitstatus_to_exitcode(status) != 0:
            sys.exit(f"ultralytics peer bench: {' '.join(self.command)} failed")
        return usage.ru_maxrss / 1024


def peer_command(shared):
    return [sys.executable, os.path.abspath(__file__), "peer", "--model", os.path.join(shared, MODEL_DIR)]


def log(message):
    print(f"ultralytics peer bench: {message}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------- 1. ms per picture

def median(values):
    return statistics.median(values) if values else None


# Our sides: the product's default (rectangular input, f32), the default shape at the precision the
# peer's OpenVINO picks by itself on this CPU (bf16 where the CPU has it), and the peer's own input
# (640x640) at that precision.
OUR_SIDES = {"ours": [], "ours, bf16": ["--precision", "bf16"], "ours, square bf16": ["--input-shape", "square", "--precision", "bf16"]}


def pictures(assist, shared, images, runs, warmup):
    settings = ["--confidence", str(CONFIDENCE), "--iou", str(IOU)]
    shapes = {}
    for side, options in OUR_SIDES.items():
        for image in images:
            # The input size and precision ours uses for the picture (the --serve answers do not carry them).
            result = json.loads(subprocess.run([assist, "bench", "vision", image, "--runs", "1", "--warmup", "0", "--json",
                                                *settings, *options], capture_output=True, text=True, check=True).stdout)[0]
            shapes[side, image] = f"{result['inputWidth']}×{result['inputHeight']} {result['precision']}"
    sides = {side: Process([assist, "bench", "vision", "--serve", *settings, *options]) for side, options in OUR_SIDES.items()}
    sides["peer"] = Process(peer_command(shared))
    versions = sides["peer"].read()
    log(f"the peer: ultralytics {versions['ultralytics']}, torch {versions['torch']}, OpenVINO {versions['openvino']}, "
        f"inference precision {versions['inferencePrecision']} on {versions['executionDevices']}")
    rows = []
    for image in images:
        log(f"{os.path.basename(image)}: {warmup} + {runs} runs of each side, interleaved")
        samples = {name: [] for name in sides}
        order = list(sides)
        for run in range(warmup + runs):
            for name in (order if run % 2 == 0 else order[::-1]):
                answer = sides[name].ask(json.dumps({"picture": image}) if name == "peer" else image)
                if run >= warmup:
                    samples[name].append(answer)
        peer = samples["peer"]
        row = {"image": os.path.basename(image), "imageWidth": peer[-1]["imageWidth"], "imageHeight": peer[-1]["imageHeight"],
               "runs": runs, "peerInput": "×".join(str(v) for v in peer[-1]["inputShape"][:1:-1])}
        for name in OUR_SIDES:
            row[f"{name} input"] = shapes[name, image]
            for stage in ("inference", "total", "total without decode", "raw inference"):
                row[f"{name} {stage}"] = median([s["milliseconds"][stage] for s in samples[name]])
            row[f"{name} objects"] = len(samples[name][-1]["detections"])
        for stage in ("preprocess", "inference", "postprocess"):
            row[f"peer {stage}"] = median([s["speed"][stage] for s in peer])
        row["peer speeds summed"] = median([sum(s["speed"].values()) for s in peer])
        row["peer wall"] = median([s["wallMilliseconds"] for s in peer])
        row["peer objects"] = len(peer[-1]["detections"])
        rows.append(row)
        log(json.dumps(row, ensure_ascii=False))
    memory = {name: side.close() for name, side in sides.items()}
    return {"versions": versions, "rows": rows, "maxRssMiB": memory}


# ---------------------------------------------------------------- 3. our distance rule, ported

class DistanceRule:
    """GeometricDistance.estimate for the default chest-worn camera (CameraSettings.chestWorn: 70°
    horizontal field of view, 1.3 m above the floor, level), sizes from object-sizes.json."""
    box_edge_error_pixels, box_relative_error = 2.0, 0.05
    pitch_uncertainty_degrees, camera_height_relative_error, minimum_depression_degrees = 2.0, 0.05, 2.0
    field_of_view_degrees, camera_height_meters, pitch_down_degrees = 70.0, 1.3, 0.0

    def __init__(self, repo_root, width, height):
        with open(os.path.join(repo_root, "Sources/Perception/Geometry/object-sizes.json")) as f:
            self.sizes = json.load(f)["classes"]
        self.width, self.height = width, height
        self.focal = width / 2 / math.tan(math.radians(self.field_of_view_degrees / 2))
        self.cx, self.cy = width / 2, height / 2

    def cut(self, x0, y0, x1, y1):
        mx, my = max(2, 0.005 * self.width), max(2, 0.005 * self.height)
        return x0 <= mx, y0 <= my, x1 >= self.width - mx, y1 >= self.height - my

    def meters(self, label, box):
        size = self.sizes.get(label)
        if size is None:
            return None
        x0, y0, x1, y1 = box
        left, top, right, bottom = self.cut(x0, y0, x1, y1)
        w, h, f = x1 - x0, y1 - y0, self.focal
        measured = []

        def add(meters, extent):
            if extent >= 1:
                error = math.sqrt(self.box_relative_error ** 2 + (math.sqrt(2) * self.box_edge_error_pixels / extent) ** 2)
                measured.append((meters, error))
        if size.get("heightMeters") and not top and not bottom and h > 0:
            add(f * size["heightMeters"] / h, h)
        if size.get("widthMeters") and not left and not right and w > 0:
            add(f * size["widthMeters"] / w, w)
        if size.get("lengthMeters") and not (left or top or right or bottom) and (w > 0 or h > 0):
            add(size["lengthMeters"] / math.hypot(w / f, h / f), math.hypot(w, h))
        cues = []
        if measured:
            m, e = combined(measured)
            cues.append((m, math.sqrt(size["relativeSpread"] ** 2 + e ** 2)))
        if size.get("standsOnFloor") and not bottom:
            depression = self.pitch_down_degrees + math.degrees(math.atan((y1 - self.cy) / f))
            if depression >= self.minimum_depression_degrees:
                alpha = math.radians(depression)
                sigma = math.sqrt(math.radians(self.pitch_uncertainty_degrees) ** 2 + (self.box_edge_error_pixels / f) ** 2)
                angle_error = sigma / (math.sin(alpha) * math.cos(alpha))
                cues.append((self.camera_height_meters / math.tan(alpha),
                             math.sqrt(self.camera_height_relative_error ** 2 + angle_error ** 2)))
        return combined(cues)[0] if cues else None


def combined(cues):
    """DistanceCue.combined: inverse-variance weighted mean of log distance."""
    weights = [1 / (e * e) for _, e in cues]
    return math.exp(sum(w * math.log(m) for w, (m, _) in zip(weights, cues)) / sum(weights)), 1 / math.sqrt(sum(weights))


ALERT_DISTANCES = (("within 10 m (HazardPolicy.nearMeters)", lambda d: d <= 10),
                   ("under 8 m (approach band edge)", lambda d: d < 8),
                   ("under 4 m (approach band edge)", lambda d: d < 4))


def bus_times(seen, rule):
    """First input time with a bus at all, and first time its distance by our rule passes each mark."""
    times = {"bus detected": seen[0][0] if seen else None}
    for name, passes in ALERT_DISTANCES:
        times[name] = next((t for t, box, _ in seen if (d := rule.meters("bus", box)) is not None and passes(d)), None)
    return times


# ---------------------------------------------------------------- 2. CPU per minute of video

def to_640x480(path, out):
    """A real clip as the live loop would get it from a 4:3 camera: centre crop to 4:3, 640x480, 15 fps."""
    target = os.path.join(out, os.path.splitext(os.path.basename(path))[0] + "-640x480-15fps.mp4")
    if not os.path.exists(target):
        subprocess.run(FFMPEG + ["-i", path, "-vf", "crop='min(iw,ih*4/3)':'min(ih,iw*3/4)',scale=640:480,setsar=1,"
                                 f"fps={FPS},format=yuv420p", "-an", "-c:v", "libx264", "-preset", "veryfast",
                                 "-g", str(FPS), target + ".part.mp4"], check=True)
        os.replace(target + ".part.mp4", target)
    return target


def peer_video(shared, video):
    peer = Process(peer_command(shared))
    peer.read()
    answer = peer.ask(json.dumps({"video": video}))
    answer["maxRssMiB"] = peer.close()
    return answer


def videos(assist, shared, out, paths, modes, frame_cost, repo_root):
    results = []
    speech = os.path.join(out, "speech.wav")
    for name, video in paths:
        for mode in modes:
            runs = {}
            for side in ("ours, every frame", "peer", "ours, adaptive"):
                log(f"{name}, {mode}: {side}")
                if side == "peer":
                    runs[side] = peer_video(shared, video)
                else:
                    runs[side] = run_ours_video(assist, video, mode, side.endswith("every frame"),
                                                ["--speak-to", speech, "--frame-cost", str(frame_cost)])
            seconds = runs["ours, every frame"]["videoSeconds"]
            entry = {"video": name, "mode": mode, "videoSeconds": seconds, "runs": runs}
            for side, result in runs.items():
                cpu = result["cpuSecondsAfterActivation"] if side != "peer" else result["cpuSeconds"]
                entry[f"{side} CPU-s per minute"] = cpu / seconds * 60
                entry[f"{side} frames analysed"] = result["framesAnalysed"] if side != "peer" else result["frames"]
                entry[f"{side} max RSS MiB"] = result["maxRssMiB"]
            if name == "bus":
                rule = DistanceRule(repo_root, 640, 480)
                ours_seen = runs["ours, every frame"]["busSeen"]
                check = [abs(rule.meters("bus", [b["x0"], b["y0"], b["x1"], b["y1"]]) - d) for _, b, d in ours_seen if d is not None]
                entry["distance rule port, largest difference from our --json (m)"] = max(check) if check else None
                for side in runs:
                    seen = ([(t, [b["x0"], b["y0"], b["x1"], b["y1"]], d) for t, b, d in runs[side]["busSeen"]]
                            if side != "peer" else runs[side]["busSeen"])
                    entry[f"{side} bus times"] = bus_times(seen, rule)
                    if side != "peer":
                        entry[f"{side} warnings heard"] = runs[side]["busAlerts"]
            results.append(entry)
            log(json.dumps({k: v for k, v in entry.items() if k != "runs"}, ensure_ascii=False))
    return results


# ---------------------------------------------------------------- the report

def fmt(value, digits=1):
    return "–" if value is None else f"{value:.{digits}f}"


def markdown(report, command):
    m = report["machine"]
    lines = ["<!-- ultralytics-peer -->", "## The Ultralytics package as the peer (issue 20, item 5)", "",
             f"Generated by `{command}` (bench/ultralytics_peer.py), {report['started']} to {report['finished']}, "
             f"one run; raw results in `bench-out/ultralytics-peer/ultralytics-peer.json`. Machine: {m['cpu']}, "
             f"{m['cores']} cores ({', '.join(m['flags'])}), shared with other engineers' builds: load average (1, 5, 15 min) "
             f"{', '.join(f'{v:.2f}' for v in m['loadAverage'])} at the start, "
             f"{', '.join(f'{v:.2f}' for v in report['loadAverageAtEnd'])} at the end. Ours: `{report['assist']}` "
             f"(commit {report.get('commit', '?')})."]
    pictures = report.get("pictures")
    if pictures:
        v = pictures["versions"]
        lines += ["", f"The peer: ultralytics {v['ultralytics']}, torch {v['torch']}, OpenVINO {v['openvino']} "
                  f"(compiled model: inference precision {v['inferencePrecision']}, on {', '.join(v['executionDevices'])}; "
                  f"PERFORMANCE_HINT LATENCY as its OpenVINO backend sets it), `YOLO('<shared>/{MODEL_DIR}', task='detect')`, "
                  f"in its own Python {m['python']} process. Confidence {CONFIDENCE}, NMS IoU {IOU} on every side.", "",
                  f"### Milliseconds per picture (median of {pictures['rows'][0]['runs']} runs per side, interleaved run by run)", "",
                  "Ours: `assist bench vision --serve` stage times; *whole* is the whole pipeline from reading the file (decode, "
                  "quality check, pre-process, inference, post-process, distance, sentences). Peer: the speeds it reports "
                  "(preprocess + inference + postprocess; decoding is outside them) and the wall time of each `predict(path)` call.", "",
                  "| Picture | side | input used | inference | whole | peer wall ÷ this whole | peer inference ÷ this inference | objects |",
                  "|---|---|---|---|---|---|---|---|"]
        for r in pictures["rows"]:
            picture = f"{r['image']} ({r['imageWidth']}×{r['imageHeight']})"
            for name in OUR_SIDES:
                lines.append(f"| {picture} | {name} | {r[name + ' input']} | {fmt(r[name + ' inference'])} | {fmt(r[name + ' total'])} "
                             f"| **{fmt(r['peer wall'] / r[name + ' total'], 2)}** | {fmt(r['peer inference'] / r[name + ' inference'], 2)} "
                             f"| {r[name + ' objects']} |")
            lines.append(f"| {picture} | peer | {r['peerInput']} {v['inferencePrecision']} | {fmt(r['peer inference'])} "
                         f"| {fmt(r['peer wall'])} wall ({fmt(r['peer preprocess'])} + {fmt(r['peer inference'])} + "
                         f"{fmt(r['peer postprocess'])} = {fmt(r['peer speeds summed'])} in its speeds) | – | – | {r['peer objects']} |")
        mem = pictures["maxRssMiB"]
        lines += ["", "Peak memory of these picture processes (max RSS): " +
                  ", ".join(f"{name} {value:.0f} MiB" for name, value in mem.items()) + "."]
    video_rows = report.get("videos")
    if video_rows:
        lines += ["", "### CPU-seconds per minute of 15-fps 640×480 video, and peak memory", "",
                  "| Video, mode | frames analysed: ours every frame / ours adaptive / peer | CPU-s per minute: ours, every frame | ours, adaptive | peer, every frame | peer ÷ ours, both every frame | ours adaptive ÷ peer | max RSS MiB: ours every frame / adaptive / peer |",
                  "|---|---|---|---|---|---|---|---|"]
        for e in video_rows:
            ours_every, peer, adaptive = (e[f"{s} CPU-s per minute"] for s in ("ours, every frame", "peer", "ours, adaptive"))
            lines.append(f"| {e['video']} ({e['videoSeconds']:.0f} s), {e['mode']} | {e['ours, every frame frames analysed']} / "
                         f"{e['ours, adaptive frames analysed']} / {e['peer frames analysed']} | {ours_every:.1f} | {adaptive:.1f} "
                         f"| {peer:.1f} | {peer / ours_every:.2f} | {adaptive / peer:.2f} | {e['ours, every frame max RSS MiB']:.0f} / "
                         f"{e['ours, adaptive max RSS MiB']:.0f} / {e['peer max RSS MiB']:.0f} |")
        for e in video_rows:
            if e["video"] != "bus":
                continue
            lines += ["", f"### The bus approach, {e['mode']} (input seconds)", "",
                      "| Event | ours, every frame | ours, adaptive | peer |", "|---|---|---|---|"]
            for event in ["bus detected"] + [name for name, _ in ALERT_DISTANCES]:
                lines.append(f"| first frame: {event} | " + " | ".join(
                    fmt(e[f"{side} bus times"][event], 3) for side in ("ours, every frame", "ours, adaptive", "peer")) + " |")
            for said in sorted({s for side in ("ours, every frame", "ours, adaptive") for _, s in e[f"{side} warnings heard"]},
                               key=lambda s: -int(''.join(ch for ch in s.split(",")[1] if ch.isdigit()) or 0)):
                times = [next((t for t, s in e[f"{side} warnings heard"] if s == said), None) for side in ("ours, every frame", "ours, adaptive")]
                lines.append(f"| warning heard: \"{said}\" | {fmt(times[0], 3)} | {fmt(times[1], 3)} | none (it has no warnings) |")
            lines += ["", f"Distances by our rule, ported to Python; its largest difference from the distances our --json printed for our own "
                      f"boxes on this video: {fmt(e['distance rule port, largest difference from our --json (m)'], 6)} m."]
    lines += ["<!-- /ultralytics-peer -->", ""]
    return "\n".join(lines)


# ---------------------------------------------------------------- driver

def machine():
    with open("/proc/cpuinfo") as f:
        cpuinfo = f.read()
    model = next((line.split(":", 1)[1].strip() for line in cpuinfo.splitlines() if line.startswith("model name")), "?")
    flags = sorted({flag for flag in ("avx2", "avx512f", "avx512_bf16", "amx_bf16", "amx_int8") if f" {flag}" in cpuinfo})
    return {"cpu": model, "cores": os.cpu_count(), "flags": flags, "python": platform.python_version(),
            "loadAverage": os.getloadavg()}


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "peer":
        parser = argparse.ArgumentParser()
        parser.add_argument("peer")
        parser.add_argument("--model", required=True)
        peer_main(parser.parse_args().model)
        return
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--assist", default=".build/release/assist")
    parser.add_argument("--shared", default="../shared")
    parser.add_argument("--out", default="/bench-out/ultralytics-peer")
    parser.add_argument("--runs", type=int, default=20, help="timed runs per picture and side")
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=32, help="length of the coco128 slideshow video")
    parser.add_argument("--frame-cost", type=float, default=0.04, help="as bench/adaptive.py")
    parser.add_argument("--modes", default="continuous,navigate")
    parser.add_argument("--extra-video", action="append", default=[],
                        help="a real clip (a walking video, if you have one), converted to 640x480 at 15 fps")
    parser.add_argument("--markdown", help="write the tables into this Markdown file's ultralytics-peer section")
    parser.add_argument("--from-json", help="only rewrite --markdown from a results file this script wrote")
    parser.add_argument("--skip-pictures", action="store_true")
    parser.add_argument("--skip-videos", action="store_true")
    args = parser.parse_args()
    repo_root = os.path.dirname(HERE)
    if args.from_json:
        with open(args.from_json) as f:
            report = json.load(f)
        replace_section(args.markdown, "ultralytics-peer", markdown(report, report["command"]))
        return
    os.makedirs(args.out, exist_ok=True)
    commit = subprocess.run(["git", "-C", repo_root, "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    report = {"started": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()), "machine": machine(),
              "assist": os.path.relpath(args.assist, repo_root), "commit": commit,
              "command": "scripts/bench --ultralytics-peer" + "".join(f" --extra-video={p}" for p in args.extra_video)}
    log(f"load average at the start: {report['machine']['loadAverage']}")
    if not args.skip_pictures:
        images = [os.path.join(args.shared, "data/coco128/images/train2017/000000000009.jpg"),
                  os.path.join(args.shared, "data/images/zidane.jpg")]
        report["pictures"] = pictures(args.assist, args.shared, images, args.runs, args.warmup)
    if not args.skip_videos:
        paths = [("slideshow", make_video(args.shared, os.path.join(args.out, f"slideshow-{int(args.seconds)}s.mp4"), args.seconds)),
                 ("bus", make_bus_video(args.shared, os.path.join(args.out, "bus-approach.mp4")))]
        paths += [(os.path.basename(p), to_640x480(p, args.out)) for p in args.extra_video]
        report["videos"] = videos(args.assist, args.shared, args.out, paths, args.modes.split(","), args.frame_cost, repo_root)
    report["loadAverageAtEnd"] = os.getloadavg()
    report["finished"] = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
    path = os.path.join(args.out, "ultralytics-peer.json")
    with open(path, "w") as f:
        json.dump(report, f, indent=1, ensure_ascii=False)
    log(f"wrote {path}; load average at the end: {report['loadAverageAtEnd']}")
    if args.markdown:
        replace_section(args.markdown, "ultralytics-peer", markdown(report, report["command"]))
        log(f"wrote {args.markdown}")


if __name__ == "__main__":
    main()
