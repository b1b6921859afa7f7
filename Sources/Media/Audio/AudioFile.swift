import AssistCore
import CSndFile
import Foundation
#if canImport(Glibc)
import Glibc
#endif

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
        case .notAudio(let path): return "The file \(path) is not a sound file that can be read, or its header is damaged (WAV, FLAC and Ogg files are read)."
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
        // What is wrong with the path itself first, in its own words; a FIFO is never opened.
        switch InputFileProblem.check(path: path) {
        case .notFound: throw AudioFileError.missing(path: path)
        case .empty: throw AudioFileError.empty(path: path)
        case .unreadable: throw AudioFileError.unreadable(path: path, reason: "permission denied")
        case .isFolder, .notARegularFile: throw AudioFileError.notAudio(path: path)
        case nil: break
        }
        var info = SF_INFO()
        guard let handle = sf_open(path, Int32(SFM_READ), &info) else {
            // A readable, non-empty file libsndfile refuses is not sound it can read, whatever its
            // internal reason (issue 39: a WAV with a sample rate of 0 was told as "SF_INFO
            // struct incomplete").
            throw AudioFileError.notAudio(path: path)
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

/// Writes float frames to a WAV file. The one owner of a writing `SNDFILE*`.
///
/// The sound goes to a temporary file beside the destination (`.NAME.partial-XXXXXX`, made by
/// mkstemp, mode 0600: a recording holds what was around the user), and `finish()` renames it
/// into place only once its header is written and it is flushed to disk. Any failure removes
/// the temporary file, so a full disk never leaves a 0-byte or half-written WAV under the name
/// the user asked for (issue 39: `hear -o` did).
public final class AudioFileWriter {
    public let path: String
    public let channelCount: Int
    private var handle: OpaquePointer?
    private var descriptor: Int32 = -1
    private var temporaryPath: String?

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
        let folder = url.deletingLastPathComponent().path
        var template = Array((folder.isEmpty ? "." : folder).utf8CString.dropLast()) + Array("/.\(url.lastPathComponent).partial-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw AudioFileError.unwritable(path: path, reason: FileNotSavedError(path: path, errno: errno).reasonText) }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // The descriptor stays ours (SF_FALSE) so that `finish()` can flush it before the rename.
        guard let handle = sf_open_fd(fd, Int32(SFM_WRITE), &info, Int32(SF_FALSE)) else {
            let reason = Self.reason(String(cString: sf_strerror(nil)))
            Glibc.close(fd)
            unlink(temporary)
            throw AudioFileError.unwritable(path: path, reason: reason)
        }
        // Out-of-range floats become full scale in integer formats rather than wrapping around.
        sf_command(handle, Int32(SFC_SET_CLIPPING), nil, Int32(SF_TRUE))
        self.handle = handle
        descriptor = fd
        temporaryPath = temporary
    }

    /// A writer released without `finish()` was stopped by a failure on the way: what it wrote
    /// is incomplete, and is removed.
    deinit { discard() }

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

    /// Stops and removes what was written: a write failed, and a half-written file must not be
    /// left looking like a finished one. The destination is untouched.
    public func discard() {
        if let handle { sf_close(handle) }
        handle = nil
        if descriptor >= 0 { Glibc.close(descriptor) }
        descriptor = -1
        if let temporaryPath { unlink(temporaryPath) }
        temporaryPath = nil
    }

    /// Writes the header, flushes the file to disk and renames it to the destination; on any
    /// failure the temporary file is removed and the sentence says the file was not saved.
    public func finish() throws {
        guard let handle, let temporaryPath else { return }
        self.handle = nil
        let closed = sf_close(handle)
        let failure: Int32? = closed != 0 ? EIO : fsync(descriptor) != 0 ? errno : nil
        Glibc.close(descriptor)
        descriptor = -1
        if let failure {
            unlink(temporaryPath)
            self.temporaryPath = nil
            throw AudioFileError.unwritable(path: path, reason: FileNotSavedError(path: path, errno: failure).reasonText)
        }
        guard rename(temporaryPath, path) == 0 else {
            let code = errno
            unlink(temporaryPath)
            self.temporaryPath = nil
            throw AudioFileError.unwritable(path: path, reason: FileNotSavedError(path: path, errno: code).reasonText)
        }
        self.temporaryPath = nil
    }

    /// `finish()` for a caller with no one to tell: a failure leaves no file behind either.
    public func close() {
        try? finish()
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
        try writer.finish()
    }
}
