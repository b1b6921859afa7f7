import Foundation

/// A JACK server of a test's own (unique name, dummy backend: no sound card needed), with the
/// jackd2 tools to connect, play into and record its ports. Stopped by its process id.
public final class JackServer {
    public let name: String
    public let periodFrames: Int
    private var server: Process?

    public struct Failed: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    public init(periodFrames: Int = 64) throws {
        name = "assist-test-\(UUID().uuidString.prefix(8))"
        self.periodFrames = periodFrames
        try start()
    }

    /// The running server's process (to pause it: a stopped server's clients get an xrun).
    public var processIdentifier: Int32? { server?.processIdentifier }

    /// What a client of this server needs in its environment.
    public var environment: [String: String] { ["JACK_DEFAULT_SERVER": name, "JACK_NO_START_SERVER": "1"] }

    public func start() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/jackd")
        process.arguments = ["-n", name, "-d", "dummy", "-r", "48000", "-p", "\(periodFrames)"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        server = process
        // jack_wait returns as soon as the server answers; its limit only catches a server that
        // never starts (2 minutes: a loaded machine can take long to start a process).
        guard try Self.tool("jack_wait", ["-w", "-s", name, "-t", "120"], environment: environment).status == 0 else {
            stop()
            throw Failed(description: "jackd \(name) did not start")
        }
    }

    /// Stops the server (SIGTERM to its own process) and waits for it to end.
    public func stop() {
        guard let server, server.isRunning else { return }
        server.terminate()
        server.waitUntilExit()
        self.server = nil
    }

    deinit { stop() }

    /// Runs a jackd2 tool against this server and returns its status and output.
    @discardableResult
    public func run(_ tool: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        try Self.tool(tool, arguments, environment: environment)
    }

    /// Starts a jackd2 tool in the background; the caller stops it.
    public func launch(_ tool: String, _ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/\(tool)")
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Waits until `port` exists (polled every 0.1 s, at most `attempts` times, which only catch
    /// a hang); false if it never does.
    public func waitForPort(_ port: String, attempts: Int = 1_800) throws -> Bool {
        for _ in 0..<attempts {
            if try run("jack_lsp", []).output.split(separator: "\n").contains(Substring(port)) { return true }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return false
    }

    public static func tool(_ tool: String, _ arguments: [String], environment: [String: String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/\(tool)")
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

/// Interleaved float samples of a WAV file, as sox converts them.
public func floatSamples(of wav: URL) throws -> [Float] {
    let raw = wav.deletingPathExtension().appendingPathExtension("f32")
    let sox = Process()
    sox.executableURL = URL(fileURLWithPath: "/usr/bin/sox")
    sox.arguments = [wav.path, "-t", "raw", "-e", "floating-point", "-b", "32", raw.path]
    try sox.run()
    sox.waitUntilExit()
    let data = try Data(contentsOf: raw)
    return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
}
