import Foundation
import TestSupport

/// One SubRip entry of `--transcript`: when it was said (input time offline), and what: the
/// spoken phrases, and the earcon that sounded with them ("[tone vehicle] Bus, 4 meters, ahead.").
struct TranscriptEntry: Equatable, CustomStringConvertible {
    var start: Double
    var end: Double
    /// The entry's whole text, lines joined by a space, as written.
    var text: String
    /// Earcon names of the "[tone NAME] " prefixes, in order.
    var tones: [String]
    /// The words alone, without tone prefixes.
    var spoken: String

    var description: String { String(format: "[%.2f–%.2f] %@", start, end, text) }

    /// Every distance said in the entry, in meters ("4 meters" → 4, "1.5 meters" → 1.5,
    /// "less than 1 meter" → 0.5).
    var distancesMeters: [Double] {
        var values: [Double] = []
        let words = spoken.replacingOccurrences(of: ",", with: " ").split(separator: " ").map(String.init)
        for (index, word) in words.enumerated() where index + 1 < words.count && words[index + 1].hasPrefix("meter") {
            guard let value = Double(word) else { continue }
            let lessThan = index >= 2 && words[index - 2].lowercased() == "less" && words[index - 1] == "than"
            values.append(lessThan ? value / 2 : value)
        }
        return values
    }
}

enum SubRip {
    struct ParseFailure: Error, CustomStringConvertible {
        var block: String
        var description: String { "not a SubRip entry: \(block)" }
    }

    /// Parses SubRip: blocks separated by blank lines, each a running number, a
    /// "HH:MM:SS,mmm --> HH:MM:SS,mmm" line and one or more lines of text.
    static func parse(_ text: String) throws -> [TranscriptEntry] {
        let normalized = text.replacingOccurrences(of: "\r\n", with: "\n")
        var entries: [TranscriptEntry] = []
        for block in normalized.components(separatedBy: "\n\n") {
            let lines = block.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
            guard !lines.isEmpty else { continue }
            guard lines.count >= 3, Int(lines[0].trimmingCharacters(in: .whitespaces)) != nil else { throw ParseFailure(block: block) }
            let times = lines[1].components(separatedBy: " --> ")
            guard times.count == 2, let start = seconds(times[0]), let end = seconds(times[1]) else { throw ParseFailure(block: block) }
            let body = lines[2...].joined(separator: " ")
            var tones: [String] = [], rest = Substring(body)
            while rest.hasPrefix("[tone "), let close = rest.firstIndex(of: "]") {
                tones.append(String(rest[rest.index(rest.startIndex, offsetBy: 6)..<close]))
                rest = rest[rest.index(after: close)...].drop { $0 == " " }
            }
            entries.append(TranscriptEntry(start: start, end: end, text: body, tones: tones, spoken: String(rest)))
        }
        return entries
    }

    /// "00:01:02,500" → 62.5.
    static func seconds(_ stamp: String) -> Double? {
        let parts = stamp.trimmingCharacters(in: .whitespaces).split(whereSeparator: { $0 == ":" || $0 == "," })
        guard parts.count == 4, let h = Double(parts[0]), let m = Double(parts[1]), let s = Double(parts[2]),
              let ms = Double(parts[3]) else { return nil }
        return h * 3600 + m * 60 + s + ms / 1000
    }
}

/// A rendered speech track, read back: mono or stereo PCM16 or float32 WAV, as libsndfile writes.
struct RenderedAudio {
    var sampleRate: Double
    /// One value per frame: the loudest channel's absolute sample, full scale 1.
    var magnitudes: [Float]

    var seconds: Double { Double(magnitudes.count) / sampleRate }

    struct ParseFailure: Error {}

    init(contentsOf url: URL) throws {
        let bytes = try Data(contentsOf: url)
        func u16(_ at: Int) -> Int { Int(bytes[bytes.startIndex + at]) | Int(bytes[bytes.startIndex + at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        guard bytes.count >= 12, bytes.prefix(4) == Data("RIFF".utf8) else { throw ParseFailure() }
        var position = 12, format = 0, channels = 0, bits = 0, rate = 0
        var samples: Range<Int>?
        while position + 8 <= bytes.count {
            let id = String(decoding: bytes[(bytes.startIndex + position)..<(bytes.startIndex + position + 4)], as: UTF8.self)
            let size = u32(position + 4)
            let body = position + 8
            if id == "fmt " {
                format = u16(body); channels = u16(body + 2); rate = u32(body + 4); bits = u16(body + 14)
                if format == 0xFFFE, size >= 26 { format = u16(body + 24) }   // WAVE_FORMAT_EXTENSIBLE: the sub-format
            } else if id == "data" {
                samples = body..<min(body + size, bytes.count)
            }
            position = body + size + (size & 1)
        }
        guard let samples, channels > 0, rate > 0, (format == 1 && bits == 16) || (format == 3 && bits == 32) else {
            throw ParseFailure()
        }
        sampleRate = Double(rate)
        let frameBytes = channels * bits / 8
        let frameCount = samples.count / frameBytes
        magnitudes = bytes.withUnsafeBytes { raw in
            (0..<frameCount).map { frame in
                var loudest: Float = 0
                for channel in 0..<channels {
                    let offset = samples.lowerBound + frame * frameBytes + channel * bits / 8
                    let value = format == 1
                        ? Float(Int16(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: Int16.self))) / 32768
                        : Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
                    loudest = max(loudest, abs(value))
                }
                return loudest
            }
        }
    }

    /// The loudest sample between two times (clamped to the track).
    func peak(from start: Double, to end: Double) -> Float {
        let first = max(0, Int(start * sampleRate)), last = min(magnitudes.count, Int(end * sampleRate))
        guard first < last else { return 0 }
        return magnitudes[first..<last].max() ?? 0
    }
}

/// One run of the live `assist see` on a generated input, with everything it left behind read back.
struct LiveRun {
    var status: Int32
    var standardOutput: String
    var standardError: String
    var transcript: [TranscriptEntry]
    var audio: RenderedAudio?
    /// `--json` lines, one object per analysed frame (empty without --json).
    var frames: [[String: Any]]

    /// Runs `assist see INPUT --speak-to … --transcript … ARGUMENTS` in a folder of its own.
    /// `frameCost` (seconds of input time counted per analysed frame, --frame-cost) makes which
    /// frames are analysed, and so the transcript, the same on a loaded machine as on a quiet
    /// one; nil uses the measured processing time. `eachLine` sees each line printed, as it is
    /// printed (to kill a stream server once something was announced).
    static func run(_ input: String, _ arguments: [String], in fixtures: LiveFixtures, json: Bool = false,
                    frameCost: Double? = 0.25, eachLine: ((Substring) -> Void)? = nil) throws -> LiveRun {
        let name = UUID().uuidString.prefix(8)
        let wav = fixtures.folder.appendingPathComponent("speech-\(name).wav")
        let srt = fixtures.folder.appendingPathComponent("transcript-\(name).srt")
        var all = ["see", input, "--speak-to", wav.path, "--transcript", srt.path] + arguments
        if json { all.append("--json") }
        if let frameCost { all += ["--frame-cost", String(frameCost)] }
        let output = try AssistBinary.run(all, eachLine: eachLine)
        let transcriptText = (try? String(contentsOf: srt, encoding: .utf8)) ?? ""
        let frames = json ? output.standardOutput.split(separator: "\n").compactMap { line in
            try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        } : []
        return LiveRun(status: output.status, standardOutput: output.standardOutput, standardError: output.standardError,
                       transcript: try SubRip.parse(transcriptText),
                       audio: try? RenderedAudio(contentsOf: wav), frames: frames)
    }

    /// The transcript, one entry a line, for failure messages.
    /// Everything said, in order, as one text: a message longer than 3 s is heard in parts (one
    /// transcript entry each), so a sentence is looked for across entries, not within one.
    var spokenText: String { transcript.map(\.spoken).joined(separator: " ") }

    /// How many times `sentence` was said, whether whole or in parts.
    func timesSaid(_ sentence: String) -> Int { spokenText.components(separatedBy: sentence).count - 1 }

    var transcriptListing: String {
        transcript.map(\.description).joined(separator: "\n") + (standardError.isEmpty ? "" : "\nstderr: \(standardError)")
    }

    /// Entries between the start-up sentence and the closing one: what the mode itself said.
    var guidance: [TranscriptEntry] {
        transcript.filter { !LiveSentences.session.contains($0.spoken) }
    }
}

/// What the live assistant says, read from its templates in the checkout
/// (Sources/LiveGuidance/Templates), so the tests follow the wording instead of copying it. The
/// four sentences the contract fixes are checked against the file once, here.
enum LiveSentences {
    private static func templates(_ name: String) -> [String: Any] {
        let url = AssistBinary.checkout.appendingPathComponent("Sources/LiveGuidance/Templates/\(name)")
        guard let data = try? Data(contentsOf: url),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return [:] }
        return object
    }
    private static func strings(_ value: Any?) -> [String: String] {
        (value as? [String: Any] ?? [:]).compactMapValues { $0 as? String }
    }
    static let sessionTemplates = strings(templates("en.session.json"))
    static let modeOnTemplates = strings(templates("en.modes.json")["modeOn"])
    static let viewTemplates = strings(templates("en.modes.json")["view"])
    private static func session(_ key: String) -> String { sessionTemplates[key] ?? "<no \(key) in en.session.json>" }
    private static func view(_ key: String) -> String { viewTemplates[key] ?? "<no view.\(key) in en.modes.json>" }

    static let activated = "Assistive Vision activated."
    static let endOfVideo = "End of video."
    static let endOfPictures = "End of pictures."
    static let streamStopped = "The stream stopped."
    static let detectionFailed = "Detection failed."
    static let unreadableFrames = session("unreadableFrames")
    static let unreadableInput = session("unreadableInput")
    /// Media's sentence for pictures the decoder found damaged (issue 16).
    static let damagedVideo = "Damaged video: some pictures were skipped."
    static let noObject = view("noObject")
    static let tooDark = view("tooDark")

    /// Sentences about the session rather than the scene: start-up, endings, faults, states, and
    /// the fixed mode confirmations ("Continuous scanning on.").
    static let session: Set<String> = {
        let fixed = sessionTemplates.values.filter { !$0.contains("{") }
        let modes = modeOnTemplates.values.filter { !$0.contains("{") }
        return Set(fixed + modes + [activated, endOfVideo, streamStopped, detectionFailed])
    }()
}
