"""Whether a picture-specific detection setting would answer more of the coco128 questions right
without naming anything that is not there (issue 38, twenty-first session, item 2).

The detector is run once per picture at a low confidence (--floor), and the questions of
bench/questions_accuracy.py ("is there", "how many", "where is", judged by its rules) are answered
from the detections at each candidate threshold, as the answer logic does (it made no mistake of
its own on these questions: every wrong answer was the detector's). Greedy per-class suppression
keeps a box only when no more confident box of its class overlaps it, so the detections at a
threshold are those at the floor that reach it.

The pictures are split in two by their place in name order (even: "first", odd: "second"): choose
a setting on one half only, then check it on the other with the real answers:
    python3 bench/questions_settings.py --half first
    python3 bench/questions_accuracy.py --half second [--confidence X]

"Naming something absent" is counted two ways: among the judged questions (a "Yes." or a count or
place for a category the picture's labels lack), and over every picture and every one of the 80
categories ("is there a <category>" would be answered yes where the labels have none at all).
"""
import argparse, collections, json, os, subprocess, sys, tempfile
sys.path.insert(0, os.path.dirname(__file__))
import questions_accuracy as qa


def detections(assist, paths, floor, environment, extra):
    command = [assist, "see", "--json", "--quiet", "--no-history", "--confidence", str(floor), "--max-objects", "1000"] + extra + paths
    out = subprocess.run(command, capture_output=True, text=True, env=environment, check=True)
    found = {}
    for result in json.loads(out.stdout):
        report = result["report"]
        found[os.path.basename(result["source"])] = {
            "width": report["imageWidth"], "height": report["imageHeight"],
            "objects": [{"label": o["label"], "confidence": o["confidence"], "box": o["box"]} for o in report["objects"]]}
    return found


def judge(pictures, names, categories, found, threshold, absent_per_category):
    """Right answers and answers naming an absent category, by kind, at `threshold`."""
    right = collections.Counter(); asked = collections.Counter(); naming = 0
    for category in categories:
        absent = 0
        for name in names:
            boxes = [b for b in pictures[name]["boxes"] if b["category"] == category]
            mine = [o for o in found[name]["objects"] if o["label"] == category and o["confidence"] >= threshold]
            mine.sort(key=lambda o: -o["confidence"])
            if any(b["area"] >= qa.FINDABLE for b in boxes):
                asked["is there"] += 1; right["is there"] += bool(mine)
            elif not boxes and absent < absent_per_category:
                absent += 1
                asked["is there"] += 1; right["is there"] += not mine; naming += bool(mine)
            if 1 <= len(boxes) <= 3 and all(b["area"] >= qa.FINDABLE for b in boxes):
                asked["how many"] += 1; right["how many"] += len(mine) == len(boxes)
            if len(boxes) == 1 and boxes[0]["area"] >= qa.WHERE_MIN_AREA and qa.side(boxes[0]["x"]):
                asked["where is"] += 1
                right["where is"] += bool(mine) and qa.side(qa.centre_x(mine[0]["box"], found[name]["width"])) == qa.side(boxes[0]["x"])
    return right, asked, naming


def yes_to_absent(pictures, names, found, threshold):
    """Over every picture and all 80 categories: how many "is there a <category>" would be answered
    "Yes." (a detection of it at `threshold`) where the labels have none of it."""
    return sum(1 for n in names for c in {o["label"] for o in found[n]["objects"] if o["confidence"] >= threshold}
               if c not in {b["category"] for b in pictures[n]["boxes"]})


def add_picture_options(parser):
    """The options every coco128 question weighing shares (this script, questions_tier.py,
    questions_second_look.py): the binary, the pictures, which half, and the questions' counts."""
    parser.add_argument("--assist", default=".build/debug/assist", help="the assist binary")
    parser.add_argument("--coco", default="../shared/data/coco128", help="coco128: images/train2017 and labels/train2017")
    parser.add_argument("--half", choices=["first", "second", "all"], default="first", help="which pictures (name order: even, odd, every one)")
    parser.add_argument("--categories", type=int, default=12, help="as bench/questions_accuracy.py")
    parser.add_argument("--absent", type=int, default=8, help="as bench/questions_accuracy.py")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_picture_options(parser)
    parser.add_argument("--floor", type=float, default=0.2, help="the lowest threshold tried; the detector runs once at it")
    parser.add_argument("--thresholds", default="0.6,0.55,0.5,0.45,0.4,0.35,0.3,0.25,0.2", help="thresholds to answer at")
    parser.add_argument("--input-shape", default=None, help="passed to assist see (rectangular, rectangular-padded, square)")
    args = parser.parse_args()
    pictures = qa.load_labels(args.coco)
    categories = qa.categories_asked(pictures, args.categories)
    names = qa.half(sorted(pictures), args.half)
    environment = dict(os.environ)
    home = tempfile.mkdtemp(prefix="questions-settings-")
    environment.update(XDG_DATA_HOME=home, XDG_CONFIG_HOME=home, XDG_RUNTIME_DIR=home)
    extra = ["--input-shape", args.input_shape] if args.input_shape else []
    found = detections(args.assist, [pictures[n]["path"] for n in names], args.floor, environment, extra)
    print(f"{args.half} half: {len(names)} pictures; detector run once at {args.floor}{' ' + ' '.join(extra) if extra else ''}")
    print(f"{'threshold':>9} {'is there':>10} {'how many':>10} {'where is':>10} {'answerable':>16} {'named absent':>13} {'yes to an absent category (all 80)':>36}")
    for threshold in map(float, args.thresholds.split(",")):
        right, asked, naming = judge(pictures, names, categories, found, threshold, args.absent)
        extra_yes = yes_to_absent(pictures, names, found, threshold)
        total_right, total = sum(right.values()), sum(asked.values())
        cells = " ".join(f"{right[k]:>4}/{asked[k]:<5}" for k in ["is there", "how many", "where is"])
        print(f"{threshold:>9.2f} {cells} {total_right:>4}/{total:<4} {100 * total_right / max(total, 1):5.1f}% {naming:>13} {extra_yes:>36}")


if __name__ == "__main__":
    main()
