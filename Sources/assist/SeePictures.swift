import ArgumentParser
import AssistCore
import Foundation
import Guidance
import Media
import Perception
import Speech
import Storage

/// `assist see` on pictures: each one described once, as before the live loop existed.
extension See {
    func describePictures() async throws {
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
        let faceDetector: FaceDetector?
        do { faceDetector = faces ? try FaceDetector() : nil } catch {
            throw CommandFailure("Faces cannot be found: the face cascade of Debian's opencv-data is missing or unreadable.", exitCode: 2)
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
            let result = describe(path, with: analyzer, faceDetector: faceDetector)
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

    private func makeSpokenOutput() throws -> SpokenOutput? {
        try SpokenOutput.forDescription(speech, json: json)
    }

    func makeAnalyzer(_ objectDetector: ObjectDetector, _ depthEstimator: DepthEstimator?,
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

    private func describe(_ path: String, with analyzer: SceneAnalyzer, faceDetector: FaceDetector?) -> ImageResult {
        let url = URL(fileURLWithPath: path)
        let clock = ContinuousClock()
        do {
            let start = clock.now
            let image = try ImageFile(url).decode()
            let decodeMilliseconds = (clock.now - start).milliseconds
            var frame = Frame(image: image, sourceName: url.lastPathComponent)
            do {
                frame.depth = try depth.measuredDepth(forColorImage: url, image: image)
            } catch where depth.depth == nil {
                // A depth file found beside the picture that cannot be used is no reason to skip
                // the picture: distances fall back to the estimate from the picture (issue 16).
                UserData.warn("\(userMessage(for: error)) Distances in \(url.lastPathComponent) are estimated from the picture instead.")
            }
            var report = try analyzer.analyze(frame)
            if let faceDetector {
                // Faces are objects like any other: located by the same geometry, said by the same templates.
                let found = try analyzer.locator.locate(faceDetector.detect(in: image), in: frame)
                if !found.isEmpty {
                    // "No object detected." is no longer true once a face is found.
                    if report.objects.isEmpty { report.sentences = [] }
                    report.objects += found
                    report.announced += found
                    report.sentences += analyzer.describer.sentences(for: found)
                }
            }
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
