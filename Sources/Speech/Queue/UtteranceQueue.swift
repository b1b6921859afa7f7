import Foundation
import Synchronization

/// How the queue speaks.
public struct UtteranceQueueSettings: Sendable, Equatable {
    /// The same content is not said again within this many seconds (see `RepetitionFilter`).
    public var cooldownSeconds: Double
    /// No message is longer than this at the current rate: phrases are dropped from the end
    /// until the synthesised speech fits (one phrase longer than this is still said whole).
    public var maximumSpeechSeconds: Double
    /// Place speech and tones at the object's direction; off for mono listeners (both ears get
    /// the same signal).
    public var spatialAudio: Bool
    /// Silence after each utterance, so two announcements are heard as two.
    public var pauseSeconds: Double
    /// Earcons played loud (see `ToneSynthesizer`).
    public var loudEarcons: Set<Earcon>

    public init(cooldownSeconds: Double = 10, maximumSpeechSeconds: Double = 3, spatialAudio: Bool = true,
                pauseSeconds: Double = 0.15, loudEarcons: Set<Earcon> = []) {
        self.cooldownSeconds = cooldownSeconds
        self.maximumSpeechSeconds = maximumSpeechSeconds
        self.spatialAudio = spatialAudio
        self.pauseSeconds = pauseSeconds
        self.loudEarcons = loudEarcons
    }
}

/// What the queue made of an utterance it accepted.
public struct PlannedUtterance: Sendable, Equatable {
    public let id: Int
    /// The utterance as it will be said (phrases that did not fit removed).
    public let utterance: Utterance
    /// Phrases left out to stay within the length limit.
    public let droppedPhrases: [String]
    /// Length of the synthesised words alone, as measured.
    public let speechSeconds: Double
    /// Length of everything that will be played: earcon, words and the interaural delay.
    public let durationSeconds: Double
    /// Set when the voice could not speak the words; the error tone is played instead.
    public let voiceFailure: SpeechError?
}

/// The outcome of `UtteranceQueue.enqueue`.
public enum EnqueueOutcome: Sendable, Equatable {
    case queued(PlannedUtterance)
    /// Held back: the same content was said less than the cooldown ago and is no more urgent.
    case suppressedAsRepeat
}

/// When an utterance was heard, in frames of audio time.
public struct PlaybackRecord: Sendable, Equatable {
    public let id: Int
    public let utterance: Utterance
    public let startFrame: Int
    public internal(set) var endFrame: Int?
    public internal(set) var wasInterrupted: Bool
}

/// Interleaved stereo frames rendered by the queue, starting at `startFrame` of audio time.
public struct AudioBlock: Sendable, Equatable {
    public let startFrame: Int
    public let sampleRateHz: Double
    public var samples: [Float]
    public var frameCount: Int { samples.count / 2 }
}

/// Between guidance and the loudspeaker: orders utterances by priority, plays one at a time,
/// lets a hazard cut in, and renders stereo blocks for whatever output pulls them (a sound card,
/// a WAV file, a recorder in tests).
///
/// Time is audio time: the number of frames rendered so far. Everything the queue promises
/// ("a hazard starts within 100 ms", "not repeated within 10 s") is measured on it, which makes
/// the promises checkable on a rendered file, and true on a device whose callback pulls blocks.
/// Synthesis happens in `enqueue`, on the caller's thread (espeak-ng needs about 1 ms per
/// second of speech); rendering only copies samples under a short lock.
public final class UtteranceQueue: Sendable {
    public let sampleRateHz: Double
    public let settings: UtteranceQueueSettings
    private let voice: (any TextToSpeech)?
    private let tones: ToneSynthesizer

    /// Fade applied when speech is cut off, so the cut does not click.
    static let interruptionFadeSeconds = 0.005
    /// Silence between an earcon and the words after it.
    static let earconGapSeconds = 0.04

    private struct Track {
        let plan: PlannedUtterance
        let samples: [Float]   // interleaved stereo
        var frameCount: Int { samples.count / 2 }
    }

    private struct State {
        var pending: [Track] = []
        var current: Track?
        var positionFrames = 0
        var fadeOutFramesLeft: Int?
        var pauseFramesLeft = 0
        var renderedFrames = 0
        var filter: RepetitionFilter
        var lastStarted: Utterance?
        var log: [PlaybackRecord] = []
        var nextID = 1
        /// Tracks that finished playing, freed later on a control thread: `free` can take a lock,
        /// which the audio thread must not wait for.
        var finished: [Track] = []

        init(filter: RepetitionFilter) {
            self.filter = filter
            log.reserveCapacity(Self.logLength + 1)
            finished.reserveCapacity(Self.finishedCapacity)
        }
        static let logLength = 256
        static let finishedCapacity = 64
    }
    private let state: Mutex<State>

    /// `voice` nil: tones only (the voice could not start). `sampleRateHz` is the output's rate;
    /// speech is resampled to it.
    public init(voice: (any TextToSpeech)?, sampleRateHz: Double? = nil, settings: UtteranceQueueSettings = UtteranceQueueSettings()) {
        let rate = sampleRateHz ?? Double(voice?.sampleRate ?? 22050)
        self.voice = voice
        self.sampleRateHz = rate
        self.settings = settings
        tones = ToneSynthesizer(sampleRateHz: rate, loudEarcons: settings.loudEarcons)
        state = Mutex(State(filter: RepetitionFilter(cooldownSeconds: settings.cooldownSeconds)))
    }

    // MARK: Control (any thread)

    /// Plans and queues `utterance`: checks repetition, synthesises, shortens to the length
    /// limit, places it in the stereo field. A hazard interrupts lower-priority speech at once.
    @discardableResult
    public func enqueue(_ utterance: Utterance) -> EnqueueOutcome {
        enqueue(utterance, checkingRepetition: true)
    }

    private func enqueue(_ utterance: Utterance, checkingRepetition: Bool) -> EnqueueOutcome {
        let admitted: Int? = state.withLock { state in
            let now = Double(state.renderedFrames) / sampleRateHz
            if checkingRepetition {
                guard state.filter.allows(utterance, atSeconds: now) else { return nil }
                state.filter.forgetExpired(atSeconds: now)
                state.filter.record(utterance, atSeconds: now)
            }
            defer { state.nextID += 1 }
            return state.nextID
        }
        guard let id = admitted else { return .suppressedAsRepeat }
        let track = makeTrack(id: id, utterance)
        releaseFinishedTracks()
        state.withLock { state in
            let index = state.pending.firstIndex { $0.plan.utterance.priority < utterance.priority } ?? state.pending.endIndex
            state.pending.insert(track, at: index)
            if utterance.priority == .hazard, let current = state.current,
               current.plan.utterance.priority < .hazard, state.fadeOutFramesLeft == nil {
                state.fadeOutFramesLeft = Int(Self.interruptionFadeSeconds * sampleRateHz)
            }
        }
        return .queued(track.plan)
    }

    /// Frees the audio of utterances that finished playing. The queue does this on every
    /// enqueue; a live output also calls it now and then from its own (non-audio) thread.
    public func releaseFinishedTracks() {
        let finished = state.withLock { state -> [Track] in
            guard !state.finished.isEmpty else { return [] }
            let finished = state.finished
            state.finished = []
            state.finished.reserveCapacity(State.finishedCapacity)
            return finished
        }
        _ = finished   // released here, outside the lock and off the audio thread
    }

    /// Finished utterances whose audio is waiting to be freed (for tests).
    var finishedTrackCount: Int { state.withLock { $0.finished.count } }

    /// Silences everything: what is being said fades out within 5 ms and nothing queued is said.
    public func stop() {
        let dropped = state.withLock { state -> [Track] in
            let dropped = state.pending
            state.pending = []
            if state.current != nil, state.fadeOutFramesLeft == nil {
                state.fadeOutFramesLeft = Int(Self.interruptionFadeSeconds * sampleRateHz)
            }
            return dropped
        }
        _ = dropped   // freed here, outside the lock the audio thread takes
    }

    /// Drops what waits to be said, except the utterances `keep` accepts; what is being said now
    /// finishes (a sentence cut mid-word is worse than one heard late). Returns the dropped ones.
    @discardableResult
    public func dropWaiting(keeping keep: (Utterance) -> Bool) -> [PlannedUtterance] {
        let dropped = state.withLock { state -> [Track] in
            var dropped: [Track] = []
            state.pending.removeAll { track in
                guard !keep(track.plan.utterance) else { return false }
                dropped.append(track)
                return true
            }
            return dropped
        }
        return dropped.map(\.plan)   // their audio is freed here, outside the lock
    }

    /// Says the last utterance again (the user asked: it is an answer, never held back as a repeat).
    /// Returns nil when nothing has been said yet.
    @discardableResult
    public func repeatLast() -> EnqueueOutcome? {
        guard var last = state.withLock({ $0.lastStarted }) else { return nil }
        last.priority = max(last.priority, .answer)
        return enqueue(last, checkingRepetition: false)
    }

    /// The object behind `contentKey` left the view; if it comes back it is announced as new.
    public func objectLeftView(contentKey: String) {
        state.withLock { $0.filter.forget(contentKey: contentKey) }
    }

    /// Audio time so far, in seconds.
    public var audioTimeSeconds: Double { state.withLock { Double($0.renderedFrames) / sampleRateHz } }

    /// Nothing playing, nothing queued, no pause running.
    public var isIdle: Bool {
        state.withLock { $0.current == nil && $0.pending.isEmpty && $0.pauseFramesLeft == 0 }
    }

    /// What was played so far (the latest 256 utterances).
    public var playbackLog: [PlaybackRecord] { state.withLock { $0.log } }

    // MARK: Rendering (the output's thread)

    /// Renders the next `frameCount` frames of interleaved stereo into `buffer`
    /// (`2 × frameCount` floats). Does not allocate; holds the lock only while copying.
    public func render(into buffer: UnsafeMutableBufferPointer<Float>, frameCount: Int) {
        state.withLock { state in
            var frame = 0
            while frame < frameCount {
                if state.current == nil {
                    // A hazard does not wait for the pause after the previous message.
                    if state.pauseFramesLeft > 0, state.pending.first?.plan.utterance.priority == .hazard {
                        state.pauseFramesLeft = 0
                    }
                    if state.pauseFramesLeft > 0 {
                        let n = min(state.pauseFramesLeft, frameCount - frame)
                        fillSilence(buffer, from: frame, count: n)
                        state.pauseFramesLeft -= n
                        frame += n
                        continue
                    }
                    guard !state.pending.isEmpty else {
                        fillSilence(buffer, from: frame, count: frameCount - frame)
                        break
                    }
                    let next = state.pending.removeFirst()
                    state.current = next
                    state.positionFrames = 0
                    state.lastStarted = next.plan.utterance
                    state.log.append(PlaybackRecord(id: next.plan.id, utterance: next.plan.utterance,
                                                    startFrame: state.renderedFrames + frame, endFrame: nil, wasInterrupted: false))
                    if state.log.count > State.logLength { state.log.removeFirst(state.log.count - State.logLength) }
                }
                guard let current = state.current else { continue }
                let remainingInTrack = current.frameCount - state.positionFrames
                var n = min(remainingInTrack, frameCount - frame)
                if let fade = state.fadeOutFramesLeft { n = min(n, fade) }
                let fadeTotal = Double(max(Int(Self.interruptionFadeSeconds * sampleRateHz), 1))
                current.samples.withUnsafeBufferPointer { source in
                    for i in 0..<n {
                        var gain: Float = 1
                        if let fade = state.fadeOutFramesLeft { gain = Float(Double(fade - i) / fadeTotal) }
                        let s = (state.positionFrames + i) * 2, d = (frame + i) * 2
                        buffer[d] = source[s] * gain
                        buffer[d + 1] = source[s + 1] * gain
                    }
                }
                state.positionFrames += n
                frame += n
                var finished = state.positionFrames >= current.frameCount
                var interrupted = false
                if let fade = state.fadeOutFramesLeft {
                    state.fadeOutFramesLeft = fade - n
                    if fade - n <= 0 { finished = true; interrupted = true }
                }
                if finished {
                    let end = state.renderedFrames + frame
                    if let index = state.log.lastIndex(where: { $0.id == current.plan.id }) {
                        state.log[index].endFrame = end
                        state.log[index].wasInterrupted = interrupted
                    }
                    // Keep the track for a control thread to free (see `releaseFinishedTracks`).
                    if state.finished.count < state.finished.capacity { state.finished.append(current) }
                    state.current = nil
                    state.fadeOutFramesLeft = nil
                    state.pauseFramesLeft = interrupted ? 0 : Int(settings.pauseSeconds * sampleRateHz)
                }
            }
            state.renderedFrames += frameCount
        }
    }

    /// The next block, as a value.
    public func renderBlock(frameCount: Int) -> AudioBlock {
        var samples = [Float](repeating: 0, count: frameCount * 2)
        let start = state.withLock { $0.renderedFrames }
        samples.withUnsafeMutableBufferPointer { render(into: $0, frameCount: frameCount) }
        return AudioBlock(startFrame: start, sampleRateHz: sampleRateHz, samples: samples)
    }

    /// Renders block after block into `output` until everything queued has been played.
    public func renderUntilIdle(to output: any AudioOutput, blockFrames: Int = 256) throws {
        repeat {
            try output.consume(renderBlock(frameCount: blockFrames))
        } while !isIdle
    }

    private func fillSilence(_ buffer: UnsafeMutableBufferPointer<Float>, from frame: Int, count: Int) {
        for i in (frame * 2)..<((frame + count) * 2) { buffer[i] = 0 }
    }

    // MARK: Planning

    private func makeTrack(id: Int, _ utterance: Utterance) -> Track {
        var kept = utterance.phrases
        var dropped: [String] = []
        var speech: [Float] = []
        var speechSeconds = 0.0
        var failure: SpeechError?
        if !kept.isEmpty {
            if let voice {
                do {
                    var audio = try voice.synthesize(kept.joined(separator: " "))
                    if audio.durationSeconds > settings.maximumSpeechSeconds && kept.count > 1 {
                        // Keep the most phrases (from the first, the most important) whose speech
                        // fits; never cut words. Duration grows with the count, so bisect: a few
                        // syntheses even for thousands of phrases.
                        var fits = 1, tooLong = kept.count
                        var best = try voice.synthesize(kept[0])
                        while tooLong - fits > 1 {
                            let middle = (fits + tooLong) / 2
                            let candidate = try voice.synthesize(kept[..<middle].joined(separator: " "))
                            if candidate.durationSeconds <= settings.maximumSpeechSeconds {
                                fits = middle
                                best = candidate
                            } else {
                                tooLong = middle
                            }
                        }
                        dropped = Array(kept[fits...])
                        kept = Array(kept[..<fits])
                        audio = best
                    }
                    let words = Self.withoutLeadingSilence(audio.samples)
                    speechSeconds = Double(words.count) / Double(audio.sampleRate)
                    speech = Self.resample(words.map { Float($0) / 32768 }, from: Double(audio.sampleRate), to: sampleRateHz)
                } catch {
                    failure = error
                }
            } else {
                failure = .engineUnavailable
            }
        }
        var mono: [Float] = []
        if let earcon = utterance.earcon {
            mono = tones.render(earcon, severity: utterance.severity)
            if !speech.isEmpty { mono.append(contentsOf: repeatElement(0, count: Int(Self.earconGapSeconds * sampleRateHz))) }
        }
        if failure != nil {
            if !mono.isEmpty { mono.append(contentsOf: repeatElement(0, count: Int(Self.earconGapSeconds * sampleRateHz))) }
            mono.append(contentsOf: tones.render(.error, severity: 1))
        } else {
            mono.append(contentsOf: speech)
        }
        let placement = settings.spatialAudio
            ? utterance.directionDegrees.map { StereoPlacement(directionDegrees: $0) } ?? .centre
            : .centre
        let stereo = placement.place(mono, sampleRateHz: sampleRateHz)
        var said = utterance
        said.phrases = failure == nil ? kept : utterance.phrases
        let plan = PlannedUtterance(id: id, utterance: said, droppedPhrases: dropped, speechSeconds: speechSeconds,
                                    durationSeconds: Double(stereo.count / 2) / sampleRateHz, voiceFailure: failure)
        return Track(plan: plan, samples: stereo)
    }

    /// espeak-ng starts every synthesis with about 50 ms of silence (1 080 samples at 22 050 Hz):
    /// pure delay before the first word, so it is cut down to 2 ms. Trailing silence stays; the
    /// queue's pause follows it anyway.
    static func withoutLeadingSilence(_ samples: [Int16]) -> ArraySlice<Int16> {
        // −60 dBFS: below anything espeak-ng voices, above its dithering-free digital silence.
        let threshold: Int16 = 33
        guard let first = samples.firstIndex(where: { abs(Int32($0)) > threshold }) else { return samples[...] }
        return samples[max(first - 44, 0)...]
    }

    /// Linear interpolation: speech (22 050 Hz) to a device rate such as 48 000 Hz. Speech has
    /// little energy above 5 kHz, so the imaging this leaves is inaudible.
    static func resample(_ samples: [Float], from sourceHz: Double, to targetHz: Double) -> [Float] {
        guard sourceHz != targetHz, samples.count > 1 else { return samples }
        let count = Int((Double(samples.count) * targetHz / sourceHz).rounded())
        let step = sourceHz / targetHz
        return (0..<count).map { i in
            let position = Double(i) * step
            let index = min(Int(position), samples.count - 2)
            let fraction = Float(position - Double(index))
            return samples[index] * (1 - fraction) + samples[index + 1] * fraction
        }
    }
}
