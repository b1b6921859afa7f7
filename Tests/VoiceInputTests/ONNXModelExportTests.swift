import Foundation
import Testing
@testable import ONNXRuntime

/// The `.onnx` copy of an ORT-format model: ONNX Runtime leaves the names of an `If` node's
/// subgraphs empty when it saves a model, and its loader refuses such a file; the export names them.
@Suite("ONNX model export: naming subgraphs")
struct ONNXModelExportTests {
    // Protocol-buffer framing of a length-delimited field.
    func field(_ number: UInt8, _ payload: [UInt8]) -> [UInt8] {
        precondition(payload.count < 128)
        return [number << 3 | 2, UInt8(payload.count)] + payload
    }

    func text(_ string: String) -> [UInt8] { Array(string.utf8) }

    @Test("an If node's unnamed subgraphs get names; every other byte is kept, the named graph's name too")
    func namesSubgraphs() throws {
        let emptyName = field(2, [])
        let thenBranch = field(6, emptyName + field(1, field(4, text("Add"))))     // AttributeProto.g: an unnamed graph with one node
        let elseBranch = field(6, field(2, text("kept")))                           // a named one
        let ifNode = field(4, text("If")) + field(5, field(1, text("then_branch")) + thenBranch)
            + field(5, field(1, text("else_branch")) + elseBranch)
        let graph = field(1, ifNode) + field(2, text("g"))
        let model: [UInt8] = [0x08, 0x08] + field(7, graph)                        // ir_version 8, then the graph

        let named = [UInt8](try ONNXModelExport.namingSubgraphs(Data(model)))

        let expectedThen = field(6, field(1, field(4, text("Add"))) + field(2, text("subgraph_1")))
        let expectedIf = field(4, text("If")) + field(5, field(1, text("then_branch")) + expectedThen)
            + field(5, field(1, text("else_branch")) + elseBranch)
        #expect(named == [0x08, 0x08] + field(7, field(1, expectedIf) + field(2, text("g"))))
    }

    @Test("a file cut off inside a field is a typed error, not a crash")
    func cutOff() {
        let model: [UInt8] = [0x3A, 0x20, 0x0A]    // graph field claiming 32 bytes, 1 present
        #expect(throws: ONNXRuntimeError.self) { _ = try ONNXModelExport.namingSubgraphs(Data(model)) }
    }

    @Test("step files left by a process that ended while making a copy are removed once an hour old; younger ones, perhaps another process's, are kept")
    func leftoversRemoved() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("onnx-leftovers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let now = Date()
        func file(_ name: String, ageSeconds: TimeInterval) throws -> URL {
            let url = folder.appendingPathComponent(name)
            try Data([1, 2, 3]).write(to: url)
            try FileManager.default.setAttributes([.modificationDate: now.addingTimeInterval(-ageSeconds)], ofItemAtPath: url.path)
            return url
        }
        let stale = try file(".decoder.folded.ort.A.onnx", ageSeconds: 7200)
        let staleRaw = try file(".decoder.folded.ort.A.onnx.raw", ageSeconds: 3700)
        let young = try file(".decoder.folded.ort.B.ort", ageSeconds: 60)
        let otherModel = try file(".encoder.folded.ort.C.onnx", ageSeconds: 7200)
        let copy = try file("decoder.folded.ort", ageSeconds: 7200)

        ONNXModelExport.removeLeftovers(of: "decoder.folded.ort", in: folder, now: now)

        func exists(_ url: URL) -> Bool { FileManager.default.fileExists(atPath: url.path) }
        #expect(!exists(stale))
        #expect(!exists(staleRaw))
        #expect(exists(young))
        #expect(exists(otherModel))
        #expect(exists(copy))
    }
}
