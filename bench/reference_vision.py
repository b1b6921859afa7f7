#!/usr/bin/env python3
"""Reference YOLO pipeline: what Ultralytics' predictor does, in NumPy + OpenCV, for the benchmark.

Written from reading Ultralytics (ultralytics/data/augment.py `LetterBox`, ultralytics/engine/
predictor.py `preprocess`, ultralytics/utils/nms.py `non_max_suppression`, ultralytics/utils/ops.py
`xywh2xyxy`, `scale_boxes`, `clip_boxes`; ultralytics/nn/autobackend.py for how ONNX Runtime and
OpenVINO are called), so our Swift pipeline is measured against the path a Python user would take,
not against a straw man. Torch is replaced by float32 NumPy; torchvision's `nms` by a greedy loop
with its semantics (descending score, suppress when IoU > threshold strictly).

Modes (JSON on stdout):
  time  --backend B --model M [--runs N --warmup W --conf C --iou I] IMAGE...
        per image: median/p95 ms of decode, pre-process, inference, post-process, total, and of the
        backend's inference alone on the same tensor ("raw inference"); detections of the last run.
  serve --backend B --model M [--conf C --iou I] -
        reads picture paths from stdin, one a line; answers each with one JSON line (ms by stage, raw
        inference, detections), so a driver can interleave it run by run with our pipeline.
  once  --backend B --model M IMAGE
        start-up probe: loads the model, describes one picture, prints one line per detection and exits.
  eval  --backend B --model M DATASET
        Ultralytics validation settings (conf 0.001, IoU 0.7, multi-label, max 300), scored by
        Tests/EvaluationTests/Reference/ultralytics_map.py (the NumPy port of Ultralytics' metrics).
"""
import argparse
import json
import os
import sys
import time

import cv2
import numpy as np

MAX_WH = 7680      # Ultralytics' class offset for batched NMS (pixels)
MAX_NMS = 30000    # Ultralytics caps the boxes handed to NMS


# ---------------------------------------------------------------- backends (autobackend.py)

class OnnxRuntimeBackend:
    """`AutoBackend` with `onnx=True` on CPU: an InferenceSession with the CPU provider, default options."""

    name = "onnxruntime"

    def __init__(self, model_path):
        import onnxruntime as ort
        self.session = ort.InferenceSession(model_path, providers=["CPUExecutionProvider"])
        self.input_name = self.session.get_inputs()[0].name
        self.output_names = [o.name for o in self.session.get_outputs()]
        shape = self.session.get_inputs()[0].shape
        self.input_size = (int(shape[2]), int(shape[3]))
        self.version = ort.__version__

    def __call__(self, tensor):
        return self.session.run(self.output_names, {self.input_name: tensor})[0]


class OpenVINOBackend:
    """`AutoBackend` with `openvino=True`: read_model, compile for CPU, call the compiled model.

    Ultralytics compiles with only a performance hint; we also pin INFERENCE_PRECISION_HINT to f32,
    because on bf16-capable CPUs OpenVINO would otherwise run bf16 while our pipeline runs f32.
    """

    name = "openvino"

    def __init__(self, model_path):
        import openvino as ov
        core = ov.Core()
        model = core.read_model(model_path)
        self.compiled = core.compile_model(model, "CPU", {"PERFORMANCE_HINT": "LATENCY", "INFERENCE_PRECISION_HINT": "f32"})
        shape = model.inputs[0].get_partial_shape()
        self.input_size = (shape[2].get_length(), shape[3].get_length())
        self.version = ov.__version__
        precision = str(self.compiled.get_property("INFERENCE_PRECISION_HINT"))
        self.precision = "f32" if "float32" in precision or precision == "f32" else precision

    def __call__(self, tensor):
        return next(iter(self.compiled(tensor).values()))


def make_backend(name, model_path):
    return {"onnxruntime": OnnxRuntimeBackend, "openvino": OpenVINOBackend}[name](model_path)


# ---------------------------------------------------------------- pre-processing (augment.py, predictor.py)

def letterbox(image, new_shape):
    """LetterBox(auto=False, scaleup=True, center=True) as the predictor uses it for exported models.

    Python's round() rounds halves to even; Ultralytics relies on it for the padding.
    """
    shape = image.shape[:2]
    r = min(new_shape[0] / shape[0], new_shape[1] / shape[1])
    new_unpad = int(round(shape[1] * r)), int(round(shape[0] * r))
    dw, dh = (new_shape[1] - new_unpad[0]) / 2, (new_shape[0] - new_unpad[1]) / 2
    if shape[::-1] != new_unpad:
        image = cv2.resize(image, new_unpad, interpolation=cv2.INTER_LINEAR)
    top, bottom = int(round(dh - 0.1)), int(round(dh + 0.1))
    left, right = int(round(dw - 0.1)), int(round(dw + 0.1))
    return cv2.copyMakeBorder(image, top, bottom, left, right, cv2.BORDER_CONSTANT, value=(114, 114, 114))


def preprocess(image_bgr, input_size):
    """BasePredictor.preprocess for one image: letterbox, BGR→RGB, HWC→CHW, contiguous, float32 /255."""
    im = letterbox(image_bgr, input_size)[None]
    im = im[..., ::-1].transpose((0, 3, 1, 2))
    im = np.ascontiguousarray(im)
    return im.astype(np.float32) / np.float32(255.0)


# ---------------------------------------------------------------- post-processing (nms.py, ops.py)

def xywh2xyxy(x):
    xy, half_wh = x[..., :2], x[..., 2:] / np.float32(2)
    return np.concatenate((xy - half_wh, xy + half_wh), axis=-1)


def nms_indices(boxes, scores, iou_threshold):
    """torchvision.ops.nms semantics: highest score first; drop a box whose IoU with a kept one is > threshold."""
    order = np.argsort(-scores, kind="stable")
    x1, y1, x2, y2 = boxes[:, 0], boxes[:, 1], boxes[:, 2], boxes[:, 3]
    areas = (x2 - x1) * (y2 - y1)
    keep = []
    while order.size:
        i = order[0]
        keep.append(i)
        rest = order[1:]
        w = np.maximum(np.float32(0), np.minimum(x2[i], x2[rest]) - np.maximum(x1[i], x1[rest]))
        h = np.maximum(np.float32(0), np.minimum(y2[i], y2[rest]) - np.maximum(y1[i], y1[rest]))
        inter = w * h
        iou = inter / (areas[i] + areas[rest] - inter)
        order = rest[iou <= iou_threshold]
    return np.array(keep, dtype=np.int64)


def non_max_suppression(prediction, conf_thres, iou_thres, multi_label=False, max_det=300):
    """non_max_suppression for one image of a (1, 4+nc, N) YOLOv8/11 output; returns (n, 6) x0 y0 x1 y1 conf cls."""
    nc = prediction.shape[1] - 4
    xc = prediction[0, 4:4 + nc].max(0) > conf_thres
    x = prediction[0].T[xc]
    box = xywh2xyxy(x[:, :4])
    cls = x[:, 4:4 + nc]
    if multi_label and nc > 1:
        i, j = np.nonzero(cls > conf_thres)
        x = np.concatenate((box[i], x[i, 4 + j, None], j[:, None].astype(np.float32)), 1)
    else:
        j = cls.argmax(1)
        conf = cls[np.arange(cls.shape[0]), j][:, None]
        x = np.concatenate((box, conf, j[:, None].astype(np.float32)), 1)[conf[:, 0] > conf_thres]
    if not x.shape[0]:
        return np.zeros((0, 6), np.float32)
    if x.shape[0] > MAX_NMS:
        x = x[np.argsort(-x[:, 4], kind="stable")[:MAX_NMS]]
    offsets = x[:, 5:6] * np.float32(MAX_WH)
    keep = nms_indices(x[:, :4] + offsets, x[:, 4], iou_thres)[:max_det]
    return x[keep]


def scale_boxes(input_shape, boxes, image_shape):
    """scale_boxes with padding=True, then clip_boxes: letterbox pixels → source pixels."""
    gain = min(input_shape[0] / image_shape[0], input_shape[1] / image_shape[1])
    pad_x = round((input_shape[1] - image_shape[1] * gain) / 2 - 0.1)
    pad_y = round((input_shape[0] - image_shape[0] * gain) / 2 - 0.1)
    boxes = boxes.copy()
    boxes[:, [0, 2]] -= np.float32(pad_x)
    boxes[:, [1, 3]] -= np.float32(pad_y)
    boxes[:, :4] /= np.float32(gain)
    boxes[:, [0, 2]] = boxes[:, [0, 2]].clip(0, image_shape[1])
    boxes[:, [1, 3]] = boxes[:, [1, 3]].clip(0, image_shape[0])
    return boxes


def postprocess(output, input_size, image_shape, conf, iou, multi_label=False):
    det = non_max_suppression(output, conf, iou, multi_label=multi_label)
    det[:, :4] = scale_boxes(input_size, det[:, :4], image_shape)
    return det


# ---------------------------------------------------------------- timing

def stats(values):
    """Median and 95th percentile (nearest rank, as the Swift side computes them)."""
    s = sorted(values)
    n = len(s)
    median = (s[(n - 1) // 2] + s[n // 2]) / 2
    p95 = s[min(n - 1, int(np.ceil(n * 0.95)) - 1)]
    return {"medianMilliseconds": median, "percentile95Milliseconds": p95}


def ms(start):
    return (time.perf_counter() - start) * 1000


def one_sample(backend, path, conf, iou):
    """One pass over one picture, then one raw inference on the same tensor: ms by stage and detections."""
    t0 = time.perf_counter()
    image = cv2.imread(path)
    t1 = time.perf_counter()
    tensor = preprocess(image, backend.input_size)
    t2 = time.perf_counter()
    output = backend(tensor)
    t3 = time.perf_counter()
    det = postprocess(output, backend.input_size, image.shape[:2], conf, iou)
    t4 = time.perf_counter()
    backend(tensor)
    t5 = time.perf_counter()
    ms_between = lambda a, b: (b - a) * 1000
    return {"milliseconds": {"decode": ms_between(t0, t1), "pre-process": ms_between(t1, t2),
                             "inference": ms_between(t2, t3), "post-process": ms_between(t3, t4),
                             "total": ms_between(t0, t4), "total without decode": ms_between(t1, t4),
                             "raw inference": ms_between(t4, t5)},
            "imageWidth": int(image.shape[1]), "imageHeight": int(image.shape[0]),
            "detections": [[float(v) for v in row[:5]] + [int(row[5])] for row in det]}


def serve(backend, conf, iou):
    for line in sys.stdin:
        path = line.strip()
        if path:
            print(json.dumps(one_sample(backend, path, conf, iou)), flush=True)


def time_image(backend, path, runs, warmup, conf, iou):
    """Times the whole pipeline on one picture `runs` times after `warmup` untimed runs, each run
    as `one_sample` measures it (so raw inference means the same here as in `serve`)."""
    results = [one_sample(backend, path, conf, iou) for _ in range(warmup + runs)][warmup:]
    stages = list(results[0]["milliseconds"])
    return {
        "image": os.path.basename(path), "imageWidth": results[0]["imageWidth"],
        "imageHeight": results[0]["imageHeight"], "runs": runs,
        "stages": [{"stage": k, **stats([r["milliseconds"][k] for r in results])} for k in stages],
        "detections": results[-1]["detections"],
    }


# ---------------------------------------------------------------- accuracy

def dataset_images(dataset):
    """(image path, label path) pairs of a YOLO dataset folder (images/… with labels/… beside it)."""
    pairs = []
    for root, _, files in os.walk(os.path.join(dataset, "images")):
        for name in sorted(files):
            if name.lower().endswith((".jpg", ".jpeg", ".png", ".bmp", ".webp")):
                image = os.path.join(root, name)
                label = os.path.splitext(image.replace(os.sep + "images" + os.sep, os.sep + "labels" + os.sep))[0] + ".txt"
                pairs.append((image, label))
    return sorted(pairs)


def ground_truth(label_path, width, height):
    """YOLO label lines (class cx cy w h, normalised) → [class, x0, y0, x1, y1] in pixels, as Ultralytics reads them."""
    if not os.path.exists(label_path):
        return []
    rows = []
    for line in open(label_path):
        parts = line.split()
        if len(parts) < 5:
            continue
        c, cx, cy, w, h = int(parts[0]), *map(float, parts[1:5])
        rows.append([c, (cx - w / 2) * width, (cy - h / 2) * height, (cx + w / 2) * width, (cy + h / 2) * height])
    return rows


def evaluate(backend, dataset, map_module):
    images = []
    start = time.perf_counter()
    for image_path, label_path in dataset_images(dataset):
        image = cv2.imread(image_path)
        h, w = image.shape[:2]
        output = backend(preprocess(image, backend.input_size))
        det = postprocess(output, backend.input_size, (h, w), 0.001, 0.7, multi_label=True)
        images.append({"detections": det.tolist(), "groundTruth": ground_truth(label_path, w, h)})
    result = map_module.evaluate(images)
    result["seconds"] = time.perf_counter() - start
    for key in ("classes", "ap50", "ap"):
        result.pop(key, None)
    return result


def load_map_module(path):
    import importlib.util
    spec = importlib.util.spec_from_file_location("ultralytics_map", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=["time", "serve", "once", "eval"])
    parser.add_argument("--backend", choices=["onnxruntime", "openvino"], required=True)
    parser.add_argument("--model", required=True)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--conf", type=float, default=0.25)
    parser.add_argument("--iou", type=float, default=0.7)
    parser.add_argument("--map-script", default=os.path.join(os.path.dirname(__file__), "..", "Tests", "EvaluationTests",
                                                             "Reference", "ultralytics_map.py"))
    parser.add_argument("paths", nargs="*")
    args = parser.parse_intermixed_args()
    backend = make_backend(args.backend, args.model)
    if args.mode == "serve":
        print(json.dumps({"ready": True, "version": backend.version,
                          "precision": getattr(backend, "precision", "f32 (ONNX Runtime CPU)")}), flush=True)
        return serve(backend, args.conf, args.iou)
    if args.mode == "once":
        image = cv2.imread(args.paths[0])
        det = postprocess(backend(preprocess(image, backend.input_size)), backend.input_size, image.shape[:2],
                          args.conf, args.iou)
        for row in det:
            print(f"class {int(row[5])} {row[4]:.2f} at {row[0]:.0f},{row[1]:.0f},{row[2]:.0f},{row[3]:.0f}", flush=True)
        return
    info = {"backend": backend.name, "version": backend.version, "model": os.path.basename(args.model),
            "precision": getattr(backend, "precision", "f32 (ONNX Runtime CPU)")}
    if args.mode == "time":
        info["results"] = [time_image(backend, p, args.runs, args.warmup, args.conf, args.iou) for p in args.paths]
    else:
        info["accuracy"] = evaluate(backend, args.paths[0], load_map_module(args.map_script))
    json.dump(info, sys.stdout, indent=1)


if __name__ == "__main__":
    main()
