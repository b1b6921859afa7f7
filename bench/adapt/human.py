#!/usr/bin/env python3
"""Word error rate on recorded human speech (Debian's pocketsphinx-testdata, general English
language model) with the unadapted model, the MLLR transform and the MAP model adapted on all
three synthetic voices: adaptation to synthetic speech must not make real voices worse.

  python3 bench/adapt/human.py [OUT]      (default OUT: /bench-out/adapt)

Decodes with pocketsphinx_continuous (Debian's pocketsphinx), one process per recording.
"""
import os
import subprocess
import sys

DATA = "/usr/share/pocketsphinx/test/data"
BASE = "/usr/share/pocketsphinx/model/en-us"


def recordings():
    found = []
    for folder, transcript in (("librivox", "transcription"), ("cards", "cards.transcription")):
        path = os.path.join(DATA, folder, transcript)
        if not os.path.exists(path):
            continue
        for line in open(path):
            if "(" not in line:
                continue
            words = line[: line.rindex("(")].replace("<s>", "").replace("</s>", "").split()
            name = line[line.rindex("(") + 1: line.rindex(")")]
            wav = os.path.join(DATA, folder, name + ".wav")
            if os.path.exists(wav):
                found.append((wav, [w.lower() for w in words]))
    return found


def edits(reference, hypothesis):
    row = list(range(len(hypothesis) + 1))
    for i, word in enumerate(reference, 1):
        previous, row[0] = row[0], i
        for j, heard in enumerate(hypothesis, 1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (word != heard))
    return row[-1]


def transcribe(wav, options):
    command = ["pocketsphinx_continuous", "-infile", wav, "-hmm", f"{BASE}/en-us", "-lm", f"{BASE}/en-us.lm.bin",
               "-dict", f"{BASE}/cmudict-en-us.dict", "-logfn", "/dev/null"] + options
    output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    return " ".join(output.split()).lower().split()


def main(out):
    models = [("unadapted", []), ("MLLR (all three voices)", ["-mllr", f"{out}/sets/all/mllr_matrix"])]
    mapped = f"{out}/sets/all/map"
    models.append(("MAP (all three voices)", ["-mean", f"{mapped}/means", "-var", f"{mapped}/variances",
                                              "-tmat", f"{mapped}/transition_matrices", "-sendump", f"{mapped}/sendump"]))
    data = recordings()
    for name, options in models:
        errors = words = 0
        for wav, reference in data:
            errors += edits(reference, transcribe(wav, options))
            words += len(reference)
        print(f"{name}: WER {100 * errors / max(words, 1):.1f} % ({errors} errors over {words} words in {len(data)} recordings)", flush=True)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/bench-out/adapt")
