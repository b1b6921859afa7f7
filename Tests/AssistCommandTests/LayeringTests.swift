import Foundation
import Testing
import TestSupport

/// Issue 36: exit statuses and command-line options belong to `assist` alone, and the analysis
/// modules hand sentences on rather than importing the output stage (Speech). These read the
/// sources, so neither can creep back unnoticed.
@Suite("Sources keep their layers: no exit status outside assist, no Speech in analysis")
struct LayeringTests {
    static let sources = SharedFiles.checkout.appendingPathComponent("Sources")

    /// Every Swift file under Sources/ outside the `assist` target, by its path below Sources/.
    static func libraryFiles() throws -> [(path: String, text: String)] {
        let enumerator = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        var files: [(String, String)] = []
        for case let url as URL in enumerator where url.pathExtension == "swift" {
            let path = String(url.path.dropFirst(sources.path.count + 1))
            guard !path.hasPrefix("assist/") else { continue }
            files.append((path, try String(contentsOf: url, encoding: .utf8)))
        }
        return files
    }

    @Test("no library target mentions CommandFailure or an exit status")
    func noExitStatusInLibraries() throws {
        let files = try Self.libraryFiles()
        #expect(files.count > 100)
        for (path, text) in files {
            for word in ["CommandFailure", "ExitStatus", "exitStatus", "exitCode"] {
                #expect(!text.contains(word), "Sources/\(path) mentions \(word)")
            }
        }
    }

    @Test("no analysis module imports Speech, the output stage")
    func analysisDoesNotImportSpeech() throws {
        let analysis = ["ColourAndLight", "Reading", "Prescription", "Perception", "Guidance", "PictureAnswers"]
        let files = try Self.libraryFiles().filter { file in analysis.contains { file.path.hasPrefix($0 + "/") } }
        #expect(!files.isEmpty)
        for (path, text) in files {
            let imports = text.split(separator: "\n").contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix("import Speech") }
            #expect(!imports, "Sources/\(path) imports Speech")
        }
        let manifest = try String(contentsOf: SharedFiles.checkout.appendingPathComponent("Package.swift"), encoding: .utf8)
        for target in analysis {
            // The target's declaration, up to the next target.
            let start = try #require(manifest.range(of: ".target(name: \"\(target)\"")).upperBound
            let end = manifest.range(of: "Target(", range: start..<manifest.endIndex)?.lowerBound
                ?? manifest.range(of: ".target(", range: start..<manifest.endIndex)?.lowerBound ?? manifest.endIndex
            let next = manifest.range(of: ".target(", range: start..<manifest.endIndex)?.lowerBound ?? manifest.endIndex
            #expect(!manifest[start..<min(end, next)].contains("\"Speech\""), "Package.swift: \(target) depends on Speech")
        }
    }

    /// Library files whose strings still name an option of `assist` (a file fixed leaves this
    /// list). `--pipe` in FestivalVoice is an argument to another program, not an option of ours.
    static let stillNamingOptions: Set<String> = [
        // festival's own argument, not one of ours.
        "VoiceInput/Evaluation/FestivalVoice.swift",
    ]

    @Test("no library file beyond the known ones names a command-line option in a string, and the known ones shrink")
    func optionsNamedOnlyByAssist() throws {
        let option = try NSRegularExpression(pattern: #""(?:[^"\\\n]|\\.)*?--[a-z]"#)
        var naming: Set<String> = []
        for (path, text) in try Self.libraryFiles() {
            for line in text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                let line = String(line)
                if option.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil { naming.insert(path) }
            }
        }
        #expect(naming.subtracting(Self.stillNamingOptions).isEmpty,
                "name the option in assist's FailureReport instead: \(naming.subtracting(Self.stillNamingOptions).sorted())")
        #expect(Self.stillNamingOptions.subtracting(naming).isEmpty,
                "no longer naming an option; remove from the list: \(Self.stillNamingOptions.subtracting(naming).sorted())")
    }
}
