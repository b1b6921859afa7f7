import Foundation

/// What a finished program printed, and how it ended.
public struct ProgramOutput: Sendable {
    public var status: Int32
    public var standardOutput: String
    public var standardError: String
}

/// A helper program (ffmpeg, python3) that failed, with what it said.
public struct ToolFailure: Error, CustomStringConvertible {
    public let message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}

/// What a program reads on its standard input.
public enum ProgramInput: Sendable {
    /// Nothing: the end of input at once.
    case nothing
    /// These characters, then the end of input (as if typed and followed by Ctrl-D).
    case typed(String)
}

/// Runs programs as a user's shell would: the one way tests start a process and collect its output.
public enum Program {
    /// Runs `executable` to completion. The environment is this process's, with `environment`
    /// laid over it and `unset` taken out. `eachLine` sees each line of standard output as it is
    /// printed (on this thread, while the process runs): a test can act on what the process has
    /// done, not on how long it took.
    ///
    /// Standard input is empty unless a test types something (`input`): never the test runner's
    /// own, which on CI may be a pipe left open, so a program that reads it would wait for ever
    /// there and not on a developer's machine. A program still running after `hangGuardSeconds`
    /// is killed (SIGKILL) and its output says so: the bound only turns a hang of the product
    /// into a failing test instead of a test run that never ends.
    public static func run(_ executable: URL, _ arguments: [String], environment: [String: String] = [:],
                           unset: [String] = [], currentDirectory: URL? = nil, input: ProgramInput = .nothing,
                           hangGuardSeconds: Double = Program.hangGuardSeconds,
                           eachLine: ((Substring) -> Void)? = nil) throws -> ProgramOutput {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        for key in unset { merged[key] = nil }
        process.environment = merged
        let typing = Pipe()
        switch input {
        case .nothing: process.standardInput = FileHandle.nullDevice
        case .typed: process.standardInput = typing
        }
        // Standard error (and standard output, unless read line by line) into files: reading one
        // pipe to its end while the other fills could block the child, and a file never does.
        let errorFile = TemporaryFolder.path("program-stderr")
        let outputFile = TemporaryFolder.path("program-stdout")
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: errorFile)
            try? FileManager.default.removeItem(at: outputFile)
        }
        let errors = try FileHandle(forWritingTo: errorFile)
        let hangGuard = HangGuard(process, seconds: hangGuardSeconds)
        defer { try? errors.close() }
        process.standardError = errors
        var stdoutData = Data()
        if let eachLine {
            let out = Pipe()
            process.standardOutput = out
            try process.run()
            hangGuard.start()
            try type(input, into: typing)
            var seen = 0
            while case let chunk = out.fileHandleForReading.availableData, !chunk.isEmpty {
                stdoutData.append(chunk)
                guard let end = stdoutData.lastIndex(of: UInt8(ascii: "\n")), end >= seen else { continue }
                String(decoding: stdoutData[seen..<end], as: UTF8.self).split(separator: "\n").forEach(eachLine)
                seen = end + 1
            }
            process.waitUntilExit()
        } else {
            _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
            let output = try FileHandle(forWritingTo: outputFile)
            defer { try? output.close() }
            process.standardOutput = output
            try process.run()
            hangGuard.start()
            try type(input, into: typing)
            process.waitUntilExit()
            stdoutData = (try? Data(contentsOf: outputFile)) ?? Data()
        }
        hangGuard.cancel()
        let stderrData = (try? Data(contentsOf: errorFile)) ?? Data()
        let killed = hangGuard.fired ? "\n[test support: \(executable.lastPathComponent) was still running after \(Int(hangGuardSeconds)) s and was killed]\n" : ""
        return ProgramOutput(status: process.terminationStatus,
                             standardOutput: String(decoding: stdoutData, as: UTF8.self),
                             standardError: String(decoding: stderrData, as: UTF8.self) + killed)
    }

    /// How long a program may run before it is taken for hung: far beyond the longest a test's
    /// program takes on a loaded machine (a minutes-long video rendered in a debug build).
    public static let hangGuardSeconds: Double = 1200

    /// Kills a process still running after a bound (on a GCD timer: no thread of Swift's pool).
    final class HangGuard: @unchecked Sendable {
        private let process: Process
        private let seconds: Double
        private let lock = NSLock()
        private var work: DispatchWorkItem?
        private var didFire = false

        init(_ process: Process, seconds: Double) {
            self.process = process
            self.seconds = seconds
        }

        var fired: Bool { lock.withLock { didFire } }

        func start() {
            let item = DispatchWorkItem { [self] in
                guard process.isRunning else { return }
                lock.withLock { didFire = true }
                kill(process.processIdentifier, SIGKILL)
            }
            lock.withLock { work = item }
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: item)
        }

        func cancel() { lock.withLock { work }?.cancel() }
    }

    private static func type(_ input: ProgramInput, into pipe: Pipe) throws {
        guard case .typed(let text) = input else { return }
        pipe.fileHandleForWriting.write(Data(text.utf8))
        try pipe.fileHandleForWriting.close()
    }

    /// A program found on the usual PATH folders (scripts/setup installs ffmpeg, sox, python3).
    public static func named(_ name: String) -> URL {
        for folder in ["/usr/bin", "/usr/local/bin", "/bin"] where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") {
            return URL(fileURLWithPath: "\(folder)/\(name)")
        }
        return URL(fileURLWithPath: "/usr/bin/\(name)")
    }

    /// Runs the ffmpeg command-line tool quietly, overwriting its output; throws what it said when it fails.
    public static func ffmpeg(_ arguments: [String]) throws {
        let result = try run(named("ffmpeg"), ["-hide_banner", "-loglevel", "error", "-nostdin", "-y"] + arguments)
        guard result.status == 0 else {
            throw ToolFailure(message: "ffmpeg \(arguments.joined(separator: " ")) exited with \(result.status): \(result.standardError)")
        }
    }
}

/// A child process's output, read on a thread of its own as it is written, so that a test waits
/// for a line as an event ("started", "Assistive Vision activated.") however long a busy machine
/// takes, never for a time. A wait ends when the line comes, or when the output ends (the program
/// closed it or exited) without it: then it is false, and the test says what was printed.
public final class PrintedLines: @unchecked Sendable {
    private let arrived = NSCondition()
    private var complete: [String] = []
    private var partial = ""
    private var ended = false

    /// Starts reading `handle` (the reading end of the program's standard output or error).
    public init(_ handle: FileHandle) {
        let thread = Thread { [self] in
            while case let data = handle.availableData, !data.isEmpty {
                arrived.withLock {
                    partial += String(decoding: data, as: UTF8.self)
                    let parts = partial.components(separatedBy: "\n")
                    complete += parts.dropLast()
                    partial = parts.last ?? ""
                    arrived.broadcast()
                }
            }
            arrived.withLock {
                ended = true
                arrived.broadcast()
            }
        }
        thread.name = "printed lines"
        thread.start()
    }

    /// The whole lines printed so far.
    public var lines: [String] { arrived.withLock { complete } }
    /// Everything printed so far, as printed.
    public var text: String { arrived.withLock { complete.map { $0 + "\n" }.joined() + partial } }

    /// Blocks until `condition` holds for the lines printed so far (checked as each arrives);
    /// false when the output ended without it.
    public func wait(until condition: ([String]) -> Bool) -> Bool {
        arrived.lock()
        defer { arrived.unlock() }
        while !condition(complete) {
            if ended { return false }
            arrived.wait()
        }
        return true
    }

    /// Blocks until a line equal to `line` has been printed; false when the output ended without it.
    public func wait(for line: String) -> Bool { wait { $0.contains(line) } }

    /// Blocks until the output ends; every line printed (an unfinished last one too).
    public func waitForEnd() -> [String] {
        arrived.lock()
        defer { arrived.unlock() }
        while !ended { arrived.wait() }
        return partial.isEmpty ? complete : complete + [partial]
    }
}
