import Foundation

/// Rewrites a static Ultralytics YOLO export (OpenVINO IR) for another input size.
///
/// Why: the convolutions run at any size, but a static export bakes sizes into constants that
/// OpenVINO's reshape cannot change — the attention block's reshape targets (`[1,2,128,400]`,
/// `[1,128,20,20]` at 640), the box decoder's (`[1,4,16,8400]`, `[1,4,8400]`), and the anchor
/// grid and stride constants (`8400` anchors). This recomputes exactly those for the new size,
/// after checking that each one holds what an Ultralytics export at the old size holds, and
/// refuses anything it does not recognise rather than guess.
struct YOLOStaticShapeRewrite {
    let oldWidth: Int, oldHeight: Int
    let newWidth: Int, newHeight: Int
    /// The detection heads' strides (P3, P4, P5), in the order Ultralytics concatenates anchors.
    static let strides = [8, 16, 32]

    struct Failure: Error, Equatable { let reason: String }

    /// Anchor centres (x row then y row, in grid cells) and each anchor's stride, for a size.
    static func anchors(width: Int, height: Int) -> (x: [Float], y: [Float], stride: [Float]) {
        var x: [Float] = [], y: [Float] = [], stride: [Float] = []
        for s in strides {
            for row in 0..<(height / s) {
                for column in 0..<(width / s) {
                    x.append(Float(column) + 0.5); y.append(Float(row) + 0.5); stride.append(Float(s))
                }
            }
        }
        return (x, y, stride)
    }

    /// The rewritten IR text and weights.
    func rewrite(irText: String, weights: [UInt8]) throws(Failure) -> (irText: String, weights: [UInt8]) {
        let largest = DetectorInputSize.stride
        guard newWidth % largest == 0, newHeight % largest == 0, oldWidth % largest == 0, oldHeight % largest == 0 else {
            throw Failure(reason: "its sides must be multiples of \(largest)")
        }
        let old = Self.anchors(width: oldWidth, height: oldHeight)
        let new = Self.anchors(width: newWidth, height: newHeight)
        let oldAnchors = old.x.count, newAnchors = new.x.count
        let oldGrid = (oldWidth / largest, oldHeight / largest), newGrid = (newWidth / largest, newHeight / largest)

        // Split on "\n" scalars: OpenVINO writes CRLF, and Swift sees "\r\n" as one Character, so a
        // Character split would not find the lines. Each line keeps its "\r"; joining restores the text.
        var lines = irText.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
            .map { String(String.UnicodeScalarView($0)) }
        var weights = weights
        let layers = Self.layers(in: lines)
        var consumers: [String: [(type: String, port: String)]] = [:]
        let typeByID = Dictionary(layers.map { ($0.id, $0.type) }, uniquingKeysWith: { first, _ in first })
        for line in lines where line.contains("<edge ") {
            guard let from = Self.attribute("from-layer", in: line), let to = Self.attribute("to-layer", in: line),
                  let port = Self.attribute("to-port", in: line) else { continue }
            consumers[from, default: []].append((typeByID[to] ?? "", port))
        }

        // An export that decodes boxes outside the graph has no anchors to move; that is fine.
        var changedParameter = false
        for layer in layers {
            guard let dataLine = layer.dataLine else { continue }
            let data = lines[dataLine]
            let shape = (Self.attribute("shape", in: data) ?? "").split(separator: ",")
                .compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            switch layer.type {
            case "Parameter":
                guard shape == [1, 3, oldHeight, oldWidth] else {
                    throw Failure(reason: "its input has shape \(shape), not 1×3×\(oldHeight)×\(oldWidth)")
                }
                lines[dataLine] = Self.replacing("shape", with: "1,3,\(newHeight),\(newWidth)", in: data)
                try Self.replaceDimensions(in: &lines, layer: layer, from: [1, 3, oldHeight, oldWidth],
                                           to: [1, 3, newHeight, newWidth])
                changedParameter = true
            case "Const":
                guard let type = Self.attribute("element_type", in: data),
                      let offset = Self.attribute("offset", in: data).flatMap(Int.init),
                      let size = Self.attribute("size", in: data).flatMap(Int.init),
                      offset >= 0, size >= 0, offset + size <= weights.count else { continue }
                if type == "i64", let uses = consumers[layer.id], !uses.isEmpty,
                   uses.allSatisfy({ $0.type == "Reshape" && $0.port == "1" }), size % 8 == 0, size <= 64 {
                    let values = (0..<(size / 8)).map { Self.int64(weights, at: offset + 8 * $0) }
                    var target = values
                    if target.last == Int64(oldAnchors) { target[target.count - 1] = Int64(newAnchors) }
                    if target.count == 4, target[3] == Int64(oldGrid.0 * oldGrid.1), target[2] != Int64(oldGrid.1) {
                        target[3] = Int64(newGrid.0 * newGrid.1)
                    }
                    if target.count == 4, target[2] == Int64(oldGrid.1), target[3] == Int64(oldGrid.0) {
                        target[2] = Int64(newGrid.1); target[3] = Int64(newGrid.0)
                    }
                    for (index, value) in target.enumerated() { Self.setInt64(&weights, at: offset + 8 * index, value) }
                } else if type == "f32", shape.last == oldAnchors {
                    let count = size / 4
                    let values = (0..<count).map { Self.float(weights, at: offset + 4 * $0) }
                    let replacement: [Float]
                    if shape.suffix(2) == [2, oldAnchors], values == old.x + old.y {
                        replacement = new.x + new.y
                    } else if shape.reduce(1, *) == oldAnchors, values == old.stride {
                        replacement = new.stride
                    } else {
                        throw Failure(reason: "a constant of shape \(shape) is not the anchor grid an Ultralytics export holds")
                    }
                    let newOffset = weights.count
                    for value in replacement { withUnsafeBytes(of: value.bitPattern.littleEndian) { weights += $0 } }
                    let newShape = shape.dropLast().map(String.init) + [String(newAnchors)]
                    var rewritten = Self.replacing("shape", with: newShape.joined(separator: ", "), in: data)
                    rewritten = Self.replacing("offset", with: String(newOffset), in: rewritten)
                    rewritten = Self.replacing("size", with: String(replacement.count * 4), in: rewritten)
                    lines[dataLine] = rewritten
                    try Self.replaceDimensions(in: &lines, layer: layer, from: shape,
                                               to: Array(shape.dropLast()) + [newAnchors])
                }
            default:
                continue
            }
        }
        guard changedParameter else { throw Failure(reason: "it has no 1×3×height×width input") }
        return (lines.joined(separator: "\n"), weights)
    }

    private struct Layer {
        var id: String
        var type: String
        var lines: Range<Int>
        var dataLine: Int?
    }

    private static func layers(in lines: [String]) -> [Layer] {
        var result: [Layer] = []
        var open: Layer?
        for (index, line) in lines.enumerated() {
            if line.contains("<layer "), let id = attribute("id", in: line), let type = attribute("type", in: line) {
                let layer = Layer(id: id, type: type, lines: index..<(index + 1), dataLine: nil)
                if line.contains("/>") { result.append(layer); open = nil } else { open = layer }
            } else if var layer = open {
                if layer.dataLine == nil, line.contains("<data ") { layer.dataLine = index }
                layer.lines = layer.lines.lowerBound..<(index + 1)
                open = layer
                if line.contains("</layer>") { result.append(layer); open = nil }
            }
        }
        return result
    }

    /// Replaces the layer's output port dimensions `from` with `to` (the `<dim>` lines in order).
    private static func replaceDimensions(in lines: inout [String], layer: Layer, from: [Int], to: [Int]) throws(Failure) {
        let dims = layer.lines.filter { lines[$0].contains("<dim>") }
        let values = dims.map { lines[$0].replacingOccurrences(of: "<dim>", with: "").replacingOccurrences(of: "</dim>", with: "")
            .trimmingCharacters(in: .whitespacesAndNewlines) }
        guard values == from.map(String.init) else {
            throw Failure(reason: "layer \(layer.id)'s port dimensions \(values) do not match its shape \(from)")
        }
        for (index, line) in dims.enumerated() where index < to.count {
            lines[line] = lines[line].replacingOccurrences(of: "<dim>\(values[index])</dim>", with: "<dim>\(to[index])</dim>")
        }
    }

    static func attribute(_ name: String, in line: String) -> String? {
        guard let start = line.range(of: " \(name)=\"") else { return nil }
        guard let end = line[start.upperBound...].firstIndex(of: "\"") else { return nil }
        return String(line[start.upperBound..<end])
    }

    static func replacing(_ name: String, with value: String, in line: String) -> String {
        guard let start = line.range(of: " \(name)=\""), let end = line[start.upperBound...].firstIndex(of: "\"") else { return line }
        return line.replacingCharacters(in: start.upperBound..<end, with: value)
    }

    private static func int64(_ bytes: [UInt8], at offset: Int) -> Int64 {
        bytes.withUnsafeBytes { Int64(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: Int64.self)) }
    }

    private static func setInt64(_ bytes: inout [UInt8], at offset: Int, _ value: Int64) {
        withUnsafeBytes(of: value.littleEndian) { source in
            for index in 0..<8 { bytes[offset + index] = source[index] }
        }
    }

    private static func float(_ bytes: [UInt8], at offset: Int) -> Float {
        bytes.withUnsafeBytes { Float(bitPattern: UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self))) }
    }
}
