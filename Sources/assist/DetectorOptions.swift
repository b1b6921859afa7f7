import ArgumentParser
import AssistCore
import Foundation
import Perception
import SessionControl

/// Options that choose and run the detector, shared by every command that detects.
struct DetectorOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Detector model: an Ultralytics YOLO export as OpenVINO IR (.xml with its .bin beside it) or ONNX.",
                               discussion: "Default: yolo11n_int8_openvino_model/yolo11n.xml in the models folder, found through $ASSIST_MODELS, then 'modelsDirectory' in ~/.config/assistivekit/config.json, then ../shared/models.",
                               valueName: "path"))
    var model: String?

    @Option(help: ArgumentHelp("Class names, one per line, for exports without names in their metadata.", valueName: "path"))
    var labels: String?

    @Option(help: "Inference device: CPU, AUTO, GPU or NPU (GPU and NPU only where OpenVINO finds them).")
    var device: InferenceDevice = .cpu

    @Option(help: "Inference threads; 0 lets OpenVINO use every core.")
    var threads: Int = 0

    @Option(help: ArgumentHelp("Inference precision: auto (the default), f32, bf16 or f16.",
                               discussion: "auto runs bf16 only on a CPU with AVX-512 BF16 or AMX and only when 'assist eval detection DATASET --precision-check' found this model within 0.5 mAP points of f32 on this CPU at the input shape in use; otherwise f32."))
    var precision: PrecisionRequest = .auto

    @Option(help: "Detector input shape: rectangular (the frame's aspect, long side at the model's size, short side rounded up to 32: 640×480 for 4:3), rectangular-padded (half a stride more first, as Ultralytics' validation: 640×512 for 4:3; the default) or square (the model's own, e.g. 640×640).")
    var inputShape: DetectorInputShape = .default

    @Flag(help: "Don't use OpenVINO's compiled-model cache (in ~/.cache/assistivekit/openvino).")
    var noModelCache = false

    func validate() throws {
        guard threads >= 0 else { throw ValidationError("--threads must be 0 (all cores) or a positive number.") }
    }

    var choice: DetectorChoice {
        DetectorChoice(modelPath: model, labelsPath: labels, device: device, threads: threads, precision: precision,
                       inputShape: inputShape, usesModelCache: !noModelCache)
    }

    func makeDetector(core: InferenceCore, inputShape: DetectorInputShape? = nil, shapeCacheCapacity: Int = 4) throws -> ObjectDetector {
        try choice.makeDetector(core: core, inputShape: inputShape, shapeCacheCapacity: shapeCacheCapacity, warn: UserData.warn)
    }
}
