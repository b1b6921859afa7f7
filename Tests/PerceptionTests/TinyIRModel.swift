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
}
