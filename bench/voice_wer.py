#!/usr/bin/env python3
"""Intelligibility of each voice, by a round trip through the product's own recogniser.

Product sentences (drawn with a fixed seed from the product's own sentence files: object
announcements in every form, hazards, find, explore and navigation sentences, the session's and
picture answers' fixed messages; see `sentences`) are said by each voice at each rate with `assist
say --speak-to`, joined into one recording per voice and rate with 1.5 s of silence between
sentences, and transcribed by `assist listen --file --decode neural --json` (Silero VAD +
Moonshine). The word error rate is the edit distance between all the reference words and all the
recognised words, over the number of reference words: counted over the whole recording, so it does
not matter how the detector cut it into segments.

Two scorings, both applied alike to the reference and the transcript:
- "simple": lower case, punctuation dropped, digits up to 20 written as words, "metres" = "meters";
- "whisper": Whisper's English text normaliser (the `whisper-normalizer` package, the one Whisper's
  and most published English WERs use: numbers as digits, spellings made American, contractions
  expanded, punctuation and fillers dropped), when that package is installed.
The most frequent confusions (reference word -> recognised word, "-" for nothing) are printed and
written with every transcript to DIR/errors-VOICE-RATE.json.

Usage: voice_wer.py [--assist BIN] [--count 200] [--part all|dev|held-out] [--voices fast,natural] [--rates 175,262] [--work DIR]
(262 words a minute is 1.5 times the default rate.)

--part cuts the fixed draw of --count sentences in two: "dev" is its first half, the one to tune the
voice on; "held-out" its second half, scored once when the tuning is done (twenty-fifth session:
dev = the first 100 of the 200, held-out = the last 100).
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

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NUMBER_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
                "nineteen", "twenty"]


def load_templates():
    """The product's own sentence files: what guidance, the modes, the session and picture answers say."""
    def read(path):
        with open(os.path.join(ROOT, path), encoding="utf-8") as f:
            return json.load(f)
    return (read("Sources/Guidance/Templates/en.json"), read("Sources/LiveGuidance/Templates/en.modes.json"),
            read("Sources/LiveGuidance/Templates/en.session.json"), read("Sources/PictureAnswers/Templates/en.json"))


def fixed_messages(node):
    """Every sentence of a template file that has no placeholder (said as it is)."""
    if isinstance(node, str):
        return [node] if "{" not in node and node.rstrip().endswith((".", "?", "!")) else []
    if isinstance(node, dict):
        return [m for key, value in node.items() if key not in ("language", "about") for m in fixed_messages(value)]
    return []


def sentences(count):
    """`count` sentences the product says, drawn with a fixed seed from its sentence files: object
    announcements in both forms (brief and full, one object or a group, every detector class, the
    distances SpokenDistance gives, directions, clock directions, high/low), approaching hazards,
    find, explore and navigation sentences, and the fixed messages of the session, the modes and
    picture answers. Nothing is chosen for being easy to recognise."""
    guidance, modes, session, answers = load_templates()
    rng = random.Random(37)
    objects = guidance["objects"]
    directions = list(guidance["directions"].values())
    fixed = sorted(set(fixed_messages(modes) + fixed_messages(session) + fixed_messages(answers) + fixed_messages(guidance["messages"])))

    def fill(template, **values):
        text = template
        for key, value in values.items():
            text = text.replace("{" + key + "}", value)
        return text[0].upper() + text[1:]

    def thing():
        name = rng.choice(sorted(objects))
        if rng.random() < 0.25:
            n = rng.randint(2, 4)
            return fill(guidance["group"], count=str(n), objects=objects[name]["other"]).lower(), True, name
        return objects[name]["one"], False, name

    def distance():
        # SpokenDistance: whole meters below 10, then steps of 5.
        meters = rng.choice(list(range(1, 10)) + [10, 15, 20])
        said = guidance["distance"]["meters"]["one" if meters == 1 else "other"].replace("{count}", str(meters))
        return fill(guidance["distance"]["lessThan"], distance=said).lower() if meters == 1 and rng.random() < 0.5 else said

    def direction():
        r = rng.random()
        if r < 0.1:
            return guidance["clock"].replace("{hour}", str(rng.choice([9, 10, 11, 12, 1, 2, 3])))
        if r < 0.2:
            return fill(guidance["directionWithVertical"], direction=rng.choice(directions),
                        vertical=rng.choice(list(guidance["vertical"].values()))).lower()
        return rng.choice(directions)

    result = []
    while len(result) < count:
        r = rng.random()
        if r < 0.55:
            what, group, _ = thing()
            form = guidance["sentences"]["brief" if rng.random() < 0.7 else "full"]
            if rng.random() < 0.08:
                key = "groupUnknownDistance" if group else "oneUnknownDistance"
                result.append(fill(form[key], object=what, distance=guidance["distance"]["unknown"], direction=direction()))
            else:
                result.append(fill(form["group" if group else "one"], object=what, distance=distance(), direction=direction()))
        elif r < 0.63:
            result.append(fill(modes["hazardApproaching"], object=thing()[0], distance=distance(), direction=direction()))
        elif r < 0.68:
            result.append(fill(modes["find"]["found"], object=thing()[0], distance=distance(), direction=direction()))
        elif r < 0.72:
            items = [fill(modes["explore"]["item"], object=thing()[0], distance=distance(), direction=direction()).lower()
                     for _ in range(rng.randint(2, 3))]
            counted = modes["explore"]["count"]["other"].replace("{count}", str(len(items)))
            result.append(fill(modes["explore"]["summary"], count=counted, items=modes["explore"]["itemSeparator"].join(items)))
        elif r < 0.76:
            result.append(fill(modes["navigation"]["obstacle"], distance=distance()))
        else:
            result.append(rng.choice(fixed))
    return result


def part(texts, name):
    """The development half (the first), the held-out half (the second), or all of the draw."""
    half = len(texts) // 2
    return {"all": texts, "dev": texts[:half], "held-out": texts[half:]}[name]


# The recogniser writes British or American spelling; either is the word said.
SPELLINGS = {"metres": "meters", "metre": "meter", "colour": "color"}


def words(text):
    text = re.sub(r"\d+", lambda m: f" {NUMBER_WORDS[int(m.group())] if int(m.group()) <= 20 else m.group()} ", text.lower())
    return [SPELLINGS.get(w, w) for w in re.sub(r"[^a-z0-9' ]+", " ", text).split()]


def alignment(reference, hypothesis):
    """The word errors of the cheapest alignment: (reference word or "-", recognised word or "-")."""
    rows, cols = len(reference) + 1, len(hypothesis) + 1
    cost = [[0] * cols for _ in range(rows)]
    for i in range(rows):
        cost[i][0] = i
    for j in range(cols):
        cost[0][j] = j
    for i in range(1, rows):
        for j in range(1, cols):
            cost[i][j] = min(cost[i - 1][j] + 1, cost[i][j - 1] + 1,
                             cost[i - 1][j - 1] + (reference[i - 1] != hypothesis[j - 1]))
    errors, i, j = [], rows - 1, cols - 1
    while i > 0 or j > 0:
        if i > 0 and j > 0 and cost[i][j] == cost[i - 1][j - 1] + (reference[i - 1] != hypothesis[j - 1]):
            if reference[i - 1] != hypothesis[j - 1]:
                errors.append((reference[i - 1], hypothesis[j - 1]))
            i, j = i - 1, j - 1
        elif i > 0 and cost[i][j] == cost[i - 1][j] + 1:
            errors.append((reference[i - 1], "-"))
            i -= 1
        else:
            errors.append(("-", hypothesis[j - 1]))
            j -= 1
    return errors[::-1]


def whisper_words():
    """Whisper's English normaliser as a word splitter, or None when the package is missing."""
    try:
        from whisper_normalizer.english import EnglishTextNormalizer
    except ImportError:
        return None
    normalise = EnglishTextNormalizer()
    return lambda text: normalise(text).split()


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
    parser.add_argument("--part", choices=["all", "dev", "held-out"], default="all",
                        help="all the sentences, or the first (dev) or second (held-out) half of them (default all)")
    parser.add_argument("--voices", default="fast,natural", help="voices, comma-separated (default fast,natural)")
    parser.add_argument("--rates", default="175,262", help="rates in words a minute, comma-separated (default 175,262)")
    parser.add_argument("--work", help="folder for the recordings (default: a temporary one)")
    args = parser.parse_args()
    work = args.work or tempfile.mkdtemp(prefix="voice-wer-")
    os.makedirs(work, exist_ok=True)
    texts = part(sentences(args.count), args.part)
    scorings = {"simple": words}
    if (normalised := whisper_words()) is not None:
        scorings["whisper"] = normalised
    else:
        print("whisper-normalizer is not installed: only the simple scoring (pip install whisper-normalizer==0.1.15)", flush=True)
    for voice in args.voices.split(","):
        for rate in (int(r) for r in args.rates.split(",")):
            transcript = transcribe(args.assist, render(args.assist, texts, voice, rate, work))
            report = {"voice": voice, "rate": rate, "part": args.part, "sentences": texts, "transcript": transcript}
            for name, split in scorings.items():
                reference = [w for text in texts for w in split(text)]
                hypothesis = split(transcript)
                errors = alignment(reference, hypothesis)
                confusions = {}
                for pair in errors:
                    confusions[pair] = confusions.get(pair, 0) + 1
                top = sorted(confusions.items(), key=lambda item: -item[1])[:15]
                report[name] = {"errors": len(errors), "words": len(reference),
                                "confusions": [[r, h, n] for (r, h), n in sorted(confusions.items(), key=lambda item: -item[1])]}
                print(f"voice {voice}, {rate} words a minute, {name} scoring: word error rate {100 * len(errors) / len(reference):.1f} % "
                      f"({len(errors)} errors in {len(reference)} words, {len(texts)} sentences; {len(hypothesis)} words recognised)",
                      flush=True)
                print("  most frequent: " + "; ".join(f"{r} -> {h} ({n})" for (r, h), n in top), flush=True)
            with open(os.path.join(work, f"errors-{voice}-{rate}.json"), "w", encoding="utf-8") as f:
                json.dump(report, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
