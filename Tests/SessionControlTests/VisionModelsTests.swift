import AssistCore
import Foundation
import Guidance
import LiveGuidance
import Perception
import SessionControl
import TestSupport
import Testing

@Suite("A live session's detector keeps one compiled shape in memory")
struct VisionModelsTests {
    func models() throws -> VisionModels {
        let model = SharedFiles.model("yolo11n_int8_openvino_model/yolo11n.xml")
        return try VisionModels(detector: DetectorChoice(modelPath: model.path, usesModelCache: false),
                                depth: DepthModelChoice(), warn: { _ in })
    }

    func frame(width: Int, height: Int) -> Frame {
        Frame(image: RGBImage(width: width, height: height, filledWith: (90, 90, 90)), sourceName: "test")
    }

    @Test("the start-up shape is given back when the first frame's is compiled, and a camera of another size replaces it")
    func oneShape() throws {
        let models = try models()
        let analyzer = try models.analyzer(for: AnalyzerRequirements(description: DescriptionSettings()), language: "en")
        try analyzer.prepare(for: frame(width: 640, height: 480))
        _ = try analyzer.analyze(frame(width: 640, height: 480))
        let fourByThree = analyzer.detector.inputSize(forFrameWidth: 640, height: 480)
        #expect(fourByThree != analyzer.detector.modelInputSize)
        #expect(analyzer.detector.compiledInputSizes == [fourByThree])
        #expect(analyzer.detector.mostShapesResidentAtOnce == 1)
        // A switch to a 16:9 stream mid-session compiles its shape in place of the 4:3 one.
        try analyzer.prepare(for: frame(width: 1280, height: 720))
        _ = try analyzer.analyze(frame(width: 1280, height: 720))
        let sixteenByNine = analyzer.detector.inputSize(forFrameWidth: 1280, height: 720)
        #expect(sixteenByNine != fourByThree)
        #expect(analyzer.detector.compiledInputSizes == [sixteenByNine])
        #expect(analyzer.detector.mostShapesResidentAtOnce == 1)
    }
}
