#!/usr/bin/env python3
"""Intelligibility of each voice, by a round trip through the product's own recogniser.

Product sentences (object announcements and a few answers, made from templates with a fixed seed)
are said by each voice at each rate with `assist say --speak-to`, joined into one recording per
voice and rate with 1.5 s of silence between sentences, and transcribed by `assist listen --file
--decode neural --json` (Silero VAD + Moonshine). The word error rate is the edit distance between
all the reference words and all the recognised words, over the number of reference words: counted
over the whole recording, so it does not matter how the detector cut it into segments. Digits are
written as words on both sides ("3" and "three" are the same word), British and American spellings
alike ("metres"), punctuation and case ignored.

Usage: voice_wer.py [--assist BIN] [--count 200] [--voices fast,natural] [--rates 175,262] [--work DIR]
(262 words a minute is 1.5 times the default rate.)
"""
import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import wave

OBJECTS = ["person", "car", "bicycle", "chair", "door", "bench", "bus", "dog", "traffic light", "stop sign",
           "bottle", "cup", "table", "stairs", "pole", "two people", "truck", "motorcycle", "cat", "backpack"]
DIRECTIONS = ["ahead", "on your left", "on your right", "slightly left", "slightly right", "straight ahead"]
ANSWERS = ["The door is open.", "Nothing is in front of you.", "Your cup is on the table.",
           "The light for pedestrians is red.", "Guidance stopped.", "Navigation mode.", "Speaking faster.",
           "The bus stop is on your right.", "There is a step down ahead.", "Battery at sixty percent."]
NUMBER_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
                "nineteen", "twenty"]


def sentences(count):
    rng = random.Random(37)
    result = []
    while len(result) < count:
        if rng.random() < 0.15:
            result.append(rng.choice(ANSWERS))
        else:
            meters = rng.randint(1, 12)
            unit = "meter" if meters == 1 else "meters"
            result.append(f"{rng.choice(OBJECTS).capitalize()}, {meters} {unit}, {rng.choice(DIRECTIONS)}.")
    return result


# The recogniser writes British or American spelling; either is the word said.
SPELLINGS = {"metres": "meters", "metre": "meter", "colour": "color"}


def words(text):
    text = re.sub(r"\d+", lambda m: f" {NUMBER_WORDS[int(m.group())] if int(m.group()) <= 20 else m.group()} ", text.lower())
    return [SPELLINGS.get(w, w) for w in re.sub(r"[^a-z0-9' ]+", " ", text).split()]


def edit_distance(reference, hypothesis):
    previous = list(range(len(hypothesis) + 1))
    for i, r in enumerate(reference, 1):
        current = [i]
        for j, h in enumerate(hypothesis, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (r != h)))
        previous = current
    return previous[-1]


def render(assist, texts, voice, rate, work):
    """Each sentence said alone, then joined with 1.5 s of silence, as one WAV."""
    joined = os.path.join(work, f"{voice}-{rate}.wav")
    params, frames = None, []
    for index, text in enumerate(texts):
        path = os.path.join(work, f"{voice}-{rate}-{index}.wav")
        subprocess.run([assist, "say", "--voice", voice, "--rate", str(rate), text, "--speak-to", path],
                       check=True, stdin=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with wave.open(path) as w:
            params = params or w.getparams()
            frames.append(w.readframes(w.getnframes()))
        os.remove(path)
    silence = b"\0" * int(1.5 * params.framerate) * params.nchannels * params.sampwidth
    with wave.open(joined, "wb") as out:
        out.setparams(params)
        for chunk in frames:
            out.writeframes(silence + chunk)
        out.writeframes(silence)
    return joined


def transcribe(assist, path):
    run = subprocess.run([assist, "listen", "--file", path, "--decode", "neural", "--json"], check=True,
                         stdin=subprocess.DEVNULL, capture_output=True, text=True)
    texts = []
    for line in run.stdout.splitlines():
        try:
            event = json.loads(line)
        except json.JSONDecodeError:
            continue
        if event.get("text"):
            texts.append(event["text"])
    return " ".join(texts)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--assist", default=".build/debug/assist", help="the assist binary")
    parser.add_argument("--count", type=int, default=200, help="how many product sentences (default 200)")
    parser.add_argument("--voices", default="fast,natural", help="voices, comma-separated (default fast,natural)")
    parser.add_argument("--rates", default="175,262", help="rates in words a minute, comma-separated (default 175,262)")
    parser.add_argument("--work", help="folder for the recordings (default: a temporary one)")
    args = parser.parse_args()
    work = args.work or tempfile.mkdtemp(prefix="voice-wer-")
    os.makedirs(work, exist_ok=True)
    texts = sentences(args.count)
    reference = [w for text in texts for w in words(text)]
    for voice in args.voices.split(","):
        for rate in (int(r) for r in args.rates.split(",")):
            hypothesis = words(transcribe(args.assist, render(args.assist, texts, voice, rate, work)))
            errors = edit_distance(reference, hypothesis)
            print(f"voice {voice}, {rate} words a minute: word error rate {100 * errors / len(reference):.1f} % "
                  f"({errors} errors in {len(reference)} words, {len(texts)} sentences; {len(hypothesis)} words recognised)",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
