"""A second look at a still picture (issue 38, twenty-sixth session): does a second run of the
detector on another view of the same picture confirm its low-confidence sightings well enough to
answer more of the coco128 questions right with no more false sightings?

A still picture has no second frame to confirm a sighting, as the live tracker does. The second
views weighed here are the picture mirrored left to right (the detector is not symmetric, so a
real thing tends to be found again, noise less so) and the picture at the square input (another
letterbox, another scale). The detector runs once per picture per view at --floor-min (as
bench/questions_settings.py does); the detections are kept as JSON in --cache. Then, for each
setting: a detection of the plain run below the threshold (0.6, the stored setting) but at or
above a floor counts, as if it had reached the threshold, only when the second view found the same
category at --second-min or more with a box overlapping it (intersection over union at least
--iou, the mirrored view's boxes mirrored back). "How many" counts every detection that counts, so
a count stays exact (never hedged). Everything is then judged by bench/questions_settings.py's
rules (those of bench/questions_accuracy.py), and "yes to an absent category" is counted over
every picture and all 80 categories.

Choose on the first half only, then score the second half once with the chosen setting:
    python3 bench/questions_second_look.py --half first
    python3 bench/questions_second_look.py --half second --floors F --second-mins S --ious I --views V
"""
import argparse, json, os, subprocess, sys, tempfile
sys.path.insert(0, os.path.dirname(__file__))
import questions_accuracy as qa
import questions_settings as qs

VIEWS = {"mirror": {"mirrored": True, "extra": []},
         "square": {"mirrored": False, "extra": ["--input-shape", "square"]},
         "mirror-square": {"mirrored": True, "extra": ["--input-shape", "square"]}}


def mirrored_copies(paths, folder):
    """The pictures flipped left to right, as PNG (lossless after decoding), named by stem."""
    os.makedirs(folder, exist_ok=True)
    copies = []
    for path in paths:
        copy = os.path.join(folder, os.path.splitext(os.path.basename(path))[0] + ".png")
        if not os.path.exists(copy):
            subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-i", path, "-vf", "hflip", copy], check=True)
        copies.append(copy)
    return copies


def view_detections(assist, pictures, names, view, floor, environment, cache):
    """{picture name: detections} of one view ("plain" or a VIEWS key), boxes in the picture's own frame."""
    cached = os.path.join(cache, f"{view}-{floor}-{names[0]}-{len(names)}.json")
    if os.path.exists(cached):
        return json.load(open(cached))
    paths = [pictures[n]["path"] for n in names]
    setting = VIEWS.get(view, {"mirrored": False, "extra": []})
    if setting["mirrored"]:
        paths = mirrored_copies(paths, os.path.join(cache, "mirrored"))
    found = qs.detections(assist, paths, floor, environment, setting["extra"])
    by_stem = {os.path.splitext(n)[0]: n for n in names}
    result = {}
    for source, picture in found.items():
        name = by_stem[os.path.splitext(source)[0]]
        if setting["mirrored"]:
            width = picture["width"]
            for o in picture["objects"]:
                b = o["box"]
                o["box"] = dict(b, x0=width - b["x1"], x1=width - b["x0"])
        result[name] = picture
    json.dump(result, open(cached, "w"))
    return result


def iou(a, b):
    w = min(a["x1"], b["x1"]) - max(a["x0"], b["x0"]); h = min(a["y1"], b["y1"]) - max(a["y0"], b["y0"])
    if w <= 0 or h <= 0: return 0.0
    inter = w * h
    union = (a["x1"] - a["x0"]) * (a["y1"] - a["y0"]) + (b["x1"] - b["x0"]) * (b["y1"] - b["y0"]) - inter
    return inter / union if union > 0 else 0.0


def confirmed(plain, seconds, threshold, floor, second_min, min_iou):
    """The plain run's detections as the answer would use them: those at the threshold, and those at
    or above `floor` that every second view confirms, raised to the threshold; the rest dropped."""
    result = {}
    for name, picture in plain.items():
        kept = []
        for o in picture["objects"]:
            if o["confidence"] >= threshold:
                kept.append(o)
            elif floor is not None and o["confidence"] >= floor and all(
                    any(s["label"] == o["label"] and s["confidence"] >= second_min and iou(s["box"], o["box"]) >= min_iou
                        for s in second[name]["objects"]) for second in seconds):
                kept.append(dict(o, confidence=threshold))
        result[name] = dict(picture, objects=kept)
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    qs.add_picture_options(parser)
    parser.add_argument("--threshold", type=float, default=0.6, help="the announcing threshold (the stored setting)")
    parser.add_argument("--floor-min", type=float, default=0.2, help="every view's detector runs once at this confidence")
    parser.add_argument("--views", default="mirror,square,mirror-square,mirror+square", help="second views (a+b: both must confirm)")
    parser.add_argument("--floors", default="0.5,0.45,0.4,0.35,0.3,0.25", help="least confidence of a sighting a second look may confirm")
    parser.add_argument("--second-mins", default="0.2,0.3,0.4,0.5", help="least confidence of the confirming sighting")
    parser.add_argument("--ious", default="0.3,0.5,0.7", help="least overlap of the two boxes (intersection over union)")
    parser.add_argument("--cache", default="bench-out/second-look", help="the detections of each view, as JSON")
    args = parser.parse_args()
    pictures = qa.load_labels(args.coco)
    categories = qa.categories_asked(pictures, args.categories)
    names = qa.half(sorted(pictures), args.half)
    environment = dict(os.environ)
    home = tempfile.mkdtemp(prefix="questions-second-look-")
    environment.update(XDG_DATA_HOME=home, XDG_CONFIG_HOME=home, XDG_RUNTIME_DIR=home)
    os.makedirs(args.cache, exist_ok=True)
    views = args.views.split(",")
    needed = sorted({v for view in views for v in view.split("+")})
    found = {v: view_detections(args.assist, pictures, names, v, args.floor_min, environment, args.cache) for v in ["plain"] + needed}
    print(f"{args.half} half: {len(names)} pictures; every view's detector once at {args.floor_min}; threshold {args.threshold}")
    print(f"{'view':>14} {'floor':>6} {'second':>6} {'iou':>4} {'is there':>10} {'how many':>10} {'where is':>10} "
          f"{'answerable':>16} {'named absent':>13} {'yes to absent (all 80)':>23}")

    def row(view, floor, second_min, min_iou):
        seconds = [found[v] for v in view.split("+")] if view else []
        answered = confirmed(found["plain"], seconds, args.threshold, floor, second_min, min_iou)
        right, asked, naming = qs.judge(pictures, names, categories, answered, args.threshold, args.absent)
        every = qs.yes_to_absent(pictures, names, answered, args.threshold)
        total_right, total = sum(right.values()), sum(asked.values())
        cells = " ".join(f"{right[k]:>4}/{asked[k]:<5}" for k in ["is there", "how many", "where is"])
        print(f"{view or 'none':>14} {'-' if floor is None else f'{floor:.2f}':>6} {second_min:>6.2f} {min_iou:>4.1f} {cells} "
              f"{total_right:>4}/{total:<4} {100 * total_right / max(total, 1):5.1f}% {naming:>13} {every:>23}")

    row(None, None, 0, 0)
    for view in views:
        for floor in map(float, args.floors.split(",")):
            for second_min in map(float, args.second_mins.split(",")):
                for min_iou in map(float, args.ious.split(",")):
                    row(view, floor, second_min, min_iou)


if __name__ == "__main__":
    main()
