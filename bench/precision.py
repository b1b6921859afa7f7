#!/usr/bin/env python3
"""Issue 20 §4's speed measurement: f32 against bf16 inference, interleaved run by run.

Starts one `assist bench vision --serve` per variant (each with its own compiled model) and sends
the same 4:3 picture to each in turn, rotating the order every round, so every variant sees the
same machine load. Variants: f32, bf16, and `--precision auto` (what runs by default here), plus
f32 with oneDNN capped at AVX2 (`ONEDNN_MAX_CPU_ISA=AVX2`: the kernels an AVX2-only CPU runs, as
near as this machine can come; OpenVINO still believes the CPU has bf16, so bf16 is not tried
there: it fails to compile). Prints the median and p95 of raw inference and of the pipeline's
inference stage per variant, with the load average before and after. Standard library only; not a test.

  bench/precision.py [--assist .build/debug/assist] [--picture P] [--input-shape S] [--runs 20] [--warmup 3]

`--layers` instead asks OpenVINO (the pinned wheel in .deps/openvino) what each compiled model runs
in, layer by layer: for no hint, f32 and bf16, the reported INFERENCE_PRECISION_HINT and the executed
layers by runtime precision (the runtime model's `runtimePrecision`), so what ran is told, not what
was asked. `ONEDNN_MAX_CPU_ISA=AVX2 bench/precision.py --layers` shows the capped run.
"""
import argparse
import json
import os
import statistics
import subprocess

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--assist", default=".build/debug/assist")
parser.add_argument("--picture", default="../shared/data/coco128/images/train2017/000000000009.jpg")
parser.add_argument("--runs", type=int, default=20)
parser.add_argument("--warmup", type=int, default=3)
parser.add_argument("--input-shape", default="rectangular-padded", help="the detector input shape every variant runs at")
parser.add_argument("--layers", action="store_true", help="print what OpenVINO compiled each hint to, layer by layer")
parser.add_argument("--model", default="../shared/models/yolo11n_int8_openvino_model/yolo11n.xml")
args = parser.parse_args()

if args.layers:
    import sys
    from collections import Counter
    sys.path.insert(0, ".deps/openvino")
    import openvino
    core = openvino.Core()
    print("OpenVINO", openvino.__version__, "CPU capabilities:", core.get_property("CPU", "OPTIMIZATION_CAPABILITIES"))
    model = core.read_model(args.model)
    for hint in ["none", "f32", "bf16"]:
        try:
            compiled = core.compile_model(model, "CPU", {} if hint == "none" else {"INFERENCE_PRECISION_HINT": hint})
        except Exception as error:
            reason = next((line for line in str(error).splitlines() if "failed" in line), str(error).strip())
            print(f"hint {hint}: does not compile: {reason}")
            continue
        layers = Counter()
        for op in compiled.get_runtime_model().get_ops():
            info = op.get_rt_info()
            if info["layerType"].astype(str) not in ("Const", "Input", "Output", "Parameter", "Result"):
                layers[info["runtimePrecision"].astype(str)] += 1
        print(f"hint {hint}: reported {compiled.get_property('INFERENCE_PRECISION_HINT')}, executed layers by precision "
              f"{dict(layers)} of {sum(layers.values())}")
    raise SystemExit(0)

variants = {
    "f32": (["--precision", "f32"], {}),
    "bf16": (["--precision", "bf16"], {}),
    "auto": (["--precision", "auto"], {}),
    "f32, oneDNN capped at AVX2": (["--precision", "f32"], {"ONEDNN_MAX_CPU_ISA": "AVX2"}),
}
servers = {}
for name, (options, environment) in variants.items():
    servers[name] = subprocess.Popen([args.assist, "bench", "vision", "--serve", "--input-shape", args.input_shape, *options], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, env={**os.environ, **environment})

def ask(server):
    server.stdin.write(args.picture + "\n")
    server.stdin.flush()
    line = server.stdout.readline()
    if not line:
        raise SystemExit("a server ended early (see its error above)")
    return json.loads(line)["milliseconds"]

load_before = os.getloadavg()
samples = {name: {"raw inference": [], "inference": []} for name in variants}
names = list(variants)
for run in range(args.warmup + args.runs):
    order = names[run % len(names):] + names[:run % len(names)]
    for name in order:
        milliseconds = ask(servers[name])
        if run >= args.warmup:
            for stage in samples[name]:
                samples[name][stage].append(milliseconds[stage])
load_after = os.getloadavg()
for server in servers.values():
    server.stdin.close()
    server.wait()

def p95(values):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, -(-len(ordered) * 95 // 100) - 1)]

print(f"{args.picture} at {args.input_shape} input, {args.runs} runs each after {args.warmup} warm-up, interleaved; "
      f"load average {load_before[0]:.1f} before, {load_after[0]:.1f} after")
print(f"{'variant':30} {'raw inference median / p95':>28} {'inference median / p95':>24}")
for name in names:
    raw, inference = samples[name]["raw inference"], samples[name]["inference"]
    print(f"{name:30} {statistics.median(raw):12.1f} / {p95(raw):6.1f} ms {statistics.median(inference):10.1f} / {p95(inference):6.1f} ms")
