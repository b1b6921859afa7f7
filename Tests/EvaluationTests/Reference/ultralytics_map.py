#!/usr/bin/env python3
"""Reference mAP for the Evaluation tests: Ultralytics' detection validation in plain NumPy.

Re-implements, from reading Ultralytics (ultralytics/engine/validator.py `match_predictions`,
ultralytics/models/yolo/detect/val.py `update_metrics` / `get_stats`, ultralytics/utils/metrics.py
`box_iou`, `ap_per_class`, `compute_ap`), the steps after NMS, with the same NumPy calls where
Ultralytics uses NumPy and Float32 NumPy where it uses torch. Needs only NumPy.

Input (a JSON file named on the command line):
  {"images": [{"detections": [[x0, y0, x1, y1, confidence, class], ...],
               "groundTruth": [[class, x0, y0, x1, y1], ...]}, ...]}
  Boxes are pixels of the original image, already clipped to it.
Output (stdout, JSON): map50_95, map50, mp, mr, classes, ap50, ap (per class), images, instances.

Ultralytics sorts all detections by confidence with NumPy's default (unstable) argsort, so the
order of equal confidences is unspecified; --stable-ties sorts them stably instead (keeping image
order, then detection order), which is what the Swift implementation promises.

Running it with --self-test checks it against hand-computed examples.
"""
import json
import sys

import numpy as np


def iou_thresholds():
    """torch.linspace(0.5, 0.95, 10) in float32: start + step*i for the first half, end - step*(9-i) after."""
    start, end, steps = np.float32(0.5), np.float32(0.95), 10
    step = (end - start) / np.float32(steps - 1)
    values = [start + step * np.float32(i) if i < steps // 2 else end - step * np.float32(steps - 1 - i)
              for i in range(steps)]
    return np.array(values, dtype=np.float32)


IOUV = iou_thresholds()


def box_iou(box1, box2, eps=1e-7):
    """Ultralytics' box_iou (torch, float32) in float32 NumPy: (N,4) x (M,4) -> (N,M)."""
    box1 = box1.astype(np.float32)
    box2 = box2.astype(np.float32)
    a1, a2 = box1[:, None, :2], box1[:, None, 2:]
    b1, b2 = box2[None, :, :2], box2[None, :, 2:]
    inter = (np.minimum(a2, b2) - np.maximum(a1, b1)).clip(0).prod(2)
    return inter / ((a2 - a1).prod(2) + (b2 - b1).prod(2) - inter + eps)


def match_predictions(pred_classes, true_classes, iou):
    """The default (non-SciPy) branch of BaseValidator.match_predictions; iou is labels x detections."""
    correct = np.zeros((pred_classes.shape[0], IOUV.shape[0])).astype(bool)
    correct_class = true_classes[:, None] == pred_classes
    iou = iou * correct_class
    for i, threshold in enumerate(IOUV.tolist()):
        matches = np.nonzero(iou >= threshold)
        matches = np.array(matches).T
        if matches.shape[0]:
            if matches.shape[0] > 1:
                matches = matches[iou[matches[:, 0], matches[:, 1]].argsort()[::-1]]
                matches = matches[np.unique(matches[:, 1], return_index=True)[1]]
                matches = matches[np.unique(matches[:, 0], return_index=True)[1]]
            correct[matches[:, 1].astype(int), i] = True
    return correct


def trapezoid(y, x):
    return np.trapezoid(y, x) if hasattr(np, "trapezoid") else np.trapz(y, x)


def compute_ap(recall, precision):
    mrec = np.concatenate(([0.0], recall, [1.0]))
    mpre = np.concatenate(([1.0], precision, [0.0]))
    mpre = np.flip(np.maximum.accumulate(np.flip(mpre)))
    x = np.linspace(0, 1, 101)
    return trapezoid(np.interp(x, mrec, mpre), x)


def smooth(y, f=0.05):
    nf = round(len(y) * f * 2) // 2 + 1
    p = np.ones(nf // 2)
    yp = np.concatenate((p * y[0], y, p * y[-1]), 0)
    return np.convolve(yp, np.ones(nf) / nf, mode="valid")


STABLE_TIES = False


def ap_per_class(tp, conf, pred_cls, target_cls, eps=1e-16):
    i = np.argsort(-conf, kind="stable") if STABLE_TIES else np.argsort(-conf)
    tp, conf, pred_cls = tp[i], conf[i], pred_cls[i]
    unique_classes, nt = np.unique(target_cls, return_counts=True)
    nc = unique_classes.shape[0]
    x = np.linspace(0, 1, 1000)
    ap, p_curve, r_curve = np.zeros((nc, tp.shape[1])), np.zeros((nc, 1000)), np.zeros((nc, 1000))
    for ci, c in enumerate(unique_classes):
        i = pred_cls == c
        n_l = nt[ci]
        n_p = i.sum()
        if n_p == 0 or n_l == 0:
            continue
        fpc = (1 - tp[i]).cumsum(0)
        tpc = tp[i].cumsum(0)
        recall = tpc / (n_l + eps)
        r_curve[ci] = np.interp(-x, -conf[i], recall[:, 0], left=0)
        precision = tpc / (tpc + fpc)
        p_curve[ci] = np.interp(-x, -conf[i], precision[:, 0], left=1)
        for j in range(tp.shape[1]):
            ap[ci, j] = compute_ap(recall[:, j], precision[:, j])
    f1_curve = 2 * p_curve * r_curve / (p_curve + r_curve + eps)
    i = smooth(f1_curve.mean(0), 0.1).argmax()
    p, r = p_curve[:, i], r_curve[:, i]
    return p, r, ap, unique_classes.astype(int)


def evaluate(images):
    """DetectionValidator.update_metrics + get_stats over already-NMSed detections."""
    stats = []
    instances = 0
    for image in images:
        pred = np.array(image["detections"], dtype=np.float32).reshape(-1, 6)
        labels = np.array(image["groundTruth"], dtype=np.float32).reshape(-1, 5)
        # NMS hands detections over by falling confidence (stable for ties, as the Swift side).
        pred = pred[np.argsort(-pred[:, 4], kind="stable")]
        cls = labels[:, 0]
        nl, npr = cls.shape[0], pred.shape[0]
        instances += nl
        correct = np.zeros((npr, IOUV.shape[0]), dtype=bool)
        if npr == 0:
            if nl:
                stats.append((correct, np.zeros(0, np.float32), np.zeros(0, np.float32), cls))
            continue
        if nl:
            iou = box_iou(labels[:, 1:], pred[:, :4])
            correct = match_predictions(pred[:, 5], cls, iou)
        stats.append((correct, pred[:, 4], pred[:, 5], cls))
    result = {"map50_95": 0.0, "map50": 0.0, "mp": 0.0, "mr": 0.0, "classes": [], "ap50": [], "ap": [],
              "images": len(images), "instances": instances}
    if not stats:
        return result
    tp, conf, pred_cls, target_cls = (np.concatenate(x, 0) for x in zip(*stats))
    if not tp.any():
        return result
    p, r, ap, classes = ap_per_class(tp, conf, pred_cls, target_cls)
    result.update({
        "map50_95": float(ap.mean()), "map50": float(ap[:, 0].mean()),
        "mp": float(p.mean()), "mr": float(r.mean()),
        "classes": classes.tolist(), "ap50": ap[:, 0].tolist(), "ap": ap.mean(1).tolist(),
    })
    return result


def self_test():
    """Hand-computed cases; exits non-zero when one fails."""
    box = [10.0, 10.0, 50.0, 90.0]
    far = [200.0, 200.0, 240.0, 280.0]
    cases = [
        # One object found exactly: recall reaches 1, but np.interp at recall 1 lands on the closing
        # sentinel (precision 0), so the last trapezoid is half: 0.99 + 0.01 * 0.5 = 0.995.
        ("perfect", [{"detections": [box + [0.9, 3]], "groundTruth": [[3] + box]}], 0.995),
        # One of two objects found: envelope 1 up to recall 0.5, then a line to 0 at recall 1:
        # 0.5 + 0.25 = 0.75.
        ("one of two", [{"detections": [box + [0.9, 3]], "groundTruth": [[3] + box, [3] + far]}], 0.75),
        # A false positive above the true positive: precision 0.5 at recall 0…1 except the sentinel
        # 0 at recall 1: 0.99 * 0.5 + 0.01 * 0.25 = 0.4975.
        ("false positive first", [{"detections": [far + [0.9, 3], box + [0.8, 3]], "groundTruth": [[3] + box]}], 0.4975),
    ]
    failed = 0
    for name, images, expected in cases:
        got = evaluate(images)
        if abs(got["map50_95"] - expected) > 1e-12 or abs(got["map50"] - expected) > 1e-12:
            print(f"self-test {name}: expected {expected}, got {got['map50_95']} / {got['map50']}", file=sys.stderr)
            failed += 1
    expected_thresholds = [0.5, 0.550000011920929, 0.6000000238418579, 0.6499999761581421, 0.699999988079071,
                           0.75, 0.800000011920929, 0.8500000238418579, 0.8999999761581421, 0.949999988079071]
    if IOUV.tolist() != expected_thresholds:
        print(f"self-test thresholds: {IOUV.tolist()}", file=sys.stderr)
        failed += 1
    print(json.dumps({"self_test_failures": failed}))
    return failed


if __name__ == "__main__":
    if len(sys.argv) == 2 and sys.argv[1] == "--self-test":
        sys.exit(1 if self_test() else 0)
    if len(sys.argv) == 3 and sys.argv[2] == "--stable-ties":
        STABLE_TIES = True
    elif len(sys.argv) != 2:
        sys.exit("usage: ultralytics_map.py INPUT.json [--stable-ties] | --self-test")
    with open(sys.argv[1]) as f:
        data = json.load(f)
    print(json.dumps(evaluate(data["images"])))
