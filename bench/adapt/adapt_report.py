#!/usr/bin/env python3
"""The table of bench/adapt/measure.sh: baseline, MLLR and MAP on each held-out voice.

  python3 bench/adapt/adapt_report.py RESULTS_DIR SNR

Per voice and condition and model: right (the command said was acted on), wrong (another command
was acted on), too noisy (refused aloud), and the recogniser alone (right before the 20 dB check);
then the held-out non-commands acted on (clean).
"""
import json
import os
import sys

MODELS = [("baseline", "unadapted"), ("mllr", "MLLR"), ("map", "MAP")]
VOICES = [("espeak-en-us", "espeak-ng en-us", "festival + espeak-ng en-gb"),
          ("espeak-en-gb", "espeak-ng en-gb", "festival + espeak-ng en-us"),
          ("festival", "festival slt", "espeak-ng en-us + en-gb")]


def load(path):
    if not os.path.exists(path):
        return None
    with open(path) as handle:
        return json.load(handle)["trials"]


def cell(trials):
    if not trials:
        return "–"
    right = sum(t["correct"] for t in trials)
    wrong = sum(t["actedOnWrongCommand"] for t in trials)
    noisy = sum(t["refusedAsTooNoisy"] for t in trials)
    alone = sum(t["recognizedCorrectly"] for t in trials)
    return f"{right}/{len(trials)} · {wrong} · {noisy} · {alone}"


def main(results, snr):
    header = "| Held-out voice (adapted on) | Condition | " + " | ".join(name for _, name in MODELS) + " |"
    lines = [header, "|" + "---|" * (2 + len(MODELS))]
    totals = {model: [] for model, _ in MODELS}
    for voice, voice_name, adapted_on in VOICES:
        runs = {model: load(os.path.join(results, f"{model}-{voice}-snr{snr}.json")) for model, _ in MODELS}
        if all(run is None for run in runs.values()):
            continue
        conditions = []
        for run in runs.values():
            for trial in run or []:
                if trial["condition"] not in conditions:
                    conditions.append(trial["condition"])
        for condition in conditions:
            row = [f"{voice_name} ({adapted_on})", condition]
            for model, _ in MODELS:
                trials = [t for t in runs[model] or [] if t["condition"] == condition and t["isCommand"]]
                totals[model] += trials
                row.append(cell(trials))
            lines.append("| " + " | ".join(row) + " |")
        row = [f"{voice_name} ({adapted_on})", "non-commands, clean: acted on"]
        for model, _ in MODELS:
            trials = load(os.path.join(results, f"{model}-{voice}-none.json"))
            acted = None if trials is None else sum(not t["correct"] for t in trials)
            row.append("–" if trials is None else f"{acted}/{len(trials)}")
        lines.append("| " + " | ".join(row) + " |")
    lines.append("| all held-out voices | all conditions | " + " | ".join(cell(totals[m]) for m, _ in MODELS) + " |")
    print("Cells: right/trials · wrong command acted on · refused as too noisy · recogniser alone right")
    print("\n".join(lines))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
