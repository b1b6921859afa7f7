#!/usr/bin/env python3
"""Quality of aided speech in noise: HASPI v2, HASQI v2 (pyclarity) and STOI (pystoi).

Real recorded speech (Debian's pocketsphinx-testdata: LibriVox read speech, 16 kHz) is resampled to
48 kHz, set to 65 dB SPL (conversational speech) and mixed with stationary speech-shaped noise (white
noise filtered to the speech's own long-term spectrum, a fixed seed) at each SNR. Each mix is scored
unprocessed, and after `assist bench hearing-file` with noise reduction on and bypassed, for the same
sloping-loss audiogram. The clean speech at 65 dB SPL is the reference for every score.

Levels follow the chain's calibration: a full-scale sine is 110 dB SPL at the microphone and at the
headphone (LevelCalibration's default), so a signal of RMS 1 is 113.01 dB SPL — that is HASPI's and
HASQI's `level1`. The aided signal is thus scored at the level the listener would hear it.

Usage: speech_quality.py --assist BIN --audiogram A.json --work DIR [--snr 0 5 10] SPEECH.wav... > result.json
"""
import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np
from scipy.io import wavfile
from scipy.signal import resample_poly

RATE = 48_000
FULL_SCALE_SINE_SPL = 110.0                       # LevelCalibration default (dB SPL)
RMS_ONE_SPL = FULL_SCALE_SINE_SPL + 20 * np.log10(np.sqrt(2))
SPEECH_SPL = 65.0
# The sloping loss scored here (dB HL), also written as the chain's audiogram JSON.
SLOPING_LOSS = {250: 20, 500: 30, 1000: 40, 2000: 55, 4000: 65, 6000: 70, 8000: 70}


def audiogram_json(path):
    """Writes the sloping loss as `assist hear` audiogram JSON (NAL-R, both ears alike)."""
    ear = {"thresholds": {str(f): v for f, v in SLOPING_LOSS.items()}}
    with open(path, "w") as f:
        json.dump({"rule": "nal-r", "left": ear, "right": ear}, f)


def load_speech(paths):
    """Reads 16-bit speech files, joins them with 0.3 s gaps, resamples to 48 kHz, sets 65 dB SPL."""
    parts = []
    for p in paths:
        rate, x = wavfile.read(p)
        x = x.astype(np.float64) / 32768.0
        if x.ndim > 1:
            x = x.mean(1)
        parts += [resample_poly(x, RATE, rate), np.zeros(int(0.3 * RATE))]
    speech = np.concatenate(parts)
    return speech * level_gain(speech, SPEECH_SPL)


def level_gain(x, spl):
    return 10 ** ((spl - RMS_ONE_SPL) / 20) / np.sqrt(np.mean(x ** 2))


def speech_shaped_noise(speech, seed=9):
    """Stationary noise with the speech's long-term magnitude spectrum and random phase."""
    spectrum = np.abs(np.fft.rfft(speech))
    smooth = np.convolve(spectrum, np.ones(257) / 257, mode="same")
    phase = np.exp(2j * np.pi * np.random.default_rng(seed).random(smooth.shape))
    return np.fft.irfft(smooth * phase, n=len(speech))


def mix(speech, noise, snr_db):
    noise = noise * np.sqrt(np.mean(speech ** 2) / np.mean(noise ** 2)) * 10 ** (-snr_db / 20)
    return speech + noise


def process(assist, audiogram, mixture_path, out_path, noise_reduction):
    """Runs the chain (program conversation-in-noise) on a file; returns the left ear and seconds taken."""
    cmd = [assist, "bench", "hearing-file", mixture_path, "-o", out_path, "--audiogram", audiogram,
           "--program", "conversation-in-noise"]
    if not noise_reduction:
        cmd.append("--no-noise-reduction")
    start = time.perf_counter()
    subprocess.run(cmd, check=True)
    seconds = time.perf_counter() - start
    _, y = wavfile.read(out_path)
    return y[:, 0].astype(np.float64), seconds


def scores(reference, signal, metrics):
    """HASPI v2, HASQI v2 and STOI of one signal against the clean reference (missing metrics are None)."""
    from pystoi import stoi
    result = {"stoi": float(stoi(reference, signal, RATE, extended=False))}
    if metrics.get("clarity"):
        from clarity.evaluator.haspi import haspi_v2
        from clarity.evaluator.hasqi import hasqi_v2
        from clarity.utils.audiogram import Audiogram
        audiogram = Audiogram(levels=np.array(list(SLOPING_LOSS.values()), dtype=float),
                              frequencies=np.array(list(SLOPING_LOSS.keys()), dtype=float))
        try:
            result["haspi"] = float(haspi_v2(reference, RATE, signal, RATE, audiogram, level1=RMS_ONE_SPL)[0])
            result["hasqi"] = float(hasqi_v2(reference, RATE, signal, RATE, audiogram, level1=RMS_ONE_SPL)[0])
        except Exception as error:  # keep STOI and say why instead of losing the whole benchmark
            result["clarityError"] = f"{type(error).__name__}: {error}"
    return result


def clarity_available():
    try:
        from clarity.evaluator.haspi import haspi_v2  # noqa: F401
        from clarity.evaluator.hasqi import hasqi_v2  # noqa: F401
        return True, None
    except Exception as error:  # report why instead of failing the whole benchmark
        return False, f"{type(error).__name__}: {error}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--assist", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--snr", type=float, nargs="+", default=[0, 5, 10])
    parser.add_argument("--stoi-only", action="store_true", help="skip HASPI/HASQI (slow), for --quick")
    parser.add_argument("speech", nargs="+")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    audiogram = os.path.join(args.work, "sloping.json")
    audiogram_json(audiogram)
    has_clarity, why = clarity_available()
    if args.stoi_only:
        has_clarity, why = False, "skipped by --quick (HASPI/HASQI take about a minute per signal on this machine)"
    speech = load_speech(args.speech)
    noise = speech_shaped_noise(speech)
    rows = []
    for snr in args.snr:
        mixture = mix(speech, noise, snr)
        mixture_path = os.path.join(args.work, f"mix_{snr:g}dB.wav")
        wavfile.write(mixture_path, RATE, mixture.astype(np.float32))
        row = {"snrDecibels": snr, "unprocessed": scores(speech, mixture, {"clarity": has_clarity})}
        for label, on in (("noiseReductionOn", True), ("noiseReductionOff", False)):
            out, seconds = process(args.assist, audiogram, mixture_path,
                                   os.path.join(args.work, f"aided_{snr:g}dB_{label}.wav"), on)
            row[label] = scores(speech, out[:len(speech)], {"clarity": has_clarity})
            row[label]["processSeconds"] = seconds
        rows.append(row)
        print(f"speech quality: {snr:g} dB SNR done", file=sys.stderr)
    json.dump({"speechFiles": [os.path.basename(p) for p in args.speech], "speechSeconds": len(speech) / RATE,
               "audiogram": SLOPING_LOSS, "rule": "nal-r", "program": "conversation-in-noise",
               "speechSPL": SPEECH_SPL, "level1": RMS_ONE_SPL, "clarity": has_clarity, "clarityMissingReason": why,
               "rows": rows}, sys.stdout, indent=1)


if __name__ == "__main__":
    main()
