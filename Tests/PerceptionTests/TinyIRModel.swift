import Foundation

/// Writes tiny OpenVINO IR models for tests: the XML graph and its weights file, made here so no
/// model has to be downloaded or committed.
struct TinyIRModel {
    var xml: String
    var weights: Data

    func write(to folder: URL, name: String) throws -> URL {
        let xmlURL = folder.appendingPathComponent("\(name).xml")
        try Data(xml.utf8).write(to: xmlURL)
        try weights.write(to: folder.appendingPathComponent("\(name).bin"))
        return xmlURL
    }

    static func dims(_ shape: [Int]) -> String { shape.map { "<dim>\($0)</dim>" }.joined() }

    /// Input straight to output: a model of any shape that computes nothing.
    static func identity(shape: [Int]) -> TinyIRModel {
        let d = dims(shape)
        return TinyIRModel(xml: """
        <?xml version="1.0"?>
        <net name="identity" version="11">
          <layers>
            <layer id="0" name="x" type="Parameter" version="opset1">
              <data shape="\(shape.map(String.init).joined(separator: ","))" element_type="f32"/>
              <output><port id="0" precision="FP32" names="x">\(d)</port></output>
            </layer>
            <layer id="1" name="y" type="Result" version="opset1">
              <input><port id="0" precision="FP32">\(d)</port></input>
            </layer>
          </layers>
          <edges><edge from-layer="0" from-port="0" to-layer="1" to-port="0"/></edges>
        </net>
        """, weights: Data())
    }

    /// A "depth model": meters = 10 × (mean of the three input channels) + 1, output 1×1×H×W.
    /// A black pixel is 1 m away, a white one 11 m, so tests can check the whole path.
    static func brightnessDepth(height: Int, width: Int) -> TinyIRModel {
        let input = dims([1, 3, height, width]), plane = dims([1, 1, height, width])
        var weights = Data()
        withUnsafeBytes(of: Int64(1).littleEndian) { weights.append(contentsOf: $0) }          // axes, offset 0
        withUnsafeBytes(of: Float(10).bitPattern.littleEndian) { weights.append(contentsOf: $0) } // scale, offset 8
        withUnsafeBytes(of: Float(1).bitPattern.littleEndian) { weights.append(contentsOf: $0) }  // shift, offset 12
        return TinyIRModel(xml: """
        <?xml version="1.0"?>
        <net name="brightness_depth" version="11">
          <layers>
            <layer id="0" name="image" type="Parameter" version="opset1">
              <data shape="1,3,\(height),\(width)" element_type="f32"/>
              <output><port id="0" precision="FP32" names="image">\(input)</port></output>
            </layer>
            <layer id="1" name="axes" type="Const" version="opset1">
              <data element_type="i64" shape="1" offset="0" size="8"/>
              <output><port id="0" precision="I64"><dim>1</dim></port></output>
            </layer>
            <layer id="2" name="mean" type="ReduceMean" version="opset1">
              <data keep_dims="true"/>
              <input><port id="0" precision="FP32">\(input)</port><port id="1" precision="I64"><dim>1</dim></port></input>
              <output><port id="2" precision="FP32">\(plane)</port></output>
            </layer>
            <layer id="3" name="scale" type="Const" version="opset1">
              <data element_type="f32" shape="1" offset="8" size="4"/>
              <output><port id="0" precision="FP32"><dim>1</dim></port></output>
            </layer>
            <layer id="4" name="scaled" type="Multiply" version="opset1">
              <data auto_broadcast="numpy"/>
              <input><port id="0" precision="FP32">\(plane)</port><port id="1" precision="FP32"><dim>1</dim></port></input>
              <output><port id="2" precision="FP32">\(plane)</port></output>
            </layer>
            <layer id="5" name="shift" type="Const" version="opset1">
              <data element_type="f32" shape="1" offset="12" size="4"/>
              <output><port id="0" precision="FP32"><dim>1</dim></port></output>
            </layer>
            <layer id="6" name="depth" type="Add" version="opset1">
              <data auto_broadcast="numpy"/>
              <input><port id="0" precision="FP32">\(plane)</port><port id="1" precision="FP32"><dim>1</dim></port></input>
              <output><port id="2" precision="FP32" names="depth">\(plane)</port></output>
            </layer>
            <layer id="7" name="out" type="Result" version="opset1">
              <input><port id="0" precision="FP32">\(plane)</port></input>
            </layer>
          </layers>
          <edges>
            <edge from-layer="0" from-port="0" to-layer="2" to-port="0"/>
            <edge from-layer="1" from-port="0" to-layer="2" to-port="1"/>
            <edge from-layer="2" from-port="2" to-layer="4" to-port="0"/>
            <edge from-layer="3" from-port="0" to-layer="4" to-port="1"/>
            <edge from-layer="4" from-port="2" to-layer="6" to-port="0"/>
            <edge from-layer="5" from-port="0" to-layer="6" to-port="1"/>
            <edge from-layer="6" from-port="2" to-layer="7" to-port="0"/>
          </edges>
        </net>
        """, weights: weights)
    }
}
