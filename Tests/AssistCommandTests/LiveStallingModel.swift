import Foundation
import TestSupport

/// A detector that hangs, for the watchdog test: a tiny OpenVINO IR written at test time whose
/// input and output have the YOLO shapes (x: 1×3×320×320 in, 1×84×8400 out, COCO names from the
/// shared model's metadata.yaml beside it), but whose work is a long chain of 3×3 convolutions over
/// the full picture, all sharing one weight constant (so the files stay a few kilobytes).
/// 60 layers take about 0.5 s per inference on an idle 2-core machine (several seconds on a busy
/// one), against 30–40 ms for YOLO11n; the watchdog test asks for 240.
/// The weights shrink what passes through, so the class scores come out near 0: even if a run did
/// finish, it would detect nothing rather than 8400 boxes.
enum LiveStallingModel {
    static func write(to folder: URL, layers: Int = 60, side: Int = 320, channels: Int = 32) throws -> URL {
        func dims(_ shape: [Int]) -> String { shape.map { "<dim>\($0)</dim>" }.joined() }
        func floats(_ value: Float, count: Int) -> Data {
            var data = Data()
            data.reserveCapacity(count * 4)
            for _ in 0..<count { withUnsafeBytes(of: value.bitPattern.littleEndian) { data.append(contentsOf: $0) } }
            return data
        }
        func int64s(_ values: [Int64]) -> Data {
            var data = Data()
            for value in values { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
            return data
        }
        let firstWeights = floats(0.01, count: channels * 3 * 9)
        let sharedWeights = floats(0.002, count: channels * channels * 9)
        let axes = int64s([1, 2, 3]), outputShape = int64s([1, 84, 8400])
        let weights = firstWeights + sharedWeights + axes + outputShape
        let sharedOffset = firstWeights.count, axesOffset = sharedOffset + sharedWeights.count
        let shapeOffset = axesOffset + axes.count

        let picture = dims([1, 3, side, side]), features = dims([1, channels, side, side]), scores = dims([1, 84, 8400])
        var layersXML = [
            #"<layer id="0" name="x" type="Parameter" version="opset1"><data shape="1,3,\#(side),\#(side)" element_type="f32"/><output><port id="0" precision="FP32" names="x">\#(picture)</port></output></layer>"#,
            #"<layer id="1" name="first_weights" type="Const" version="opset1"><data element_type="f32" shape="\#(channels),3,3,3" offset="0" size="\#(firstWeights.count)"/><output><port id="0" precision="FP32">\#(dims([channels, 3, 3, 3]))</port></output></layer>"#,
            #"<layer id="2" name="shared_weights" type="Const" version="opset1"><data element_type="f32" shape="\#(channels),\#(channels),3,3" offset="\#(sharedOffset)" size="\#(sharedWeights.count)"/><output><port id="0" precision="FP32">\#(dims([channels, channels, 3, 3]))</port></output></layer>"#,
        ]
        var edges: [(Int, Int, Int, Int)] = []
        func convolution(id: Int, inputChannels: Int) -> String {
            #"<layer id="\#(id)" name="conv\#(id)" type="Convolution" version="opset1"><data strides="1,1" dilations="1,1" pads_begin="1,1" pads_end="1,1" auto_pad="explicit"/><input><port id="0" precision="FP32">\#(dims([1, inputChannels, side, side]))</port><port id="1" precision="FP32">\#(dims([channels, inputChannels, 3, 3]))</port></input><output><port id="2" precision="FP32">\#(features)</port></output></layer>"#
        }
        layersXML.append(convolution(id: 3, inputChannels: 3))
        edges += [(0, 0, 3, 0), (1, 0, 3, 1)]
        var previous = 3
        for id in 4..<(4 + layers) {
            layersXML.append(convolution(id: id, inputChannels: channels))
            edges += [(previous, 2, id, 0), (2, 0, id, 1)]
            previous = id
        }
        let n = 4 + layers
        layersXML += [
            #"<layer id="\#(n)" name="axes" type="Const" version="opset1"><data element_type="i64" shape="3" offset="\#(axesOffset)" size="24"/><output><port id="0" precision="I64"><dim>3</dim></port></output></layer>"#,
            #"<layer id="\#(n + 1)" name="mean" type="ReduceMean" version="opset1"><data keep_dims="false"/><input><port id="0" precision="FP32">\#(features)</port><port id="1" precision="I64"><dim>3</dim></port></input><output><port id="2" precision="FP32"><dim>1</dim></port></output></layer>"#,
            #"<layer id="\#(n + 2)" name="output_shape" type="Const" version="opset1"><data element_type="i64" shape="3" offset="\#(shapeOffset)" size="24"/><output><port id="0" precision="I64"><dim>3</dim></port></output></layer>"#,
            #"<layer id="\#(n + 3)" name="scores" type="Broadcast" version="opset3"><data mode="numpy"/><input><port id="0" precision="FP32"><dim>1</dim></port><port id="1" precision="I64"><dim>3</dim></port></input><output><port id="2" precision="FP32" names="output0">\#(scores)</port></output></layer>"#,
            #"<layer id="\#(n + 4)" name="out" type="Result" version="opset1"><input><port id="0" precision="FP32">\#(scores)</port></input></layer>"#,
        ]
        edges += [(previous, 2, n + 1, 0), (n, 0, n + 1, 1), (n + 1, 2, n + 3, 0), (n + 2, 0, n + 3, 1), (n + 3, 2, n + 4, 0)]
        let edgesXML = edges.map { #"<edge from-layer="\#($0.0)" from-port="\#($0.1)" to-layer="\#($0.2)" to-port="\#($0.3)"/>"# }
        let xml = "<?xml version=\"1.0\"?>\n<net name=\"stalling_detector\" version=\"11\">\n<layers>\n"
            + layersXML.joined(separator: "\n") + "\n</layers>\n<edges>\n" + edgesXML.joined(separator: "\n") + "\n</edges>\n</net>\n"

        let model = folder.appendingPathComponent("stalling.xml")
        try Data(xml.utf8).write(to: model)
        try weights.write(to: folder.appendingPathComponent("stalling.bin"))
        // The COCO names, so the detector accepts the 84-row output as 80 known classes.
        let names = AssistBinary.shared.appendingPathComponent("models/yolo11n_int8_openvino_model/metadata.yaml")
        try FileManager.default.copyItem(at: names, to: folder.appendingPathComponent("metadata.yaml"))
        return model
    }
}
