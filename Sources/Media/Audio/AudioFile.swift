import AssistCore
import CSndFile
import Foundation

/// Why an audio file could not be read or written, as one sentence.
public enum AudioFileError: UserFacingError, Equatable {
    case missing(path: String)
    case notAudio(path: String)
    case unreadable(path: String, reason: String)
    case unwritable(path: String, reason: String)
    case empty(path: String)

    public var userMessage: String {
        switch self {
        case .missing(let path): return "The audio file \(path) does not exist."
        case .notAudio(let path): return "The file \(path) is not an audio file libsndfile can read."
        case .unreadable(let path, let reason): return "The audio file \(path) could not be read: \(reason)."
        case .unwritable(let path, let reason): return "The audio file \(path) could not be written (\(reason)), so it was not saved."
        case .empty(let path): return "The audio file \(path) contains no sound."
        }
    }
}

/// How samples are stored in a written WAV file.
public enum AudioSampleEncoding: Sendable {
    /// 16-bit PCM: what every player reads. libsndfile clips out-of-range samples instead of wrapping.
    case pcm16
    /// 32-bit float: exact, for measurements.
    case float32

    var subtype: Int32 { self == .pcm16 ? Int32(SF_FORMAT_PCM_16) : Int32(SF_FORMAT_FLOAT) }
}

/// Interleaved float frames with their sample rate: the value handed between audio stages.
public struct AudioBuffer: Sendable, Equatable {
    public var samples: [Float]
    public let sampleRate: Double
    public let channelCount: Int

    public init(samples: [Float], sampleRate: Double, channelCount: Int) {
        self.samples = samples
        self.sampleRate = sampleRate
        self.channelCount = channelCount
    }

    public var frameCount: Int { samples.count / max(channelCount, 1) }
    public var durationSeconds: Double { Double(frameCount) / sampleRate }
}

/// Reads any format libsndfile knows (WAV, FLAC, Ogg/Vorbis, AIFF, MP3 where built in, …) as
/// float frames in −1…1, a block at a time so long files need not fit in memory.
/// The one owner of a reading `SNDFILE*`; it is closed in `deinit`.
public final class AudioFileReader {
    public let path: String
    public let sampleRate: Double
    public let channelCount: Int
    /// Total frames as the file header says.
    public let frameCount: Int
    private let handle: OpaquePointer

    public init(url: URL) throws {
        path = url.path
        guard FileManager.default.fileExists(atPath: path) else { throw AudioFileError.missing(path: path) }
        var info = SF_INFO()
        guard let handle = sf_open(path, Int32(SFM_READ), &info) else {
            let code = sf_error(nil)
            if [SF_ERR_UNRECOGNISED_FORMAT, SF_ERR_MALFORMED_FILE, SF_ERR_UNSUPPORTED_ENCODING].map({ Int32($0) }).contains(code) {
                throw AudioFileError.notAudio(path: path)
            }
            throw AudioFileError.unreadable(path: path, reason: AudioFileWriter.reason(String(cString: sf_strerror(nil))))
        }
        self.handle = handle
        sampleRate = Double(info.samplerate)
        channelCount = Int(info.channels)
        frameCount = Int(info.frames)
        if channelCount < 1 || sampleRate <= 0 {
            sf_close(handle)
            throw AudioFileError.notAudio(path: path)
        }
    }

    deinit { sf_close(handle) }

    /// Up to `maxFrames` interleaved frames; empty at the end of the file.
    public func read(maxFrames: Int) throws -> [Float] {
        var samples = [Float](repeating: 0, count: maxFrames * channelCount)
        let got = samples.withUnsafeMutableBufferPointer { sf_readf_float(handle, $0.baseAddress, sf_count_t(maxFrames)) }
        if got < 0 { throw AudioFileError.unreadable(path: path, reason: AudioFileWriter.reason(String(cString: sf_strerror(handle)))) }
        samples.removeLast((maxFrames - Int(got)) * channelCount)
        return samples
    }
}

/// Writes float frames to a WAV file. The one owner of a writing `SNDFILE*`; `close()` (or
/// `deinit`) finishes the header.
public final class AudioFileWriter {
    public let path: String
    public let channelCount: Int
    private var handle: OpaquePointer?

    public init(url: URL, sampleRate: Double, channelCount: Int, encoding: AudioSampleEncoding = .pcm16) throws {
        path = url.path
        self.channelCount = channelCount
        var info = SF_INFO()
        info.samplerate = Int32(sampleRate.rounded())
        info.channels = Int32(channelCount)
        info.format = Int32(SF_FORMAT_WAV) | encoding.subtype
        guard sf_format_check(&info) != 0 else {
            throw AudioFileError.unwritable(path: path, reason: "WAV cannot hold \(channelCount) channels at \(Int(sampleRate)) Hz")
        }
        guard let handle = sf_open(path, Int32(SFM_WRITE), &info) else {
            throw AudioFileError.unwritable(path: path, reason: Self.reason(String(cString: sf_strerror(nil))))
        }
        // Out-of-range floats become full scale in integer formats rather than wrapping around.
        sf_command(handle, Int32(SFC_SET_CLIPPING), nil, Int32(SF_TRUE))
        self.handle = handle
    }

    deinit { close() }

    /// libsndfile's message without its "System error :" prefix and final full stop.
    static func reason(_ message: String) -> String {
        var text = message.trimmingCharacters(in: .whitespacesAndNewlines)
        if let range = text.range(of: "System error :") { text = String(text[range.upperBound...]).trimmingCharacters(in: .whitespaces) }
        while text.hasSuffix(".") { text.removeLast() }
        return text.prefix(1).lowercased() + text.dropFirst()
    }

    /// Appends interleaved frames.
    public func write(_ samples: [Float]) throws {
        guard let handle else { throw AudioFileError.unwritable(path: path, reason: "the file is already closed") }
        let frames = samples.count / channelCount
        let written = samples.withUnsafeBufferPointer { sf_writef_float(handle, $0.baseAddress, sf_count_t(frames)) }
        if Int(written) != frames {
            let reason = Self.reason(String(cString: sf_strerror(handle)))
            discard()
            throw AudioFileError.unwritable(path: path, reason: reason)
        }
    }

    /// Closes and deletes the file: a write failed (a full disk), and a half-written or 0-byte
    /// file must not be left looking like a finished one (issue 16).
    public func discard() {
        close()
        unlink(path)
    }

    public func close() {
        if let handle { sf_close(handle) }
        handle = nil
    }
}

/// Whole-file convenience over the reader and writer.
public enum AudioFile {
    public static func read(_ url: URL) throws -> AudioBuffer {
        let reader = try AudioFileReader(url: url)
        var samples: [Float] = []
        samples.reserveCapacity(max(reader.frameCount, 0) * reader.channelCount)
        // Blocks of about 64 Ki samples whatever the channel count: a header that declares
        // 1,024 channels must not make each block 256 MB (the fuzzer's 55-byte WAV of 514
        // channels took half a second per read, and ten under load).
        let blockFrames = max(1, 65_536 / reader.channelCount)
        while true {
            let block = try reader.read(maxFrames: blockFrames)
            if block.isEmpty { break }
            samples.append(contentsOf: block)
        }
        if samples.isEmpty { throw AudioFileError.empty(path: reader.path) }
        return AudioBuffer(samples: samples, sampleRate: reader.sampleRate, channelCount: reader.channelCount)
    }

    public static func writeWAV(_ buffer: AudioBuffer, to url: URL, encoding: AudioSampleEncoding = .pcm16) throws {
        let writer = try AudioFileWriter(url: url, sampleRate: buffer.sampleRate, channelCount: buffer.channelCount, encoding: encoding)
        try writer.write(buffer.samples)
        writer.close()
    }
}
