import Foundation

/// Runs the built `assist` binary, as a user would, and captures what it prints: the one way
/// every test target runs it.
public enum AssistBinary {
    /// The test runner sits in the same build folder as the `assist` executable (scripts/test
    /// builds both).
    public static let url: URL = {
        let runner = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return runner.deletingLastPathComponent().appendingPathComponent("assist")
    }()

    public static var checkout: URL { SharedFiles.checkout }
    public static var shared: URL { SharedFiles.root }
    public static func image(_ name: String) -> String { SharedFiles.image(name).path }

    public typealias Output = ProgramOutput

    /// Data, config and runtime folders that persist across calls within one test.
    public static func userFolders() -> (environment: [String: String], remove: () -> Void) {
        let home = TemporaryFolder.path("assist-user")
        return (["XDG_DATA_HOME": home.appendingPathComponent("data").path,
                 "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
                 "XDG_RUNTIME_DIR": home.appendingPathComponent("run").path],
                { try? FileManager.default.removeItem(at: home) })
    }

    /// `see` with the watchdog at 10 minutes unless the test sets its own: the 4 s default guards a
    /// user against a hung model, but a test machine running a dozen processes on two cores can
    /// take that long for one honest inference, and a busy machine must not fail a test.
    public static func patient(_ arguments: [String]) -> [String] {
        guard arguments.first == "see", !arguments.contains("--watchdog") else { return arguments }
        return arguments + ["--watchdog", "600"]
    }

    /// The environment a test's `assist` runs in: a shared cache (compiled models), and data,
    /// config and runtime folders under `scratch`. A control socket of its own: live sessions of
    /// tests running side by side (and the user's own) must not take each other's commands.
    public static func environment(scratch: URL) -> [String: String] {
        ["XDG_CACHE_HOME": TemporaryFolder.modelCache.path,
         "XDG_DATA_HOME": scratch.appendingPathComponent("data").path,
         "XDG_CONFIG_HOME": scratch.appendingPathComponent("config").path,
         "XDG_RUNTIME_DIR": scratch.appendingPathComponent("run").path]
    }

    /// Runs `assist` to completion in the checkout, with fresh user folders per call unless
    /// `environment` names its own (it is laid over them; `unset` takes variables out).
    public static func run(_ arguments: [String], environment: [String: String] = [:], unset: [String] = [],
                           currentDirectory: URL? = nil, input: ProgramInput = .nothing,
                           eachLine: ((Substring) -> Void)? = nil) throws -> Output {
        let scratch = TemporaryFolder.path("assist-test")
        defer { try? FileManager.default.removeItem(at: scratch) }
        return try Program.run(url, patient(arguments),
                               environment: Self.environment(scratch: scratch).merging(environment) { $1 },
                               unset: unset, currentDirectory: currentDirectory ?? checkout,
                               input: input, eachLine: eachLine)
    }

    /// The bus picture (a bus and four people) as a 640×480, 10 fps video of `seconds`, made with
    /// ffmpeg in `folder`: a live input whose content is known.
    public static func busVideo(seconds: Int, in folder: URL) throws -> URL {
        let video = folder.appendingPathComponent("bus.mp4")
        try Program.ffmpeg(["-loop", "1", "-i", image("bus.jpg"), "-t", "\(seconds)", "-r", "10",
                            "-vf", "scale=640:480", "-pix_fmt", "yuv420p", video.path])
        return video
    }
}
