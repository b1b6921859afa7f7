#!/usr/bin/env python3
"""Issue 20's per-frame target, each side measured alone: ms per picture of `assist bench vision
--serve` (the product's defaults) against the Ultralytics package's `predict`, with only one of the
two processes alive at a time.

Why beside bench/ultralytics_peer.py: that script keeps four processes alive and asks them in turn.
On a 2-core machine OpenVINO's worker threads go on spinning for a while after each inference, so
whichever side is asked next shares the cores with the last one's spinning threads (measured
2026-11-25 on an idle machine: our whole pipeline took 51.7 ms per picture there against 9.9 ms
alone, the peer 35.9 against 14.6). A wearable runs one of them, alone.

Blocks alternate, ours, peer, ours, peer, so a change in the machine's load shows as a difference
between a side's two blocks. Run with the benchmark's environment (it imports ultralytics):
    .deps/bench-ultralytics/bin/python bench/peer_alone.py [--runs 30]
(`scripts/bench --ultralytics-peer` makes that environment).
"""
import argparse
import json
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import ultralytics_peer as peer_bench  # noqa: E402


def block(name, command, images, runs, warmup):
    """Median and fastest milliseconds per picture for one side, its process alone."""
    process = peer_bench.Process(command)
    if name == "peer":
        process.read()   # its versions line
    result = {}
    for image in images:
        values = []
        for run in range(warmup + runs):
            answer = process.ask(json.dumps({"picture": image}) if name == "peer" else image)
            if run >= warmup:
                values.append(answer["wallMilliseconds"] if name == "peer" else answer["milliseconds"]["total"])
        result[os.path.basename(image)] = (statistics.median(values), min(values))
    process.close()
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--assist", default=".build/release/assist")
    parser.add_argument("--shared", default="../shared")
    parser.add_argument("--runs", type=int, default=30, help="timed runs per picture in each block")
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=2, help="blocks per side, alternating")
    args = parser.parse_args()
    images = [os.path.join(args.shared, "data/coco128/images/train2017/000000000009.jpg"),
              os.path.join(args.shared, "data/images/zidane.jpg")]
    settings = ["--confidence", str(peer_bench.CONFIDENCE), "--iou", str(peer_bench.IOU)]
    sides = {"ours": [args.assist, "bench", "vision", "--serve", *settings], "peer": peer_bench.peer_command(args.shared)}
    print(f"load average at the start: {os.getloadavg()}", flush=True)
    results = {name: [] for name in sides}
    for round_ in range(args.rounds):
        for name, command in sides.items():
            results[name].append(block(name, command, images, args.runs, args.warmup))
            for image, (middle, fastest) in results[name][-1].items():
                print(f"round {round_ + 1}, {name}, {image}: median {middle:.2f} ms, fastest {fastest:.2f} ms", flush=True)
    for image in (os.path.basename(i) for i in images):
        ratios = [p[image][0] / o[image][0] for o, p in zip(results["ours"], results["peer"])]
        print(f"{image}: the peer's median over ours, per round: " + ", ".join(f"{r:.2f}×" for r in ratios))
    print(f"load average at the end: {os.getloadavg()}")


if __name__ == "__main__":
    main()
