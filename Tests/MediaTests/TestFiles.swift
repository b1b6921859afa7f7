import AssistCore
import Foundation
import Testing

/// Where the shared test data lives, and a scratch folder per test for generated files.
enum TestFiles {
    /// `<checkout>/../shared/data`, found from this file's own path.
    static let sharedData: URL = {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.path != "/" && !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
            folder = folder.deletingLastPathComponent()
        }
        return folder.appendingPathComponent("../shared/data").standardizedFileURL
    }()

    static func data(_ relativePath: String) -> URL {
        sharedData.appendingPathComponent(relativePath)
    }

    static let bus = data("images/bus.jpg")
    static let zidane = data("images/zidane.jpg")

    /// A new empty folder under the system temp folder; the caller removes it.
    static func scratchFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("media-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Runs the ffmpeg command-line tool (installed by scripts/setup) and fails the test if it fails.
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

    struct ToolFailure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}

extension RGBImage {
    /// The mean R, G, B over a rectangle (all of it by default).
    func meanColour(x: Int = 0, y: Int = 0, width w: Int? = nil, height h: Int? = nil) -> (r: Double, g: Double, b: Double) {
        let (w, h) = (w ?? width - x, h ?? height - y)
        var sums = (0.0, 0.0, 0.0)
        for row in y..<(y + h) {
            for column in x..<(x + w) {
                let pixel = pixel(x: column, y: row)
                sums.0 += Double(pixel.r); sums.1 += Double(pixel.g); sums.2 += Double(pixel.b)
            }
        }
        let count = Double(w * h)
        return (sums.0 / count, sums.1 / count, sums.2 / count)
    }

    /// The mean absolute difference per channel value from `other` (same size), 0…255.
    func meanAbsoluteDifference(from other: RGBImage) -> Double {
        precondition(width == other.width && height == other.height)
        var total = 0
        for i in pixels.indices { total += abs(Int(pixels[i]) - Int(other.pixels[i])) }
        return Double(total) / Double(pixels.count)
    }
}
