import AssistCore
import Foundation

/// Why test speech could not be synthesised, as one sentence.
public enum FestivalError: UserFacingError, Equatable {
    case notInstalled
    case failed(status: Int32, detail: String)

    public var userMessage: String {
        switch self {
        case .notInstalled:
            return "Festival or its voice cmu_us_slt_arctic_hts is not installed; install Debian's festival and festvox-us-slt-hts (scripts/setup does)."
        case .failed(let status, let detail):
            return "Festival stopped with status \(status) while synthesising the test speech\(detail.isEmpty ? "" : ": \(detail)")."
        }
    }
}

/// One sentence to synthesise: the text, a speaking rate (1 = the voice's own; 1.25 faster) and the file to write.
public struct SynthesisRequest: Sendable, Equatable {
    public let text: String
    public let speakingRate: Double
    public let output: URL

    public init(text: String, speakingRate: Double, output: URL) {
        self.text = text
        self.speakingRate = speakingRate
        self.output = output
    }
}

/// A synthetic voice the recognition benchmark speaks its commands with.
public protocol TestVoice: Sendable {
    /// As reports name it ("festival slt", "espeak-ng en-us").
    var name: String { get }
    /// Writes each request's text, said at its rate, as a WAV file at its output.
    func synthesize(_ requests: [SynthesisRequest]) throws
}

/// Natural-sounding test speech from Debian's festival with the HTS voice cmu_us_slt_arctic_hts
/// (a US English woman), written as 16 kHz WAV files. Used by the recognition test and
/// benchmark, never by the product. One festival process synthesises a whole batch: starting
/// it costs about half a second.
public struct FestivalVoice: TestVoice {
    public var name: String { "festival slt" }
    public static let voice = "cmu_us_slt_arctic_hts"
    public var executable = URL(fileURLWithPath: "/usr/bin/festival")
    static let voiceFolder = URL(fileURLWithPath: "/usr/share/festival/voices/us/cmu_us_slt_arctic_hts")

    public init() {}

    public var isInstalled: Bool {
        FileManager.default.isExecutableFile(atPath: executable.path) && FileManager.default.fileExists(atPath: Self.voiceFolder.path)
    }

    public func synthesize(_ requests: [SynthesisRequest]) throws {
        guard isInstalled else { throw FestivalError.notInstalled }
        guard !requests.isEmpty else { return }
        let process = Process()
        process.executableURL = executable
        process.arguments = ["--pipe"]
        let input = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(Data(script(for: requests).utf8))
        try input.fileHandleForWriting.close()
        let detail = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw FestivalError.failed(status: process.terminationStatus, detail: detail.split(separator: "\n").first.map(String.init) ?? "")
        }
        for request in requests where !FileManager.default.fileExists(atPath: request.output.path) {
            throw FestivalError.failed(status: 0, detail: "no file was written for “\(request.text)”")
        }
    }

    /// The Scheme program: the voice once, then per sentence the HTS engine's speed (its "-r"
    /// option; festival's Duration_Stretch parameter is ignored by HTS voices: we measured the
    /// same length at 0.8 and 1.3), synthesis, resampling to 16 kHz and a RIFF WAV file.
    func script(for requests: [SynthesisRequest]) -> String {
        var lines = ["(voice_\(Self.voice))", "(set! assist_base_params hts_engine_params)"]
        for request in requests {
            let text = request.text.filter { $0 != "\"" && $0 != "\\" }
            let path = request.output.path.filter { $0 != "\"" && $0 != "\\" }
            lines.append("(set! hts_engine_params (append assist_base_params (list (list \"-r\" \(request.speakingRate)))))")
            lines.append("(set! assist_utt (SynthText \"\(text)\"))")
            lines.append("(utt.wave.resample assist_utt 16000)")
            lines.append("(utt.save.wave assist_utt \"\(path)\" 'riff)")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
