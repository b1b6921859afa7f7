import ArgumentParser
import AssistCore
import Evaluation
import Foundation
import Perception
import Media
import SessionControl

struct Eval: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval",
        abstract: "Measures accuracy: detection mAP on a labelled image set, distance error on RGB-D frames.",
        discussion: DocsPage.models.reference,
        subcommands: [EvalDetection.self, EvalDistance.self])
}

struct EvalDetection: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detection",
        abstract: "Prints mAP50-95 and mAP50 of the detector on a YOLO-format dataset, computed as Ultralytics' 'yolo val' does.",
        discussion: """
        DATASET is a YOLO dataset folder (images/… with labels/… beside it) or a folder of images. \
        The defaults are Ultralytics' validation settings (confidence 0.001, NMS IoU 0.7, every class above \
        the threshold kept per anchor, at most 300 detections), so the numbers compare with 'yolo val'.

        Example:
          assist eval detection ../shared/data/coco128
        """ + DocsPage.models.seeAlso)

    @Argument(help: ArgumentHelp("The dataset folder.", valueName: "dataset"))
    var dataset: String

    @OptionGroup(title: "Detector") var detector: DetectorOptions

    @Option(help: "Confidence threshold for evaluation.")
    var confidence: Float = DetectorSettings.evaluation.confidenceThreshold

    @Option(help: "NMS IoU threshold.")
    var iou: Float = DetectorSettings.evaluation.iouThreshold

    @Option(help: "At most this many detections per image.")
    var maxDetections: Int = DetectorSettings.evaluation.maximumDetections

    @Flag(help: "Keep only the best class per anchor (faster; about 0.015 lower mAP50 on coco128).")
    var singleLabel = false

    @Flag(help: "Print the report as JSON.")
    var json = false

    @Flag(help: "Measure f32 and bf16 on the dataset and record the difference for this model, input shape and CPU: '--precision auto' runs bf16 only when it is within 0.5 mAP points.")
    var precisionCheck = false

    func validate() throws {
        if precisionCheck && detector.precision != .auto {
            throw ValidationError("--precision-check measures f32 and bf16 itself; leave out --precision.")
        }
    }

    func run() async throws {
        let settings = try DetectorSettings(confidenceThreshold: confidence, iouThreshold: iou,
                                            maximumDetections: maxDetections, multiLabel: !singleLabel).validated()
        // A dataset holds many aspects: keep each rectangular shape compiled once.
        if precisionCheck {
            return try PrecisionCheck(choice: detector.choice, settings: settings).printCheck(datasetAt: URL(fileURLWithPath: dataset), json: json) {
                try $0.makeDetector(core: InferenceCore(), shapeCacheCapacity: 32, warn: UserData.warn)
            }
        }
        try DetectionEvaluator.printEvaluation(datasetAt: URL(fileURLWithPath: dataset), settings: settings,
                                               requestedPrecision: detector.precision.rawValue, json: json,
                                               makeDetector: { try detector.makeDetector(core: InferenceCore(), shapeCacheCapacity: 32) })
    }
}

struct EvalDistance: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "distance",
        abstract: "Compares the geometric distance estimate with measured depth on RGB-D frames.",
        discussion: """
        Each picture needs a registered depth image beside it (NAME_depth_mm.pgm for NAME_color.*). Objects \
        are detected in the picture, their distance estimated from geometry alone (object size, floor \
        contact), and compared with the median measured depth inside each object's core.

        The defaults are the frames in ../shared/data/depth that are registered to their colour image \
        (TUM and SUN; NYU is not registered) with the PrimeSense intrinsics Open3D uses for them.

        Example:
          assist eval distance ../shared/data/depth/TUM_color.png ../shared/data/depth/SUN_color.jpg
        """ + DocsPage.models.seeAlso)

    @Argument(help: ArgumentHelp("Colour pictures with a NAME_depth_mm file beside each.", valueName: "image"))
    var images: [String] = []

    @OptionGroup(title: "Detector") var detector: DetectorOptions

    @Option(help: "Objects below this confidence are left out (the product's announcement threshold by default).")
    var confidence: Float = 0.6

    @Option(help: ArgumentHelp("Intrinsics in pixels: fx,fy,cx,cy.", valueName: "fx,fy,cx,cy"))
    var intrinsics: String = "525,525,319.5,239.5"

    @Option(help: ArgumentHelp("Camera height above the floor in meters.", valueName: "meters"))
    var cameraHeight: Double = Perception.CameraSettings.defaultHeightAboveFloorMeters

    @Option(help: ArgumentHelp("How far the camera looks down, in degrees.", valueName: "degrees"))
    var cameraPitch: Double = Perception.CameraSettings.defaultPitchDownDegrees

    @Flag(help: "Print every compared object and the summary as JSON.")
    var json = false

    func run() async throws {
        let camera = CameraChoice(intrinsics: intrinsics, heightAboveFloorMeters: cameraHeight, pitchDownDegrees: cameraPitch)
        do {
            try DistanceEvaluation.printEvaluation(images: images, camera: camera, confidence: confidence, json: json,
                                                   makeDetector: { try detector.makeDetector(core: InferenceCore()) })
        } catch CameraSettingsError.intrinsicsNotFourNumbers {
            throw ValidationError(FailureReport.sentence(for: CameraSettingsError.intrinsicsNotFourNumbers))
        }
    }
}
