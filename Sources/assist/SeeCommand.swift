import ArgumentParser
import AssistCore
import Foundation
import Guidance
import Media
import Perception
import Speech
import Storage

struct See: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "see",
        abstract: "Describes what pictures show: each object, its direction and its distance, in short sentences.",
        discussion: """
        Sentences go to standard output, closest object first, at most --max-objects of them; objects \
        below --confidence are never mentioned, and "No object detected." is said when nothing qualifies. \
        A picture too dark or too blurred to judge gets a sentence saying so.

        Distance comes, in order of trust, from a depth image (--depth, or a file NAME_depth_mm.pgm/.png \
        beside NAME_color.* or NAME.*), from a learned depth model (--depth-model), or from camera geometry \
        (object size and where it meets the floor). Where none works the sentence says "distance unknown".

        Errors for one picture are reported in one sentence on standard error and the other pictures are \
        still described; the exit status is 1 when any picture failed.

        The description is also spoken, on the default audio output (or --audio-device), unless --quiet; \
        --speak-to renders it into a WAV file instead. With --json it is spoken only when --speak-to or \
        --audio-device asks for it. Where no audio device exists the sentences are still printed, and \
        standard error says once that they could not be spoken.

        Examples:
          assist see photo.jpg
          assist see photo.jpg --json
          assist see room_color.png --depth room_depth.png --depth-format tum
          assist see ../shared/data/images/*.jpg --speak-to description.wav
          assist see photo.jpg --quiet
        """)

    @Argument(help: ArgumentHelp("Pictures: JPEG, PNG, WebP, BMP or anything else FFmpeg reads.", valueName: "image"))
    var images: [String]

    @OptionGroup(title: "Detector") var detector: DetectorOptions
    @OptionGroup(title: "Camera") var camera: CameraOptions
    @OptionGroup(title: "Wording") var wording: WordingOptions
    @OptionGroup(title: "Depth") var depth: DepthOptions

    @Flag(help: "Print every object as JSON (label, confidence, box, angle in degrees, direction, distance in meters or null) with stage timings, instead of sentences.")
    var json = false

    @OptionGroup(title: "Speech") var speech: SpeechOutputOptions

    @Flag(help: "Don't add what is announced to the detection history (assist history) or the usage statistics.")
    var noHistory = false

    func validate() throws {
        guard !images.isEmpty else { throw ValidationError("Give at least one picture to describe.") }
        if depth.depth != nil && images.count > 1 {
            throw ValidationError("--depth goes with one picture; for several, put NAME_depth_mm.pgm beside each NAME_color picture.")
        }
        if depth.depth != nil && depth.depthModel != nil {
            throw ValidationError("Use either --depth (a measured depth image) or --depth-model, not both.")
        }
    }

    func run() async throws {
        let core: InferenceCore
        let objectDetector: ObjectDetector
        let depthEstimator: DepthEstimator?
        do {
            core = try InferenceCore()
            objectDetector = try detector.makeDetector(core: core)
            depthEstimator = try depth.makeEstimator(core: core, options: detector.inferenceOptions)
        } catch {
            throw CommandFailure(userMessage(for: error), exitCode: 2)
        }
        let userData = UserData.open(knownCategories: objectDetector.classNames.names)
        var stored = userData?.currentSettings()
        var analyzer = try makeAnalyzer(objectDetector, depthEstimator, stored: stored)
        let session = noHistory ? nil : try? userData?.usage.start(mode: "picture description")
        defer { if let session { try? userData?.usage.finish(session: session) } }
        let spoken = try makeSpokenOutput()

        var results: [ImageResult] = []
        for (index, path) in images.enumerated() {
            // Settings changed by another process (assist settings set, a voice command) apply
            // from the next picture on.
            if let latest = userData?.currentSettings(), latest != stored {
                stored = latest
                analyzer = try makeAnalyzer(objectDetector, depthEstimator, stored: stored)
            }
            let result = describe(path, with: analyzer)
            results.append(result)
            if let report = result.report, !noHistory {
                userData?.record(report.announced, mode: "picture description", session: session)
            }
            if !json { printHuman(result, showName: images.count > 1) }
            if let spoken {
                // One utterance per sentence: each stays short, and none is dropped for length.
                var sentences = result.report?.sentences ?? result.error.map { [$0] } ?? []
                if images.count > 1 { sentences.insert("\(result.source).", at: 0) }
                for (number, sentence) in sentences.enumerated() {
                    spoken.say(Utterance(sentence, priority: .answer, contentKey: "\(index)#\(number)"))
                }
            }
        }
        if json { try printJSON(results) }
        do { try spoken?.finish() } catch {
            throw CommandFailure(userMessage(for: error), exitCode: 1)
        }
        if results.contains(where: { $0.error != nil }) { throw ExitCode(1) }
    }

    /// Where the description is spoken; nil when it is not (--quiet, --json, or no audio device,
    /// which is said once on standard error: the printed description must not fail for it).
    private func makeSpokenOutput() throws -> SpokenOutput? {
        if speech.quiet || (json && speech.speakTo == nil && speech.audioDevice == nil) { return nil }
        do {
            return try SpokenOutput(speech)
        } catch let error as AudioDeviceError where speech.audioDevice == nil {
            SpokenOutput.alertWithoutSound(nil)
            let sentence = error.userMessage.dropLast()
            let reason = error == .noAudioDevice || error == .noOutputDevice
                ? "no audio device was found" : sentence.prefix(1).lowercased() + sentence.dropFirst()
            FileHandle.standardError.write(Data("The description could not be spoken because \(reason); use --speak-to FILE.wav to render it, or --quiet.\n".utf8))
            return nil
        } catch let error as AudioFileError {
            throw CommandFailure(error.userMessage, exitCode: 1)
        } catch {
            throw CommandFailure(userMessage(for: error), exitCode: 2)
        }
    }

    private func makeAnalyzer(_ objectDetector: ObjectDetector, _ depthEstimator: DepthEstimator?,
                              stored: Storage.Settings?) throws -> SceneAnalyzer {
        do {
            return try SceneAnalyzer(
                detector: objectDetector, depthEstimator: depthEstimator,
                locator: try ObjectLocator(camera: try camera.settings(storedFieldOfViewDegrees: stored?.camera.fieldOfViewDegrees)),
                describer: SceneDescriber(language: wording.language, settings: try wording.settings(stored: stored)),
                iouThreshold: wording.iouThreshold(stored: stored),
                ignoredCategories: Set(stored?.detection.ignoredCategories ?? []))
        } catch {
            throw CommandFailure(userMessage(for: error), exitCode: 2)
        }
    }

    private func describe(_ path: String, with analyzer: SceneAnalyzer) -> ImageResult {
        let url = URL(fileURLWithPath: path)
        let clock = ContinuousClock()
        do {
            let start = clock.now
            let image = try ImageFile(url).decode()
            let decodeMilliseconds = (clock.now - start).milliseconds
            var frame = Frame(image: image, sourceName: url.lastPathComponent)
            frame.depth = try depth.measuredDepth(forColorImage: url, image: image)
            var report = try analyzer.analyze(frame)
            report.timings.decodeMilliseconds = decodeMilliseconds
            return ImageResult(source: url.lastPathComponent, report: report, error: nil)
        } catch {
            return ImageResult(source: url.lastPathComponent, report: nil, error: userMessage(for: error))
        }
    }

    private func printHuman(_ result: ImageResult, showName: Bool) {
        if let error = result.error {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            return
        }
        guard let report = result.report else { return }
        if showName { print("\(report.source):") }
        report.sentences.forEach { print($0) }
        if showName { print("") }
    }

    private func printJSON(_ results: [ImageResult]) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        print(String(decoding: try encoder.encode(results), as: UTF8.self))
    }
}

/// One picture's outcome in `--json`: the report, or the sentence saying why there is none.
struct ImageResult: Encodable {
    var source: String
    var report: SceneReport?
    var error: String?
}

struct CameraOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The camera's field of view in degrees (default: the stored setting, 70).", valueName: "degrees"))
    var fov: Double?

    @Option(help: "What --fov is measured across: horizontal (the picture's width) or longer-side (the sensor's longer side, as phone specifications give it).")
    var fovAxis: FieldOfViewAxis = .horizontal

    @Option(help: ArgumentHelp("Exact intrinsics in pixels instead of --fov: fx,fy,cx,cy.", valueName: "fx,fy,cx,cy"))
    var intrinsics: String?

    @Option(help: ArgumentHelp("Camera height above the floor in meters (chest-worn: 1.3).", valueName: "meters"))
    var cameraHeight: Double = Perception.CameraSettings.defaultHeightAboveFloorMeters

    @Option(help: ArgumentHelp("How far the camera looks down, in degrees (0 = level).", valueName: "degrees"))
    var cameraPitch: Double = Perception.CameraSettings.defaultPitchDownDegrees

    func settings(storedFieldOfViewDegrees: Double? = nil) throws -> Perception.CameraSettings {
        try Self.cameraSettings(fov: fov ?? storedFieldOfViewDegrees ?? Perception.CameraSettings.defaultHorizontalFieldOfViewDegrees,
                                fovAxis: fovAxis, intrinsics: intrinsics, cameraHeight: cameraHeight, cameraPitch: cameraPitch)
    }

    /// Camera settings from option values (also used by commands with other defaults).
    static func cameraSettings(fov: Double, fovAxis: FieldOfViewAxis, intrinsics: String?, cameraHeight: Double,
                               cameraPitch: Double) throws -> Perception.CameraSettings {
        let lens: CameraLens
        if let intrinsics {
            let numbers = intrinsics.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard numbers.count == 4 else {
                throw ValidationError("--intrinsics takes four numbers in pixels: fx,fy,cx,cy (for example 525,525,319.5,239.5).")
            }
            lens = .calibrated(try CameraIntrinsics(focalLengthXPixels: numbers[0], focalLengthYPixels: numbers[1],
                                                    principalPointXPixels: numbers[2], principalPointYPixels: numbers[3]))
        } else {
            lens = fovAxis == .horizontal ? .horizontalFieldOfView(degrees: fov) : .fieldOfViewAcrossLongerSide(degrees: fov)
        }
        return try Perception.CameraSettings(lens: lens, heightAboveFloorMeters: cameraHeight, pitchDownDegrees: cameraPitch)
    }
}

struct WordingOptions: ParsableArguments {
    @Option(help: "Objects below this confidence (0–1) are never mentioned (default: the stored setting, 0.6).")
    var confidence: Float?

    @Option(help: "Boxes of one class overlapping more than this (0–1) are one object (default: the stored setting, 0.45).")
    var iou: Float?

    @Option(help: "Mention at most this many objects, closest first (default: the stored setting, 5).")
    var maxObjects: Int?

    @Option(help: "Distances in meters or feet (default: the stored units setting).")
    var units: DistanceUnit?

    @Option(help: "Sentence form: brief (\"Chair, 2 meters, left.\") or full (\"Chair is 2 meters away on the left.\").")
    var style: SentenceStyle = .brief

    @Option(help: "Directions as words (left, slightly left, ahead, …) or clock positions (9 to 3 o'clock).")
    var directions: DirectionStyle = .words

    @Option(help: "Language of the sentences (a file in Guidance/Templates).")
    var language: String = "en"

    func validate() throws {
        if let confidence, !(0...1).contains(confidence) { throw ValidationError("--confidence must be from 0 to 1, not \(confidence).") }
        if let iou, !(iou > 0 && iou <= 1) { throw ValidationError("--iou must be above 0 and at most 1, not \(iou).") }
        if let maxObjects, maxObjects < 1 { throw ValidationError("--max-objects must be at least 1, not \(maxObjects).") }
    }

    /// An option given on the command line wins over the stored setting, which wins over the default.
    func settings(stored: Storage.Settings?) throws -> DescriptionSettings {
        let storedUnit: DistanceUnit? = stored.map { $0.units == .imperial ? .feet : .meters }
        return try DescriptionSettings(
            minimumConfidence: confidence ?? stored.map { Float($0.detection.confidenceThreshold) }
                ?? DescriptionSettings.defaultMinimumConfidence,
            maximumObjects: maxObjects ?? stored?.detection.maximumObjects ?? DescriptionSettings.defaultMaximumObjects,
            unit: units ?? storedUnit ?? .meters, sentenceStyle: style, directionStyle: directions)
    }

    func iouThreshold(stored: Storage.Settings?) -> Float {
        iou ?? stored.map { Float($0.detection.iouThreshold) } ?? 0.45
    }
}

struct DepthOptions: ParsableArguments {
    @Option(help: ArgumentHelp("A measured depth image registered to the picture (16-bit PGM or PNG).", valueName: "path"))
    var depth: String?

    @Option(help: "How the depth image stores distance: mm (millimeters, 0 = no reading), tum (value/5000 m), sun (SUN RGB-D bit-rotated mm) or nyu (raw Kinect disparity).")
    var depthFormat: DepthFileFormat = .mm

    @Flag(help: "Don't look for a NAME_depth_mm.pgm/.png beside each picture.")
    var noDepthPairing = false

    @Option(help: ArgumentHelp("A learned monocular depth model (ONNX or IR): input 1×3×H×W, output 1×H×W or 1×1×H×W.", valueName: "path"))
    var depthModel: String?

    @Option(help: "What the depth model outputs: metric (meters) or relative (inverse depth, scaled by geometry).")
    var depthModelKind: DepthEstimator.OutputKind = .metric

    @Option(help: "How the depth model expects pixels: imagenet (mean/std normalised, as Depth Anything and MiDaS) or unit (0–1).")
    var depthModelInput: DepthEstimator.InputNormalization = .imageNet

    func makeEstimator(core: InferenceCore, options: InferenceOptions) throws -> DepthEstimator? {
        guard let depthModel else { return nil }
        return try DepthEstimator(modelURL: URL(fileURLWithPath: depthModel), outputKind: depthModelKind,
                                  normalization: depthModelInput, options: options, core: core)
    }

    /// The measured depth for a picture: the --depth file, or a companion file beside it.
    func measuredDepth(forColorImage url: URL, image: RGBImage) throws -> DepthMap? {
        let file: DepthImageFile?
        if let depth {
            file = DepthImageFile(URL(fileURLWithPath: depth), encoding: depthFormat.encoding)
        } else if !noDepthPairing && depthModel == nil {
            file = DepthImageFile.companion(forColorImage: url)
        } else {
            file = nil
        }
        guard let file else { return nil }
        let map = try file.decode()
        try file.requireSameSize(map, as: image)
        return map
    }
}
