import AssistCore
import Foundation
import Media
import Synchronization

/// Why spoken commands cannot be heard, as one sentence that says what to do.
public enum VoiceInputError: UserFacingError, Equatable {
    case microphoneMissing
    case microphoneUnavailable(reason: String)
    case microphoneNotFound(name: String, available: [String])

    public var userMessage: String {
        switch self {
        case .microphoneMissing:
            return "No microphone was found; connect one (and check that the sound system sees it), or give commands by typing them with assist console."
        case .microphoneUnavailable(let reason):
            return "The microphone could not be opened (\(reason)); close other programs that record, check that your user may record sound (the audio group or the desktop's microphone permission), and try again."
        case .microphoneNotFound(let name, let available):
            return "There is no microphone named “\(name)”; the microphones are: \(available.isEmpty ? "none" : available.joined(separator: ", "))."
        }
    }
}

/// Where the recogniser's audio comes from: 16 kHz mono 16-bit chunks, pulled one at a time.
public protocol SpeechAudioSource: AnyObject {
    /// The next chunk (about 20 ms); nil when the input has ended or `stop()` was called.
    func nextChunk() throws -> [Int16]?
    /// Ends the input: a waiting `nextChunk()` returns nil.
    func stop()
    /// True for a file replayed as fast as possible, false for live audio.
    var isRecording: Bool { get }
}

/// A recording (any format and rate libsndfile reads), converted to 16 kHz mono and handed out
/// in 20 ms chunks as fast as they are asked for.
public final class AudioFileSpeechSource: SpeechAudioSource {
    public let samples: [Int16]
    private var position = 0
    /// Set by `stop()` on another thread (the session ending) while the reading thread asks for chunks.
    private let stopped = Atomic(false)

    public init(url: URL) throws {
        samples = RecognizerAudio.samples(from: try AudioFile.read(url))
    }

    public var isRecording: Bool { true }

    public func nextChunk() throws -> [Int16]? {
        guard !stopped.load(ordering: .relaxed), position < samples.count else { return nil }
        let end = min(position + LiveReplay.chunkSamples, samples.count)
        defer { position = end }
        return Array(samples[position..<end])
    }

    public func stop() { stopped.store(true, ordering: .relaxed) }
}
