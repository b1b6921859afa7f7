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
}
