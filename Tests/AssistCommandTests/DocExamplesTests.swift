import Foundation
import TestSupport
import Testing

/// The documentation cannot drift from the program: every `assist …` example in README.md and
/// docs/*.md is parsed against the options the built binary really has, the quick ones are run on
/// ../shared/data, and every command's help names a page that exists.
@Suite("README.md and docs/ against the real assist")
struct DocExamplesTests {
    @Test("every assist example in README.md and docs/ names a subcommand and options that exist")
    func examplesParse() throws {
        let tree = try CommandTree.dumped.get()
        let examples = DocPages.examples()
        #expect(examples.count > 100, "too few examples found: the extraction is broken")
        let problems = examples.compactMap { example in
            tree.problem(with: example.arguments, complete: example.isCommandLine).map { "\(example.place): \($0)" }
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test("the check catches an option, a subcommand or an argument that does not exist")
    func checkerCatchesDrift() throws {
        let tree = try CommandTree.dumped.get()
        #expect(tree.problem(with: ["see", "../shared/data/images/bus.jpg", "--json"]) == nil)
        #expect(tree.problem(with: ["hear", "talk.wav", "-o", "aided.wav", "--program", "restaurant"]) == nil)
        #expect(tree.problem(with: ["see", "bus.jpg", "--speak-too", "bus.wav"]) == "assist see has no option --speak-too")
        #expect(tree.problem(with: ["rx", "importt", "code.png"]) != nil)
        #expect(tree.problem(with: ["settings", "show", "a", "b", "c"]) != nil)
        #expect(tree.problem(with: ["see", "walk.mp4", "--at"]) == "assist see: --at needs a value")
        #expect(tree.problem(with: ["see", "--at"], complete: false) == nil)
        #expect(DocPages.assistArguments(ShellWords.split(#"assist say "Bus, 4 meters." --direction -40 # a comment"#))
                == ["say", "Bus, 4 meters.", "--direction", "-40"])
    }

    @Test("the README starts with the two commands, exactly")
    func readmeStartsWithTheTwoCommands() throws {
        let first = try #require(DocPages.codeBlocks().first { $0.page == "README.md" })
        #expect(first.lines.map(\.text) == ["scripts/assist see ../shared/data/images/bus.jpg --speak-to bus.wav", "scripts/test"])
        let beforeIt = DocPages.text("README.md").components(separatedBy: "```").first ?? ""
        #expect(beforeIt.split(separator: "\n").count <= 3, "the two commands must come first")
    }

    @Test("assist --help and every subcommand's help name a documentation page that exists")
    func helpNamesItsPage() throws {
        let tree = try CommandTree.dumped.get()
        let pagePattern = /(docs\/[A-Za-z-]+\.md|BENCHMARKS\.md)/
        var missing: [String] = []
        // `assist help` is swift-argument-parser's own, which prints the others' help.
        for (path, command) in tree.allCommands where path != "help" {
            let help = (command.abstract ?? "") + "\n" + (command.discussion ?? "")
            let pages = help.matches(of: pagePattern).map { String($0.output.1) }
            if pages.isEmpty { missing.append("assist \(path): names no page") }
            for page in pages where !FileManager.default.fileExists(atPath: SharedFiles.checkout.appendingPathComponent(page).path) {
                missing.append("assist \(path): \(page) does not exist")
            }
        }
        #expect(missing.isEmpty, "\(missing.joined(separator: "\n"))")
    }

    @Test("every command of the command language has its example phrase in docs/commands.md")
    func everyCommandIsListed() throws {
        let file = SharedFiles.checkout.appendingPathComponent("Sources/Commands/Languages/en.json")
        let language = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        let intents = try #require(language["intents"] as? [String: [String: Any]])
        let page = DocPages.text("docs/commands.md")
        let unlisted = intents.compactMap { name, intent -> String? in
            guard let example = intent["example"] as? String else { return "\(name) has no example" }
            return page.contains("\"\(example)\"") ? nil : "\(name): \"\(example)\""
        }
        #expect(!intents.isEmpty)
        #expect(unlisted.isEmpty, "not in docs/commands.md: \(unlisted.sorted().joined(separator: ", "))")
    }

    /// A page is followed from the top, as a reader would: its blocks run in order in one folder
    /// for one user, so the patient's steps find what the audiologist's made.
    @Test("the quick examples (pictures, settings, speech, prescriptions) run on ../shared/data",
          arguments: QuickExamples.pages)
    func quickExamplesRun(page: String) async throws {
        // On threads of its own: each step waits for a child process, and the cooperative pool
        // (two threads on two cores) must stay free for the tests beside it.
        try await OwnThreads.run {
            let folder = try TemporaryFolder.make("doc-example")
            defer { try? FileManager.default.removeItem(at: folder) }
            // The examples name ../shared/data as seen from the checkout: the same path from here.
            let work = folder.appendingPathComponent("work")
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("shared"), withDestinationURL: SharedFiles.root)
            let user = AssistBinary.userFolders()
            defer { user.remove() }
            let environment = user.environment.merging(QuickExamples.passphrases) { $1 }
            for step in QuickExamples.steps(of: page) {
                switch step {
                case .assist(let line, let arguments):
                    let output = try AssistBinary.run(arguments, environment: environment, currentDirectory: work, input: .nothing)
                    #expect(output.status == 0, "\(page):\(line) assist \(arguments.joined(separator: " ")) exited with \(output.status): \(output.standardError)")
                    if ["see", "colour", "light"].contains(arguments.first) {
                        #expect(!output.standardOutput.isEmpty, "\(page):\(line) described nothing")
                    }
                case .shell(let line, let text):
                    let output = try Program.run(Program.named("bash"), ["-c", text], environment: ["HOME": folder.path],
                                                 currentDirectory: work, input: .nothing)
                    #expect(output.status == 0, "\(page):\(line) \(text): \(output.standardError)")
                case .missingSharedFile(let line, let path):
                    Issue.record("\(page):\(line) names \(path), which is not in ../shared")
                }
            }
        }
    }
}

/// Which examples are run, and how: those that finish in a second or two on the shared files.
enum QuickExamples {
    /// Commands that finish quickly on a picture or on nothing at all.
    static let commands: Set<String> = ["see", "settings", "say", "rx", "colour", "light"]
    static let pictureExtensions: Set<String> = ["jpg", "jpeg", "png", "ppm", "tif", "tiff"]
    static let videoExtensions: Set<String> = ["mp4", "mkv", "avi", "mov", "webm", "y4m"]
    /// The helpers a block may use to make its input (an audiogram, a recording).
    static let shellHelpers: Set<String> = ["printf", "sox", "ffmpeg"]
    /// What the prescription examples are asked for, given as their documented variables.
    static let passphrases = ["ASSIST_RX_KEY_PASSPHRASE": "signing key passphrase for the docs",
                              "ASSIST_RX_PASSPHRASE": "patient store passphrase for the docs"]

    enum Step {
        case assist(line: Int, arguments: [String])
        case shell(line: Int, text: String)
        case missingSharedFile(line: Int, path: String)

        var isShell: Bool {
            if case .shell = self { return true }
            return false
        }
    }

    /// The pages with at least one quick example.
    static var pages: [String] {
        DocPages.all.filter { steps(of: $0).contains { !$0.isShell } }
    }

    /// The steps of a page's `sh` blocks, in order.
    static func steps(of page: String) -> [Step] {
        DocPages.codeBlocks().filter { $0.page == page && $0.language == "sh" }.flatMap(steps(of:))
    }

    /// What running a block means: its quick `assist` lines and the helper lines that make their
    /// input, in order. A live input (a camera, a stream, the microphone), a placeholder in
    /// capitals (ID, FILE), a picture that is not in ../shared or `--faces` keeps a line to
    /// parsing only.
    static func steps(of block: DocCodeBlock) -> [Step] {
        var steps: [Step] = []
        for (line, text) in DocPages.commandLines(of: block) {
            let words = ShellWords.split(text)
            if let arguments = DocPages.assistArguments(words) {
                guard let command = arguments.first, commands.contains(command) else { continue }
                let live = arguments.contains { ["--live", "--camera", "camera", "--listen"].contains($0) || $0.hasPrefix("/dev/") || $0.contains("://") }
                // The face cascades, evaluated in Swift, take tens of seconds in a debug build.
                let slow = arguments.contains("--faces")
                let placeholder = arguments.contains { $0.count > 1 && $0.allSatisfy { $0.isUppercase || $0 == "_" } }
                if live || slow || placeholder { continue }
                if let missing = arguments.first(where: { $0.hasPrefix("../shared/") && !FileManager.default.fileExists(atPath: resolved($0)) }) {
                    steps.append(.missingSharedFile(line: line, path: missing)); continue
                }
                // The picture commands run on pictures of ../shared only: a picture it does not have
                // (photo.jpg) stands for the reader's own, and a video or a folder is a live run.
                if ["see", "colour", "light"].contains(command) {
                    let pictures = arguments.filter { pictureExtensions.contains(($0 as NSString).pathExtension.lowercased()) }
                    let video = arguments.contains { videoExtensions.contains(($0 as NSString).pathExtension.lowercased()) }
                    let folder = arguments.contains { $0.hasPrefix("../shared/") && isFolder(resolved($0)) }
                    if pictures.isEmpty || pictures.contains(where: { !$0.hasPrefix("../shared/") }) || video || folder { continue }
                }
                steps.append(.assist(line: line, arguments: arguments))
            } else if let first = words.first, shellHelpers.contains(first) {
                steps.append(.shell(line: line, text: text))
            }
        }
        return steps
    }

    private static func isFolder(_ path: String) -> Bool {
        var folder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &folder) && folder.boolValue
    }

    private static func resolved(_ path: String) -> String {
        SharedFiles.root.appendingPathComponent(String(path.dropFirst("../shared/".count))).path
    }
}
