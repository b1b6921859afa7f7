#!/usr/bin/env python3
"""Issue 5's voice command benchmark: `assist bench voice --json`, summarised as a Markdown section.

`assist bench voice` synthesises every command (one phrasing per intent) with festival's
us_slt_hts voice at three speaking rates, mixes white noise or six-talker babble at each SNR
(active-speech RMS over noise RMS), replays the audio through the recogniser as live 20 ms chunks
and checks what the listener did: acted on the right command, acted on a wrong one, refused the
speech as too noisy, or asked to repeat. It also transcribes Debian's pocketsphinx-testdata
recordings (human speech) with the general language model. This script only runs it and formats
the numbers; it is not a test. Standard library only.
"""
import argparse
import json
import os
import subprocess
import sys
import time

from markdown_section import replace_section

SNRS = "10,20,30"


def run(assist, out, quick):
    command = [assist, "bench", "voice", "--json", "--conditions", "clean,white,babble", "--snr", SNRS]
    if quick:
        command += ["--rates", "1.0", "--skip-human"]
    started = time.monotonic()
    completed = subprocess.run(command, capture_output=True, text=True)
    if completed.returncode != 0:
        sys.exit(f"voice bench: {' '.join(command)} failed:\n{completed.stderr.strip()}")
    with open(os.path.join(out, "voice-results.json"), "w") as f:
        f.write(completed.stdout)
    report = json.loads(completed.stdout)
    report["wallSeconds"] = time.monotonic() - started
    return report


def order(name):
    if name == "clean":
        return (0, "", 0)
    if name == "all noisy":
        return (3, "", 0)
    noise, _, rest = name.partition(" noise at ")
    return (1 if noise == "white" else 2, noise, float(rest.split(" ")[0]))


def markdown(report, quick):
    def ms(value):
        return "–" if value is None else f"{value:.0f} ms"
    trials = report["trials"]
    rates = sorted({t["speakingRate"] for t in trials})
    lines = [
        "<!-- voice-bench -->",
        "## Voice commands (issue 5)",
        "",
        f"`bench/voice.py`{' --quick' if quick else ''}: `assist bench voice --conditions clean,white,babble --snr {SNRS}`, "
        f"{len({t['said'] for t in trials})} commands × {len(rates)} speaking rates ({', '.join(str(r) for r in rates)}), "
        f"festival us_slt_hts voice, replayed as live 20 ms chunks; {report['wallSeconds']:.0f} s. "
        "\"Right\" means exactly one command was acted on and it was the one said; \"wrong\" counts trials where a "
        "command other than the one said was acted on; \"too noisy\" where the listener refused the speech and said so "
        "(speech less than 20 dB above the background); \"recogniser alone\" is what pocketsphinx got right before that check.",
        "",
        "| Condition | Right | Wrong command acted on | Refused as too noisy | Recogniser alone | Estimated SNR (median) | End of speech → command, median (worst) |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, s in sorted(report["summaries"].items(), key=lambda item: order(item[0])):
        snr = s.get("medianEstimatedSNRDecibels")
        lines.append(
            f"| {name} | {s['correct']}/{s['trials']} ({100 * s['correct'] / max(s['trials'], 1):.1f} %) | {s['wrongActions']} | "
            f"{s['refusedAsTooNoisy']} | {s['recognizedCorrectly']}/{s['trials']} | {'∞ (digital silence)' if snr is None else f'{snr:.1f} dB'} | "
            f"{ms(s.get('medianLatencyMilliseconds'))} ({ms(s.get('worstLatencyMilliseconds'))}) |")
    clean = report["summaries"].get("clean")
    noisy10 = [s for n, s in report["summaries"].items() if n.endswith(" at 10 dB SNR")]
    lines += ["", "| Target | Measured | Verdict |", "|---|---|---|"]
    if clean:
        accuracy = 100 * clean["correct"] / max(clean["trials"], 1)
        lines.append(f"| ≥ 95 % of commands right in quiet | {accuracy:.1f} % | {'met' if accuracy >= 95 else 'missed'} |")
        latency = clean.get("medianLatencyMilliseconds")
        lines.append(f"| End of speech → command ≤ 300 ms | median {ms(latency)} | {'met' if latency is not None and latency <= 300 else 'missed'} |")
    if noisy10:
        right = sum(s["correct"] for s in noisy10)
        total = sum(s["trials"] for s in noisy10)
        wrong = sum(s["wrongActions"] for s in noisy10)
        lines.append(f"| ≥ 85 % right at 10 dB SNR (white and babble) | {100 * right / max(total, 1):.1f} % "
                     f"({wrong} wrong commands acted on of {total}) | {'met' if right >= 0.85 * total else 'missed'} |")
    human = report.get("human", {})
    recordings = human.get("recordings", [])
    errors = {"errors": sum(r["wordErrors"]["errors"] for r in recordings),
              "referenceWords": sum(r["wordErrors"]["referenceWords"] for r in recordings)}
    if errors["referenceWords"]:
        lines += ["", f"Recorded human speech (pocketsphinx-testdata, general language model, not the command grammar): "
                      f"word error rate {100 * errors['errors'] / errors['referenceWords']:.1f} % over "
                      f"{errors['referenceWords']} words in {len(human.get('recordings', []))} recordings."]
    lines += ["<!-- /voice-bench -->", ""]
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--assist", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--quick", action="store_true", help="one speaking rate, no human recordings")
    parser.add_argument("--markdown", help="replace (or append) the voice section of this Markdown file")
    parser.add_argument("--from-json", help="format an existing `assist bench voice --json` output instead of running it")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    if args.from_json:
        report = json.load(open(args.from_json))
        report.setdefault("wallSeconds", 0)
    else:
        report = run(args.assist, args.out, args.quick)
    section = markdown(report, args.quick)
    print(section)
    if args.markdown:
        replace_section(args.markdown, "voice-bench", section)


if __name__ == "__main__":
    main()
