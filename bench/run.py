#!/usr/bin/env python3
"""Runs every measurement of issue 9 and writes the raw results to bench-out/ as JSON.

Started by `scripts/bench` (which installs, builds and then runs this in its own process tree),
so our pipeline and the reference pipelines run on the same machine under the same load: every
ratio in BENCHMARKS.md is between numbers of one run. For vision, our pipeline and the reference
run as two long-lived processes asked for one run each in turn (`assist bench vision --serve`,
`reference_vision.py serve`), so the machine's load, which on a shared machine moves by 3× within
a minute, hits both sides of every ratio alike.

Usage: run.py --assist BIN --shared DIR --out DIR [--quick]
"""
import argparse
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import time

import cv2

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON = sys.executable
REFERENCE = os.path.join(HERE, "reference_vision.py")
SPEECH_DIR = "/usr/share/pocketsphinx/test/data/librivox"

# Ultralytics' predict defaults, used by both pipelines for the side-by-side runs.
CONFIDENCE, IOU = 0.25, 0.7
# coco128 pictures by number of labelled objects (0 … 42), so post-processing cost by work shows.
SCENES = {0: "000000000250", 1: "000000000034", 5: "000000000061", 10: "000000000089", 20: "000000000294",
          42: "000000000196"}
BUS_WIDTHS = [320, 640, 1280, 1920, 4000]
IDLE_GAP_SECONDS = 0.05   # between interleaved vision runs (see Server.sample)


def log(message):
    print(f"bench: {message}", file=sys.stderr, flush=True)


def run_json(cmd, **kwargs):
    """Runs a command and parses its standard output as JSON (stderr passes through)."""
    out = subprocess.run(cmd, check=True, stdout=subprocess.PIPE, text=True, **kwargs).stdout
    return json.loads(out)


def timed_wait(cmd, env=None, first_line=False):
    """Starts cmd; returns (seconds to the first stdout line or to exit, max RSS in MiB, exit status).

    os.wait4 gives this child's own rusage, so max RSS is the process's peak resident memory.
    """
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True)
    seconds = None
    if first_line:
        proc.stdout.readline()
        seconds = time.perf_counter() - start
    proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    if seconds is None:
        seconds = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    return seconds, usage.ru_maxrss / 1024, proc.returncode


# ---------------------------------------------------------------- inputs

def make_inputs(shared, out, widths):
    """Resized copies of bus.jpg (INTER_AREA, JPEG quality 95) at each width, aspect ratio kept."""
    folder = os.path.join(out, "images")
    os.makedirs(folder, exist_ok=True)
    bus = cv2.imread(os.path.join(shared, "data/images/bus.jpg"))
    paths = []
    for width in widths:
        path = os.path.join(folder, f"bus_{width}.jpg")
        if not os.path.exists(path):
            height = round(bus.shape[0] * width / bus.shape[1])
            interpolation = cv2.INTER_AREA if width < bus.shape[1] else cv2.INTER_CUBIC
            cv2.imwrite(path, cv2.resize(bus, (width, height), interpolation=interpolation),
                        [cv2.IMWRITE_JPEG_QUALITY, 95])
        paths.append(path)
    # A lossless copy: FFmpeg and OpenCV decode PNG to the same pixels, so any difference in the
    # detections on it comes from pre-processing, inference or NMS, not from JPEG decoding.
    png = os.path.join(folder, "bus_640.png")
    if not os.path.exists(png):
        cv2.imwrite(png, cv2.resize(bus, (640, round(bus.shape[0] * 640 / bus.shape[1])), interpolation=cv2.INTER_AREA))
    return paths + [png]


def subset_dataset(shared, out, count):
    """A YOLO dataset folder with the first `count` coco128 pictures (copies: the dataset reader skips symbolic links), for --quick."""
    source = os.path.join(shared, "data/coco128")
    if count is None:
        return source
    target = os.path.join(out, f"coco{count}")
    shutil.rmtree(target, ignore_errors=True)
    for kind in ("images", "labels"):
        os.makedirs(os.path.join(target, kind, "train2017"))
    for name in sorted(os.listdir(os.path.join(source, "images/train2017")))[:count]:
        stem = os.path.splitext(name)[0]
        shutil.copy(os.path.join(source, "images/train2017", name), os.path.join(target, "images/train2017", name))
        label = os.path.join(source, "labels/train2017", stem + ".txt")
        if os.path.exists(label):
            shutil.copy(label, os.path.join(target, "labels/train2017", stem + ".txt"))
    return target


# ---------------------------------------------------------------- vision

class Server:
    """A pipeline kept running that answers one picture path with one JSON sample line."""

    def __init__(self, cmd):
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def sample(self, path):
        # A short idle gap first: ONNX Runtime's and OpenVINO's worker threads spin for a while after
        # a run, and on 2 cores the spin of the process that ran last would slow whichever runs next.
        time.sleep(IDLE_GAP_SECONDS)
        self.proc.stdin.write(path + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"{self.proc.args[0]} stopped answering")
        return json.loads(line)

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


def stage_stats(samples):
    """Median and p95 (nearest rank, as the Swift side computes them) per stage over the samples."""
    stages = []
    for stage in samples[0]["milliseconds"]:
        values = sorted(s["milliseconds"][stage] for s in samples)
        n = len(values)
        stages.append({"stage": stage, "medianMilliseconds": (values[(n - 1) // 2] + values[n // 2]) / 2,
                       "percentile95Milliseconds": values[min(n - 1, -(-n * 95 // 100) - 1)]})
    return stages


def vision_interleaved(assist, models, images, runs, warmup):
    """Our pipeline and each reference kept running side by side, asked for one run each in turn.

    Run i of ours and run i of the reference are milliseconds apart, so a change in machine load
    hits both; the order within a turn alternates so neither always runs right after the other.
    """
    results = []
    for model_path, backends in models:
        # The reference letterboxes to the model's square, so ours does too: same input, comparable detections.
        servers = {"ours": Server([assist, "bench", "vision", "--serve", "--input-shape", "square", "--model", model_path,
                                   "--confidence", str(CONFIDENCE), "--iou", str(IOU)])}
        meta = {}
        for backend in backends:
            servers[backend] = Server([PYTHON, REFERENCE, "serve", "--backend", backend, "--model", model_path,
                                       "--conf", str(CONFIDENCE), "--iou", str(IOU)])
            meta[backend] = json.loads(servers[backend].proc.stdout.readline())
        for image in images:
            log(f"vision: {os.path.basename(model_path)} on {os.path.basename(image)} (interleaved)")
            samples = {name: [] for name in servers}
            order = list(servers)
            for run in range(warmup + runs):
                for name in (order if run % 2 == 0 else order[::-1]):
                    sample = servers[name].sample(image)
                    if run >= warmup:
                        samples[name].append(sample)
            def summary(name):
                last = samples[name][-1]
                return {"image": os.path.basename(image), "imageWidth": last["imageWidth"],
                        "imageHeight": last["imageHeight"], "runs": runs, "stages": stage_stats(samples[name]),
                        "detections": last["detections"]}
            results.append({"model": os.path.basename(model_path), "image": os.path.basename(image),
                            "ours": summary("ours"),
                            "references": {b: {**summary(b), **meta[b]} for b in backends}})
        for server in servers.values():
            server.close()
    return results


def vision(assist, models, images, runs, warmup):
    """Per model and picture: our pipeline, then each reference backend, same picture, same settings."""
    results = []
    for model_path, backends in models:
        for image in images:
            log(f"vision: {os.path.basename(model_path)} on {os.path.basename(image)}")
            ours = run_json([assist, "bench", "vision", image, "--model", model_path, "--runs", str(runs),
                             "--warmup", str(warmup), "--confidence", str(CONFIDENCE), "--iou", str(IOU), "--json"])[0]
            entry = {"model": os.path.basename(model_path), "image": os.path.basename(image), "ours": ours,
                     "references": {}}
            for backend in backends:
                ref = run_json([PYTHON, REFERENCE, "time", "--backend", backend, "--model", model_path, "--runs",
                                str(runs), "--warmup", str(warmup), "--conf", str(CONFIDENCE), "--iou", str(IOU), image])
                entry["references"][backend] = {**ref["results"][0], "version": ref["version"],
                                                "precision": ref["precision"]}
            results.append(entry)
    return results


def accuracy(assist, models, dataset):
    """mAP50-95 / mAP50 of our evaluator and of the reference pipeline + NumPy Ultralytics metrics."""
    rows = []
    for model_path, backends in models:
        log(f"accuracy: {os.path.basename(model_path)} on {os.path.basename(dataset)}")
        start = time.perf_counter()
        ours = run_json([assist, "eval", "detection", dataset, "--input-shape", "square", "--model", model_path, "--json"],
                        stderr=subprocess.DEVNULL)
        ours_seconds = time.perf_counter() - start
        row = {"model": os.path.basename(model_path), "ours": {**ours["accuracy"], "seconds": ours_seconds},
               "references": {}}
        for backend in backends:
            ref = run_json([PYTHON, REFERENCE, "eval", "--backend", backend, "--model", model_path, dataset])
            row["references"][backend] = ref["accuracy"]
        rows.append(row)
    return rows


def distance(assist):
    log("accuracy: geometric distance vs depth frames")
    return run_json([assist, "eval", "distance", "--json"])


# ---------------------------------------------------------------- hearing

HEAR_LINE = re.compile(r"(\d) ear chains? at 48 kHz, (\d+)-frame blocks: real-time factor ([\d.]+) of one core "
                       r"\(wall clock\), ([\d.]+) \(thread CPU time\); block time 99.9th percentile ([\d.]+) µs, worst ([\d.]+) µs, of a ([\d.]+) µs period")
LATENCY_LINE = re.compile(r"Algorithmic latency at (\d+) Hz: (\d+) samples = ([\d.]+) ms \(impulse\), plus (\d+)-frame "
                          r"block buffering = ([\d.]+) ms")


def hearing_speed(assist, audiogram, seconds):
    """`assist hear bench`: latency, real-time factor and block times for 1, 2, 4 ear chains at 48 kHz."""
    log("hearing: chain speed")
    text = subprocess.run([assist, "hear", "bench", "--audiogram", audiogram, "--seconds", str(seconds)],
                          check=True, stdout=subprocess.PIPE, text=True).stdout
    chains = [{"chains": int(m[1]), "blockFrames": int(m[2]), "realTimeFactor": float(m[3]),
               "cpuRealTimeFactor": float(m[4]), "p999Microseconds": float(m[5]), "worstMicroseconds": float(m[6]),
               "periodMicroseconds": float(m[7])}
              for m in HEAR_LINE.finditer(text)]
    latency = [{"sampleRate": int(m[1]), "samples": int(m[2]), "milliseconds": float(m[3]), "blockFrames": int(m[4]),
                "blockMilliseconds": float(m[5])} for m in LATENCY_LINE.finditer(text)]
    return {"chains": chains, "latency": latency, "secondsPerMeasurement": seconds, "raw": text}


def speech_quality(assist, out, snrs, files, stoi_only=False):
    log("hearing: speech quality (HASPI/HASQI/STOI); this is the slow part")
    speech = [os.path.join(SPEECH_DIR, f) for f in files]
    return run_json([PYTHON, os.path.join(HERE, "speech_quality.py"), "--assist", assist, "--work",
                     os.path.join(out, "speech"), "--snr", *map(str, snrs), *(["--stoi-only"] if stoi_only else []),
                     "--", *speech])


# ---------------------------------------------------------------- start-up

def startup(assist, shared, out, repeats):
    """Launch → first sentence of `assist see bus.jpg`: cold cache, warm cache, cache off; and the reference's."""
    log("start-up")
    bus = os.path.join(shared, "data/images/bus.jpg")
    results = {"cold": [], "warm": [], "noCache": [], "referenceOpenVINO": [], "referenceOnnxRuntime": []}
    for i in range(repeats):
        cache = os.path.join(out, "startup-cache", str(i))
        shutil.rmtree(cache, ignore_errors=True)
        os.makedirs(cache)
        env = {**os.environ, "XDG_CACHE_HOME": cache}
        results["cold"].append(timed_wait([assist, "see", bus], env, first_line=True))
        results["warm"].append(timed_wait([assist, "see", bus], env, first_line=True))
        results["noCache"].append(timed_wait([assist, "see", bus, "--no-model-cache"], env, first_line=True))
        ir = os.path.join(shared, "models/yolo11n_int8_openvino_model/yolo11n.xml")
        onnx = os.path.join(shared, "models/yolo11n_320_int8dyn.onnx")
        results["referenceOpenVINO"].append(timed_wait([PYTHON, REFERENCE, "once", "--backend", "openvino", "--model",
                                                        ir, bus], first_line=True))
        results["referenceOnnxRuntime"].append(timed_wait([PYTHON, REFERENCE, "once", "--backend", "onnxruntime",
                                                           "--model", onnx, bus], first_line=True))
    return {k: [{"seconds": s, "maxRSSMiB": m, "status": st} for s, m, st in v] for k, v in results.items()}


def steady_memory(assist, shared, runs):
    """Peak RSS of a process that describes bus.jpg `runs` times (steady state), ours and the reference's."""
    log("memory at steady state")
    bus = os.path.join(shared, "data/images/bus.jpg")
    ir = os.path.join(shared, "models/yolo11n_int8_openvino_model/yolo11n.xml")
    _, ours, _ = timed_wait([assist, "bench", "vision", bus, "--runs", str(runs), "--json"])
    _, ref, _ = timed_wait([PYTHON, REFERENCE, "time", "--backend", "openvino", "--model", ir, "--runs", str(runs), bus])
    return {"runs": runs, "oursMiB": ours, "referenceOpenVINOMiB": ref}


# ---------------------------------------------------------------- machine

def machine():
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), "?")
    mem = next((int(line.split()[1]) // 1024 for line in open("/proc/meminfo") if line.startswith("MemTotal")), 0)
    swift = subprocess.run(["swift", "--version"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True).stdout
    return {"cpu": cpu, "cores": os.cpu_count(), "memoryMiB": mem, "kernel": platform.release(),
            "os": next((l.split("=", 1)[1].strip().strip('"') for l in open("/etc/os-release")
                        if l.startswith("PRETTY_NAME=")), "?"),
            "swift": swift.splitlines()[0] if swift else "?", "python": platform.python_version(),
            "loadAverage": os.getloadavg(), "date": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--assist", required=True)
    parser.add_argument("--shared", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--command", default="scripts/bench")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    started = time.perf_counter()
    quick = args.quick
    shared, out, assist = args.shared, args.out, args.assist
    ir = os.path.join(shared, "models/yolo11n_int8_openvino_model/yolo11n.xml")
    onnx = os.path.join(shared, "models/yolo11n_320_int8dyn.onnx")
    # OpenVINO's Python API on the ONNX model too: same runtime as ours, so ours vs it isolates our own
    # stages, and it vs ONNX Runtime isolates the runtime.
    models = [(ir, ["openvino"]), (onnx, ["onnxruntime", "openvino"])]
    widths = [640, 4000] if quick else BUS_WIDTHS
    scenes = [0, 20] if quick else list(SCENES)
    images = make_inputs(shared, out, widths) + [
        os.path.join(shared, "data/coco128/images/train2017", SCENES[n] + ".jpg") for n in scenes]
    runs, warmup = (5, 1) if quick else (30, 3)

    result = {"quick": quick, "command": args.command + (" --quick" if quick else ""), "machineBefore": machine(),
              "settings": {"confidence": CONFIDENCE, "iou": IOU, "runs": runs, "warmup": warmup,
                           "sceneLabels": {SCENES[n] + ".jpg": n for n in scenes}}}

    def step(name, fn, *a):
        t = time.perf_counter()
        result[name] = fn(*a)
        result.setdefault("stepSeconds", {})[name] = time.perf_counter() - t
        with open(os.path.join(out, "results.json"), "w") as f:
            json.dump(result, f, indent=1)

    step("vision", vision_interleaved, assist, models, images, runs, warmup)
    step("accuracy", accuracy, assist, [(ir, ["openvino"]), (onnx, ["onnxruntime"])],
         subset_dataset(shared, out, 16 if quick else None))
    step("distance", distance, assist)
    audiogram = os.path.join(out, "sloping.json")
    sys.path.insert(0, HERE)
    import speech_quality
    speech_quality.audiogram_json(audiogram)
    step("hearingSpeed", hearing_speed, assist, audiogram, 2 if quick else 10)
    step("speechQuality", speech_quality_step, assist, out, quick)
    step("startup", startup, assist, shared, out, 1 if quick else 3)
    step("memory", steady_memory, assist, shared, 5 if quick else 30)
    result["machineAfter"] = machine()
    result["totalSeconds"] = time.perf_counter() - started
    with open(os.path.join(out, "results.json"), "w") as f:
        json.dump(result, f, indent=1)


def speech_quality_step(assist, out, quick):
    if quick:
        return speech_quality(assist, out, [5], ["sense_and_sensibility_01_austen_64kb-0880.wav"], stoi_only=True)
    return speech_quality(assist, out, [0, 5, 10], ["sense_and_sensibility_01_austen_64kb-0870.wav"])


if __name__ == "__main__":
    main()
