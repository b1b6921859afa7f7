import AssistCore
import Foundation
import TestSupport
import Testing
@testable import Perception

@Suite("Detecting objects with the shared YOLO11n models", .serialized)
struct DetectorTests {
    static let core = Result { try InferenceCore() }

    func detector(_ model: URL) throws -> ObjectDetector {
        // The square input: the MODELS.md reference numbers were measured with it.
        try ObjectDetector(modelURL: model, options: InferenceOptions(cacheDirectory: nil), inputShape: .square,
                           core: Self.core.get())
    }

    @Test("bus.jpg yields a bus and at least three people with the default IR model")
    func busWithIR() throws {
        let result = try detector(SharedFiles.irModel).detect(try decodeTestImage(SharedFiles.image("bus.jpg")))
        let labels = result.detections.map(\.label)
        #expect(labels.filter { $0 == "bus" }.count == 1)
        #expect(labels.filter { $0 == "person" }.count >= 3)
        #expect(result.detections.allSatisfy { $0.confidence >= 0.6 })
        // Reference (MODELS.md, OpenVINO C API): bus 0.936, persons 0.899 / 0.832 / 0.819.
        let bus = try #require(result.detections.first { $0.label == "bus" })
        #expect(abs(bus.confidence - 0.936) < 0.02)
        // The bus spans most of the picture's width, in its upper-middle part.
        #expect(bus.box.width > 600 && bus.box.centerY > 300 && bus.box.centerY < 700)
    }

    @Test("the ONNX model finds the same bus and people, with its names from the ONNX metadata")
    func busWithONNX() throws {
        let onnx = try detector(SharedFiles.onnxModel)
        #expect(onnx.classNames.source == "ONNX metadata")
        #expect(onnx.inputWidth == 320)
        let labels = try onnx.detect(try decodeTestImage(SharedFiles.image("bus.jpg"))).detections.map(\.label)
        #expect(labels.contains("bus"))
        #expect(labels.filter { $0 == "person" }.count >= 3)
    }

    @Test("zidane.jpg yields two people, the left one left of the right one")
    func zidane() throws {
        let result = try detector(SharedFiles.irModel).detect(try decodeTestImage(SharedFiles.image("zidane.jpg")))
        let people = result.detections.filter { $0.label == "person" }
        #expect(people.count == 2)
        let sorted = people.sorted { $0.box.centerX < $1.box.centerX }
        #expect(sorted.count == 2 && sorted[0].box.centerX < 640 && sorted[1].box.centerX > 640)
    }

    @Test("a grey picture has no objects above the default threshold")
    func nothingInGrey() throws {
        let result = try detector(SharedFiles.irModel).detect(RGBImage(width: 640, height: 480, filledWith: (128, 128, 128)))
        #expect(result.detections.isEmpty)
    }

    @Test("a missing model file is reported by name")
    func missingModel() throws {
        #expect(throws: InferenceError.modelFileMissing(path: "/nonexistent/model.xml")) {
            try detector(URL(fileURLWithPath: "/nonexistent/model.xml"))
        }
    }

    @Test("a corrupt model file is refused with a sentence naming it")
    func corruptModel() throws {
        let folder = try TemporaryFolder.make("perception-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["broken.xml", "broken.onnx"] {
            let file = folder.appendingPathComponent(name)
            try Data("this is not a model".utf8).write(to: file)
            do {
                _ = try detector(file)
                Issue.record("a corrupt \(name) was accepted")
            } catch {
                #expect(userMessage(for: error).contains(name))
            }
        }
    }

    @Test("a model whose output is not a YOLO layout is refused as such")
    func unknownLayout() throws {
        let folder = try TemporaryFolder.make("perception-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = try TinyIRModel.identity(shape: [1, 3, 8, 8]).write(to: folder, name: "identity")
        #expect(throws: DetectorError.self) { try detector(model) }
        do { _ = try detector(model) } catch {
            #expect(userMessage(for: error).contains("not a YOLOv5, YOLOv8 or YOLO11 detection layout"))
        }
    }

    @Test("settings outside their range are refused with the allowed range")
    func invalidSettings() {
        #expect(throws: DetectorError.self) { try DetectorSettings(confidenceThreshold: 1.5).validated() }
        #expect(throws: DetectorError.self) { try DetectorSettings(iouThreshold: 0).validated() }
        #expect(throws: DetectorError.self) { try DetectorSettings(maximumDetections: 0).validated() }
    }

    @Test("the compiled model runs in the precision we asked for")
    func explicitPrecision() throws {
        #expect(try detector(SharedFiles.irModel).compiledPrecision == "f32")
    }
}

@Suite("Inference options")
struct InferenceOptionsTests {
    @Test("compiling writes OpenVINO's compiled-model cache into the chosen folder")
    func modelCache() throws {
        let folder = try TemporaryFolder.make("perception-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = folder.appendingPathComponent("openvino")
        _ = try ObjectDetector(modelURL: SharedFiles.onnxModel, options: InferenceOptions(cacheDirectory: cache))
        let entries = try FileManager.default.contentsOfDirectory(atPath: cache.path)
        #expect(entries.contains { $0.hasSuffix(".blob") })
    }

    @Test("a device OpenVINO does not find is refused with the devices that exist")
    func missingDevice() throws {
        let core = try InferenceCore()
        let available = try core.availableDevices()
        #expect(available.contains("CPU"))
        guard let absent = [InferenceDevice.gpu, .npu].first(where: { device in !available.contains { $0.hasPrefix(device.rawValue) } }) else {
            return   // both present: nothing is missing on this machine
        }
        do {
            _ = try ObjectDetector(modelURL: SharedFiles.onnxModel, options: InferenceOptions(device: absent, cacheDirectory: nil), core: core)
            Issue.record("compiling for an absent \(absent.rawValue) succeeded")
        } catch let error as InferenceError {
            #expect(error == .deviceUnavailable(device: absent.rawValue, available: available))
            #expect(error.userMessage.contains("CPU"))
        }
    }
}
