#!/usr/bin/env python3
"""Issue 5's voice command benchmark: `assist bench voice --json`, summarised as a Markdown section.

`assist bench voice` synthesises every command (one phrasing per intent) with festival's
us_slt_hts voice at three speaking rates, mixes white noise or six-talker babble at each SNR
(active-speech RMS over noise RMS), replays the audio through the recogniser as live 20 ms chunks
and checks what the listener did: acted on the right command, acted on a wrong one, refused the
speech as too noisy, or asked to repeat. It also transcribes Debian's pocketsphinx-testdata
recordings (human speech) with no command phrase favoured. This script only runs it and formats
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


def run(assist, out, quick, extra):
    command = [assist, "bench", "voice", "--json", "--conditions", "clean,white,babble", "--snr", SNRS] + extra
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
    report["command"] = " ".join(command[1:])
    return report


def condition_order(name):
    if name == "clean":
        return (0, "", 0)
    if name == "all noisy":
        return (3, "", 0)
    noise, _, rest = name.partition(" noise at ")
    return (1 if noise == "white" else 2, noise, float(rest.split(" ")[0]))


def percent(part, whole):
    return f"{100 * part / max(whole, 1):.1f} %"


def markdown(report, quick):
    """Summaries are keyed "decoding · voice · condition" (and "· all voices ·", "· non-commands ·")."""
    def ms(value):
        return "–" if value is None else f"{value:.0f} ms"
    trials = report["trials"]
    commands = [t for t in trials if t.get("isCommand", True)]
    rates = sorted({t["speakingRate"] for t in trials})
    voices = sorted({t.get("voice", "festival slt") for t in commands})
    decodings = sorted({t.get("decoding", "grammar") for t in trials})
    summaries = report["summaries"]
    lines = [
        "<!-- voice-bench -->",
        "## Voice commands (issues 5 and 15)",
        "",
        f"`bench/voice.py`{' --quick' if quick else ''}: `assist {report.get('command', 'bench voice')}`, "
        f"{len({t['said'] for t in commands})} commands (the first phrasing of each intent) × {len(rates)} speaking rates "
        f"({', '.join(str(r) for r in rates)}) × voices {', '.join(voices)}, replayed as live 20 ms chunks; "
        + (f"{report['wallSeconds']:.0f} s. " if report.get("wallSeconds") else "") + "\"Right\" means exactly one command was acted on and it was the one said; "
        "\"asked\" that the right command was asked about (\"…? Say yes or no.\"), as spoken commands that hide things are; "
        "\"wrong\" counts trials where a command other than the one said was acted on; \"too noisy\" where the listener "
        "refused the speech and said so (speech less than 20 dB above the background). Every transcript goes through the "
        "command understanding (patterns, then meaning) as spoken.",
    ]
    for decoding in decodings:
        header = "| Condition | " + " | ".join(f"Right, {v}" for v in voices) + \
            " | Right, all | Asked | Wrong acted on | Too noisy | End of speech → command, median (worst) |"
        lines += ["", f"Decoding: **{decoding}**", "", header, "|" + "---|" * (len(voices) + 6)]
        names = {k.split(" · ")[2] for k in summaries if k.startswith(decoding + " · all voices · ")}
        for name in sorted(names, key=condition_order):
            total = summaries[f"{decoding} · all voices · {name}"]
            cells = []
            for voice in voices:
                s = summaries.get(f"{decoding} · {voice} · {name}")
                cells.append("–" if s is None else f"{s['correct']}/{s['trials']} ({percent(s['correct'], s['trials'])})")
            lines.append(f"| {name} | " + " | ".join(cells) +
                         f" | {total['correct']}/{total['trials']} ({percent(total['correct'], total['trials'])}) | "
                         f"{total.get('askedAboutRightCommand', 0)} | {total['wrongActions']} ({percent(total['wrongActions'], total['trials'])}) | "
                         f"{total['refusedAsTooNoisy']} | {ms(total.get('medianLatencyMilliseconds'))} ({ms(total.get('worstLatencyMilliseconds'))}) |")
        others = {k.split(" · ")[2]: s for k, s in summaries.items() if k.startswith(decoding + " · non-commands · ")}
        if others:
            lines += ["", f"Non-commands ({decoding}): acted on " + ", ".join(
                f"{name}: {s['wrongActions']}/{s['trials']} ({percent(s['wrongActions'], s['trials'])})"
                for name, s in sorted(others.items(), key=lambda item: condition_order(item[0]))) + "."]
    lines += fallback_rows(trials, decodings)
    human = report.get("human", {})
    recordings = human.get("recordings", [])
    errors = {"errors": sum(r["wordErrors"]["errors"] for r in recordings),
              "referenceWords": sum(r["wordErrors"]["referenceWords"] for r in recordings)}
    if errors["referenceWords"]:
        lines += ["", f"Recorded human speech (pocketsphinx-testdata, no command phrase favoured): "
                      f"word error rate {100 * errors['errors'] / errors['referenceWords']:.1f} % over "
                      f"{errors['referenceWords']} words in {len(human.get('recordings', []))} recordings."]
    lines += ["<!-- /voice-bench -->", ""]
    return "\n".join(lines)


def fallback_rows(trials, decodings):
    """Grammar first, the n-gram path only when the grammar path did nothing (nothing heard,
    refused, or not understood): worked out from the two paths' trials of the same audio."""
    if "grammar" not in decodings:
        return []
    def key(t):
        return (t.get("voice"), t["said"], t["speakingRate"], t["condition"])
    grammar = {key(t): t for t in trials if t.get("decoding") == "grammar"}
    lines = []
    # agreement already runs both paths on every utterance (the listener's rule): no fallback row.
    for other in [d for d in decodings if d not in ("grammar", "agreement")]:
        rows = {}
        for t in trials:
            if t.get("decoding") != other or key(t) not in grammar:
                continue
            first = grammar[key(t)]
            chosen = first if first.get("understoodAs") is not None else t
            group = "non-commands · " + t["condition"] if not t.get("isCommand", True) else t["condition"]
            row = rows.setdefault(group, [0, 0, 0])
            row[0] += 1
            row[1] += chosen["correct"] and t.get("isCommand", True)
            row[2] += chosen["actedOnWrongCommand"]
        if rows:
            lines += ["", f"Grammar first, then **{other}** when the grammar path did nothing (from the same trials; "
                          "the listener does not do this yet): " + "; ".join(
                              f"{name}: right {r[1]}/{r[0]}, acted wrongly {r[2]} ({percent(r[2], r[0])})"
                              for name, r in sorted(rows.items())) + "."]
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--assist", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--quick", action="store_true", help="one speaking rate, no human recordings")
    parser.add_argument("--markdown", help="replace (or append) the voice section of this Markdown file")
    parser.add_argument("--from-json", nargs="+", help="format existing `assist bench voice --json` outputs (runs of"
                        " different decodings or conditions are merged) instead of running it")
    parser.add_argument("--command-line", action="append", default=[], help="with --from-json: the commands that made them")
    args, extra = parser.parse_known_args()  # the rest goes to `assist bench voice` (--voices, --decode, …)
    os.makedirs(args.out, exist_ok=True)
    if args.from_json:
        report = {"trials": [], "summaries": {}, "human": {}}
        for path in args.from_json:
            part = json.load(open(path))
            report["trials"] += part["trials"]
            for name, summary in part["summaries"].items():
                # "all noisy" of two runs cannot be merged from summaries: left out when both have it.
                if name in report["summaries"] and name.endswith("all noisy"):
                    report["summaries"][name] = None
                elif name not in report["summaries"]:
                    report["summaries"][name] = summary
            if part.get("human", {}).get("recordings"):
                report["human"] = part["human"]
        report["summaries"] = {k: v for k, v in report["summaries"].items() if v is not None}
        report["command"] = "`; `assist ".join(args.command_line) or "bench voice"
    else:
        report = run(args.assist, args.out, args.quick, extra)
    section = markdown(report, args.quick)
    print(section)
    if args.markdown:
        replace_section(args.markdown, "voice-bench", section)


if __name__ == "__main__":
    main()
