# Summarises `assist bench voice --json` reports by decoding and condition: right (+ asked), wrong,
# non-commands acted on, refused as too noisy, trials heard as more than one utterance (cut in two),
# trials whose end the detector declared before the audio ran out, and the end-declared delay.
# Usage: python3 bench/voice_trials_summary.py report.json [more.json ...]
import json, sys, statistics, collections
for path in sys.argv[1:]:
    d = json.load(open(path))
    groups = collections.defaultdict(list)
    for t in d['trials']:
        groups[(t['decoding'], t['condition'])].append(t)
    print(path)
    print("decoding | condition | right (+asked) cmds | wrong | non-cmds acted | too noisy | cut in two (all trials) | closed by detector | end declared median / p90 ms")
    for (dec, cond), ts in sorted(groups.items()):
        cmds = [t for t in ts if t['isCommand']]; non = [t for t in ts if not t['isCommand']]
        right = sum(t['correct'] for t in cmds); asked = sum(t['askedAboutRightCommand'] for t in cmds)
        wrong = sum(t['actedOnWrongCommand'] for t in cmds); nonacted = sum(t['actedOnWrongCommand'] for t in non)
        noisy = sum(t['refusedAsTooNoisy'] for t in ts)
        cut = sum(' | ' in t['heard'] for t in ts)
        ends = sorted(t['endDetectionMilliseconds'] for t in ts if t.get('endDetectionMilliseconds') is not None)
        med = statistics.median(ends) if ends else float('nan')
        p90 = ends[int(0.9*(len(ends)-1))] if ends else float('nan')
        print(f"{dec} | {cond} | {right}/{len(cmds)} (+{asked}) | {wrong} | {nonacted}/{len(non)} | {noisy} | {cut} | {len(ends)}/{len(ts)} | {med:.0f} / {p90:.0f}")
