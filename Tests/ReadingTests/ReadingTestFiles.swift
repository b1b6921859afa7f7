import AssistCore
import Foundation
import Media
@testable import Reading

/// The shared text pictures (`../shared/data/text`) and generated test files.
enum ReadingTestFiles {
    /// `<checkout>/../shared/data`, found from this file's own path.
    static let sharedData: URL = {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.path != "/" && !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
            folder = folder.deletingLastPathComponent()
        }
        return folder.appendingPathComponent("../shared/data").standardizedFileURL
    }()

    static func text(_ name: String) -> URL { sharedData.appendingPathComponent("text/\(name)") }

    static func picture(_ name: String) throws -> RGBImage { try ImageFile(text(name)).decode() }

    /// A new empty folder under the system temp folder; the caller removes it.
    static func scratchFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reading-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    struct ToolFailure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    /// Runs the ffmpeg command-line tool (installed by scripts/setup).
    static func ffmpeg(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffmpeg", "-nostdin", "-v", "error", "-y"] + arguments
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ToolFailure(message: "ffmpeg \(arguments.joined(separator: " ")): \(String(decoding: message, as: UTF8.self))")
        }
    }
}

extension RGBImage {
    /// A grey picture as RGB (for turning test pages with GrayImage's own operations).
    init(gray: GrayImage) {
        self.init(width: gray.width, height: gray.height, pixels: gray.pixels.flatMap { [$0, $0, $0] })
    }
}

/// A word at a place, for reading-order and policy tests.
func word(_ text: String, x: Float, y: Float, width: Float? = nil, height: Float = 20, confidence: Float = 0.9) -> ReadWord {
    ReadWord(text: text, confidence: confidence,
             box: .init(x0: x, y0: y, x1: x + (width ?? Float(text.count) * height * 0.6), y1: y + height))
}
