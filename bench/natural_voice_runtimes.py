#!/usr/bin/env python3
"""The natural voice on each runtime, in one run of one build: resident memory after N sentences of
many lengths (does it level off?), first audio of sentences not said before, real-time factor.

For each runtime (`ASSIST_NATURAL_VOICE_RUNTIME`: onnxruntime, onnxruntime-without-arena, openvino)
and each N, `assist say --voice natural` says the first N product sentences (bench/voice_wer.py's,
drawn from the product's sentence files; each clause of at most 8 words is one inference, so N
sentences are about 2N shapes the runtime has not seen) into a WAV, and /usr/bin/time gives its
peak resident memory; then `assist say --voice natural --benchmark` gives first audio and the
real-time factor. The fast voice's memory for the same text is measured beside them.

Usage: natural_voice_runtimes.py [--assist BIN] [--counts 1,10,50,200] [--runtimes onnxruntime,...]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from voice_wer import sentences  # noqa: E402  (one definition of "product sentences")


def timed(command, environment):
    """Runs `command` under /usr/bin/time: its maximum resident set size in MB, wall time, and output."""
    with tempfile.NamedTemporaryFile(mode="r", suffix=".time") as timing:
        run = subprocess.run(["/usr/bin/time", "-f", "%M %e", "-o", timing.name] + command, check=True, env=environment,
                             stdin=subprocess.DEVNULL, capture_output=True, text=True)
        kilobytes, seconds = timing.read().split()[-2:]
    return int(kilobytes) / 1024, float(seconds), run.stdout


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--assist", default=".build/debug/assist", help="the assist binary")
    parser.add_argument("--counts", default="1,10,50,200", help="numbers of sentences said in one process (default 1,10,50,200)")
    parser.add_argument("--runtimes", default="onnxruntime,onnxruntime-without-arena,openvino",
                        help="runtimes to measure, comma-separated")
    parser.add_argument("--no-benchmark", action="store_true", help="skip `assist say --benchmark` (latency, real-time factor)")
    args = parser.parse_args()
    counts = [int(c) for c in args.counts.split(",")]
    texts = sentences(max(counts))
    wav = os.path.join(tempfile.mkdtemp(prefix="natural-runtimes-"), "out.wav")
    for runtime in ["fast"] + args.runtimes.split(","):
        environment = dict(os.environ)
        voice = "fast" if runtime == "fast" else "natural"
        if runtime != "fast":
            environment["ASSIST_NATURAL_VOICE_RUNTIME"] = runtime
        memory = []
        for count in counts:
            text = " ".join(texts[:count])
            megabytes, seconds, _ = timed([args.assist, "say", "--voice", voice, text, "--speak-to", wav], environment)
            memory.append(f"{count}: {megabytes:.1f} MB ({seconds:.1f} s)")
        print(f"{runtime}: peak resident memory after N sentences (N: MB): " + ", ".join(memory), flush=True)
        if runtime == "fast" or args.no_benchmark:
            continue
        megabytes, seconds, output = timed([args.assist, "say", "--voice", "natural", "--benchmark"], environment)
        print(f"  {runtime}: say --benchmark: peak resident memory {megabytes:.1f} MB, {seconds:.1f} s", flush=True)
        for line in output.splitlines():
            if re.match(r"(Enqueue to first|Real-time factor|Silence inside)", line):
                print(f"  {runtime}: {line}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
