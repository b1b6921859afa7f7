"""A lower-confidence tier for questions about one named category (issue 38, twenty-fourth session,
item 3): would "is there a cup" / "where is the cup" answered "Possibly a cup, on your left." from a
detection below the announcing threshold (but at or above a floor) answer more of the coco128
questions right without naming anything that is not there?

The detector runs once per picture at --floor-min (as bench/questions_settings.py does); every
question of bench/questions_accuracy.py is then answered from those detections by the rules the
answer logic follows: at the threshold (0.6, the stored setting) as now, and, for "is there" and
"where is" only, when nothing of the category reaches the threshold, "Possibly ..." from the most
confident detection of it at or above the tier's floor whose box covers at least --min-area of the
picture. "How many" is unchanged (a count is never hedged).

Judged as questions_accuracy.py judges, with "Possibly" taken as a yes (right where the labels have
the category, a false answer naming an absent thing where they do not). "Naming absent" is counted
two ways: among the judged questions, and over every picture and all 80 categories (a "Yes." or a
"Possibly" that "is there a <category>" would get where the labels have none of it).

    python3 bench/questions_tier.py --half first     # choose the floor and the least area here
    python3 bench/questions_tier.py --half second    # then report the untouched half once
"""
import argparse, json, os, subprocess, sys, tempfile
sys.path.insert(0, os.path.dirname(__file__))
import questions_accuracy as qa
import questions_settings as qs


def area(o, width, height):
    b = o["box"]
    return (b["x1"] - b["x0"]) * (b["y1"] - b["y0"]) / float(width * height) if width and height else 0


def answer_objects(found, name, category, threshold, floor, min_area):
    """(objects answered from, hedged): those at the threshold, else the tier's best, else none."""
    objects = sorted([o for o in found[name]["objects"] if o["label"] == category], key=lambda o: -o["confidence"])
    sure = [o for o in objects if o["confidence"] >= threshold]
    if sure or floor is None: return sure, False
    possible = [o for o in objects if o["confidence"] >= floor and area(o, found[name]["width"], found[name]["height"]) >= min_area]
    return possible[:1], bool(possible)


def judge(pictures, names, categories, found, threshold, floor, min_area, absent_per_category):
    right = {"is there": 0, "how many": 0, "where is": 0}; asked = dict(right); naming = 0; hedged_right = hedged_wrong = 0
    for category in categories:
        absent = 0
        for name in names:
            boxes = [b for b in pictures[name]["boxes"] if b["category"] == category]
            mine, hedged = answer_objects(found, name, category, threshold, floor, min_area)
            if any(b["area"] >= qa.FINDABLE for b in boxes):
                asked["is there"] += 1; right["is there"] += bool(mine)
                hedged_right += hedged
            elif not boxes and absent < absent_per_category:
                absent += 1
                asked["is there"] += 1; right["is there"] += not mine; naming += bool(mine)
                hedged_wrong += hedged
            if 1 <= len(boxes) <= 3 and all(b["area"] >= qa.FINDABLE for b in boxes):
                sure = [o for o in found[name]["objects"] if o["label"] == category and o["confidence"] >= threshold]
                asked["how many"] += 1; right["how many"] += len(sure) == len(boxes)
            if len(boxes) == 1 and boxes[0]["area"] >= qa.WHERE_MIN_AREA and qa.side(boxes[0]["x"]):
                asked["where is"] += 1
                right["where is"] += bool(mine) and qa.side(qa.centre_x(mine[0]["box"], found[name]["width"])) == qa.side(boxes[0]["x"])
    # Over every picture and all 80 categories: "is there a <category>" answered yes or possibly where the labels have none.
    every = 0
    for name in names:
        labels = {b["category"] for b in pictures[name]["boxes"]}
        for category in {o["label"] for o in found[name]["objects"]} - labels:
            mine, _ = answer_objects(found, name, category, threshold, floor, min_area)
            every += bool(mine)
    return right, asked, naming, every, hedged_right, hedged_wrong


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    qs.add_picture_options(parser)
    parser.add_argument("--threshold", type=float, default=0.6, help="the announcing threshold (the stored setting)")
    parser.add_argument("--floor-min", type=float, default=0.2, help="the detector runs once at this confidence")
    parser.add_argument("--floors", default="0.5,0.45,0.4,0.35,0.3,0.25", help="the tier's floors tried")
    parser.add_argument("--min-areas", default="0,0.01,0.02,0.05,0.1", help="least box area (fraction of the picture) of a hedged answer")
    args = parser.parse_args()
    pictures = qa.load_labels(args.coco)
    categories = qa.categories_asked(pictures, args.categories)
    names = qa.half(sorted(pictures), args.half)
    environment = dict(os.environ)
    home = tempfile.mkdtemp(prefix="questions-tier-")
    environment.update(XDG_DATA_HOME=home, XDG_CONFIG_HOME=home, XDG_RUNTIME_DIR=home)
    found = qs.detections(args.assist, [pictures[n]["path"] for n in names], args.floor_min, environment, [])
    print(f"{args.half} half: {len(names)} pictures; detector once at {args.floor_min}; threshold {args.threshold}")
    print(f"{'floor':>6} {'area':>5} {'is there':>10} {'how many':>10} {'where is':>10} {'answerable':>16} "
          f"{'named absent':>13} {'yes/possibly to absent (all 80)':>32} {'possibly right':>15} {'possibly wrong':>15}")
    rows = [(None, 0.0)] + [(float(f), float(a)) for f in args.floors.split(",") for a in args.min_areas.split(",")]
    for floor, min_area in rows:
        right, asked, naming, every, hr, hw = judge(pictures, names, categories, found, args.threshold, floor, min_area, args.absent)
        total_right, total = sum(right.values()), sum(asked.values())
        cells = " ".join(f"{right[k]:>4}/{asked[k]:<5}" for k in ["is there", "how many", "where is"])
        label = "none" if floor is None else f"{floor:.2f}"
        print(f"{label:>6} {min_area:>5.2f} {cells} {total_right:>4}/{total:<4} {100 * total_right / max(total, 1):5.1f}% "
              f"{naming:>13} {every:>32} {hr:>15} {hw:>15}")


if __name__ == "__main__":
    main()
