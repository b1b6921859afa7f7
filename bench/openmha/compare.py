#!/usr/bin/env python3
"""Our hearing chain beside openMHA on the same input and the same fitting (issue 17, section 2).

Both get: bench/speech_quality.py's sloping audiogram (NAL-R, both ears), fitted by our
prescription and handed to openMHA as its `dc` plugin's gain table (OpenMHAConfiguration, written
by `assist hear bench --openmha-configuration`), 48 kHz stereo files, 64-frame blocks, a
256-point analysis window. Measured from the output files of each program:
  * insertion gain per band: 1 s tones at 65 dB SPL, one band centre after the other, amplitude
    over the tone's last 0.4 s; against the NAL-R target at 65 dB SPL;
  * latency: the lag of the cross-correlation peak between input and output for 65 dB SPL
    speech-shaped noise (both chains are linear-phase filterbanks, so it is their delay);
  * processing time: user+system CPU seconds for 60 s of speech (LibriVox files from
    pocketsphinx-testdata), minus that of a 1 s file (start-up, file I/O set-up), per second of audio.

Build the peer first (outside the repository): bench/openmha/build_peer.sh OPENMHA_CLONE
Usage: bench/openmha/compare.py --assist .build/release/assist --peer /work/openmha-build --out /bench-out/openmha
Prints a Markdown table and writes results.json in --out.
"""
import argparse
import json
import os
import re
import resource
import subprocess
import sys

import warnings

import numpy as np
from scipy.io import wavfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import speech_quality  # noqa: E402  (same audiogram, speech files and level scale as the quality bench)

RATE = 48_000
BANDS = [250, 500, 750, 1000, 1500, 2000, 3000, 4000, 6000, 8000]
FULL_SCALE_SINE_SPL = 110.0
SPEECH_DIR = "/usr/share/pocketsphinx/test/data/librivox"  # pocketsphinx-testdata, as bench/run.py
# `assist hear` raises its gain over 2 s after start (no surprise loud first sound); the tones
# start after this lead-in of silence so both chains are measured at full gain.
LEAD_SECONDS = 2.5  # LevelCalibration's default: a full-scale sine is 110 dB SPL


def write_stereo(path, x):
    wavfile.write(path, RATE, np.stack([x, x], axis=1).astype(np.float32))


def read_left(path):
    with warnings.catch_warnings():  # openMHA's files carry a chunk scipy does not know
        warnings.simplefilter("ignore")
        rate, y = wavfile.read(path)
    assert rate == RATE, f"{path}: {rate} Hz"
    y = y.astype(np.float64)
    if y.dtype.kind == "i" or np.abs(y).max() > 2:
        y = y / 32768.0
    return y[:, 0] if y.ndim > 1 else y


def tone_amplitude(y, f, start, stop):
    n = np.arange(start, stop)
    s = y[start:stop]
    c, d = np.sin(2 * np.pi * f * n / RATE), np.cos(2 * np.pi * f * n / RATE)
    return 2 * np.hypot(np.dot(s, c), np.dot(s, d)) / len(n)


class Peer:
    aligned_frames = 0  # openMHA writes its output as it comes, delay included

    """openMHA's `mha` host with the generated configuration, one run per input file."""

    def __init__(self, build, cfg, out):
        self.env = dict(os.environ)
        for line in open(os.path.join(build, "env.sh")):
            key, _, value = line.strip().removeprefix("export ").partition("=")
            self.env[key] = os.path.expandvars(value.strip('"').replace("$PATH", self.env.get("PATH", ""))
                                               .replace("${LD_LIBRARY_PATH:-}", self.env.get("LD_LIBRARY_PATH", "")))
        self.cfg, self.out = cfg, out

    def command(self, src, dst):
        return ["mha", f"?read:{self.cfg}", f"io.in={src}", f"io.out={dst}", "cmd=start", "cmd=quit"]

    def run(self, src, dst):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(self.command(src, dst), check=True, env=self.env, cwd=self.out,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


class Ours:
    # `assist hear process` aligns its output file with the input (drops the chain's delay, which
    # it reports as "latency X ms"); that delay is added back to the measured lag.
    def __init__(self, assist, audiogram):
        self.assist, self.audiogram = assist, audiogram
        self.aligned_frames = 0

    def run(self, src, dst):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run([self.assist, "hear", "process", src, "-o", dst, "--audiogram", self.audiogram],
                              check=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        found = re.search(r"latency ([\d.]+) ms", done.stdout)
        self.aligned_frames = round(float(found[1]) * RATE / 1000) if found else 0
        return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(chain, out, name, files):
    result = {}
    tones_out = os.path.join(out, f"{name}-tones.wav")
    chain.run(files["tones"], tones_out)
    y = read_left(tones_out)
    result["gain65"] = {}
    for i, f in enumerate(BANDS):
        start, stop = int((LEAD_SECONDS + i + 0.6) * RATE), int((LEAD_SECONDS + i + 1) * RATE)
        result["gain65"][f] = 20 * np.log10(tone_amplitude(y, f, start, stop) / files["toneAmplitude"])
    noise_out = os.path.join(out, f"{name}-noise.wav")
    chain.run(files["noise"], noise_out)
    x, y = files["noiseSignal"], read_left(noise_out)[: len(files["noiseSignal"])]
    spectrum = np.fft.irfft(np.fft.rfft(y, 2 * len(x)) * np.conj(np.fft.rfft(x, 2 * len(x))))
    result["latencyFrames"] = int(np.argmax(np.abs(spectrum[: RATE // 10]))) + chain.aligned_frames
    long_cpu = chain.run(files["speech"], os.path.join(out, f"{name}-speech.wav"))
    short_cpu = chain.run(files["short"], os.path.join(out, f"{name}-short.wav"))
    result["cpuSecondsSpeech"], result["cpuSecondsShort"] = long_cpu, short_cpu
    result["realTimeFactor"] = (long_cpu - short_cpu) / (files["speechSeconds"] - 1)
    return result


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--assist", required=True, help="assist binary (release build for speed numbers)")
    ap.add_argument("--peer", default="/work/openmha-build", help="openMHA build folder from build_peer.sh")
    ap.add_argument("--out", default="/bench-out/openmha")
    ap.add_argument("--speech-seconds", type=float, default=60)
    args = ap.parse_args()
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    audiogram = os.path.join(out, "sloping.json")
    speech_quality.audiogram_json(audiogram)
    prefix = os.path.join(out, "fit")
    subprocess.run([args.assist, "hear", "bench", "--audiogram", audiogram, "--openmha-configuration", prefix], check=True)
    targets = json.load(open(prefix + ".targets.json"))["left"]

    amplitude = 10 ** ((65 - FULL_SCALE_SINE_SPL) / 20)
    t = np.arange(RATE) / RATE
    files = {"toneAmplitude": amplitude}
    files["tones"] = os.path.join(out, "tones.wav")
    lead = np.zeros(int(LEAD_SECONDS * RATE))
    write_stereo(files["tones"], np.concatenate([lead] + [amplitude * np.sin(2 * np.pi * f * t) for f in BANDS]))
    rng = np.random.default_rng(5)
    noise = rng.standard_normal(6 * RATE)
    noise *= 10 ** ((65 - FULL_SCALE_SINE_SPL - 3.0103) / 20) / np.sqrt(np.mean(noise ** 2))
    files["noise"], files["noiseSignal"] = os.path.join(out, "noise.wav"), noise
    write_stereo(files["noise"], noise)
    speech = speech_quality.load_speech([os.path.join(SPEECH_DIR, f) for f in sorted(os.listdir(SPEECH_DIR))
                                         if f.endswith(".wav")])
    reps = int(np.ceil(args.speech_seconds * RATE / len(speech)))
    speech = np.tile(speech, reps)[: int(args.speech_seconds * RATE)]
    files["speech"], files["speechSeconds"] = os.path.join(out, "speech.wav"), args.speech_seconds
    write_stereo(files["speech"], speech)
    files["short"] = os.path.join(out, "short.wav")
    write_stereo(files["short"], speech[:RATE])

    results = {"targets65": targets,
               "ours": measure(Ours(args.assist, audiogram), out, "ours", files),
               "openMHA": measure(Peer(args.peer, prefix + ".cfg", out), out, "openmha", files)}
    with open(os.path.join(out, "results.json"), "w") as f:
        json.dump(results, f, indent=1, default=float)

    rows = ["| | " + " | ".join(f"{f} Hz" for f in BANDS) + " | mean abs error | latency | real-time factor (CPU s per s, stereo) |",
            "|---|" + "---|" * (len(BANDS) + 3),
            "| NAL-R target at 65 dB SPL | " + " | ".join(f"{targets[str(f)]:.1f}" for f in BANDS) + " | | | |"]
    for name in ("ours", "openMHA"):
        r = results[name]
        errors = [r["gain65"][f] - targets[str(f)] for f in BANDS if f <= 6000]
        rows.append(f"| {name} | " + " | ".join(f"{r['gain65'][f]:.1f}" for f in BANDS)
                    + f" | {np.mean(np.abs(errors)):.2f} dB (250–6000 Hz) | {r['latencyFrames']} frames = "
                    f"{r['latencyFrames'] / RATE * 1000:.2f} ms | {r['realTimeFactor']:.4f} |")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
