import Foundation
import Synchronization

/// How the queue speaks.
public struct UtteranceQueueSettings: Sendable, Equatable {
    /// The same content is not said again within this many seconds (see `RepetitionFilter`).
    public var cooldownSeconds: Double
    /// No message is longer than this at the current rate, earcon included: a longer one is said
    /// in parts, each within it, split between phrases, then sentences, then clauses, then words
    /// (never inside a word). Nothing is left out: the later parts wait their turn (see `more()`).
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
    /// The utterance as it will be said: its first part, when it is longer than the limit.
    public let utterance: Utterance
    /// The rest, in order, each within the limit: each is said when the one before has ended and
    /// nothing else waits (a hazard or a new object is heard first), or at once on "more".
    public let laterParts: [PlannedUtterance]
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
    /// The program is ending ("exit" came while it was being planned): never to be heard.
    case abandoned
}

/// When an utterance was heard, in frames of audio time.
public struct PlaybackRecord: Sendable, Equatable {
    public let id: Int
    /// What was heard (a streamed sentence cut at the length limit: its first part).
    public internal(set) var utterance: Utterance
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
    /// Swapped whole when the user changes the voice, rate, pitch or volume while guidance runs
    /// (`changeVoice(to:)`): the next utterance planned is spoken with the new one.
    private let currentVoice: Mutex<(any TextToSpeech)?>
    private let directional: Atomic<Bool>
    private var voice: (any TextToSpeech)? { currentVoice.withLock { $0 } }
    private let tones: ToneSynthesizer

    /// Fade applied when speech is cut off, so the cut does not click.
    static let interruptionFadeSeconds = 0.005
    /// Silence between an earcon and the words after it.
    static let earconGapSeconds = 0.04

    /// The first piece of a streamed sentence (`TextToSpeech.streamsPieces`) is its first clause,
    /// cut after this many words only when longer, so that a slow voice makes it at once; each
    /// later piece joins whole clauses up to twice the one before. Cutting the first piece after 2
    /// words whatever the clause ("Bicycle is" / "7 meters away,") made the natural voice say
    /// fragments as sentences, and the recogniser mishear them (BENCHMARKS.md, "Issue 37
    /// (twenty-fourth session)"). 5 words, not 6: with 6 the first audio of a 3-s sentence not said
    /// before took up to 416 ms (target ≤ 400), with 5 up to 265 ms (same build, one run each).
    static let firstPieceWords = 5
    /// Later pieces end at a clause or a phrase, and are never longer than this: each is made
    /// while the one before plays, and the model's input (so its memory) stays bounded.
    static let maximumPieceWords = 12
    static let pieceMarks = ",;:.!?"
    /// Fade at each edge of a streamed piece, so pieces join without a click.
    static let pieceFadeSeconds = 0.002

    private struct Track {
        var plan: PlannedUtterance
        var samples: [Float]   // interleaved stereo
        /// Still being made (a streamed sentence): more samples will be added while it plays.
        var open = false
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
        /// The later parts of a long utterance, in order (see `PlannedUtterance.laterParts`).
        var laterParts: [Track] = []
        /// "Stop" holds the later parts until "more".
        var laterPartsHeld = false
        /// Counts `stop()` calls, so later parts made while one came stay held.
        var stops = 0
        /// The first part of the message the later parts belong to, until it starts.
        var laterPartsAwait: Int?
        /// Tracks that finished playing, freed later on a control thread: `free` can take a lock,
        /// which the audio thread must not wait for.
        var finished: [Track] = []
        /// The light mode's tone, heard under everything while it is on, and the pitch it glides to.
        var continuousTone: ContinuousTone?
        var continuousTonePitchHz = 0.0
        /// Silence played because a streamed sentence's next piece was not made in time.
        var starvedFrames = 0

        init(filter: RepetitionFilter) {
            self.filter = filter
            log.reserveCapacity(Self.logLength + 1)
            finished.reserveCapacity(Self.finishedCapacity)
        }
        static let logLength = 256
        static let finishedCapacity = 64

        /// Changes the streamed track `id` if it is still to be heard (playing, not being cut, or
        /// waiting); false when it was cut, dropped or stopped.
        mutating func withOpenTrack(_ id: Int, evenIfFading: Bool = false, _ change: (inout Track) -> Void) -> Bool {
            if current?.plan.id == id, evenIfFading || fadeOutFramesLeft == nil {
                change(&current!)
                return true
            }
            guard let index = pending.firstIndex(where: { $0.plan.id == id }) else { return false }
            change(&pending[index])
            return true
        }
    }
    private let state: Mutex<State>
    /// Counts `abandonPlanning()` calls: planning that began before one stops synthesising.
    private let abandonments = Atomic<Int>(0)

    /// `voice` nil: tones only (the voice could not start). `sampleRateHz` is the output's rate;
    /// speech is resampled to it.
    public init(voice: (any TextToSpeech)?, sampleRateHz: Double? = nil, settings: UtteranceQueueSettings = UtteranceQueueSettings()) {
        let rate = sampleRateHz ?? Double(voice?.sampleRate ?? 22050)
        currentVoice = Mutex(voice)
        self.sampleRateHz = rate
        self.settings = settings
        directional = Atomic(settings.spatialAudio)
        tones = ToneSynthesizer(sampleRateHz: rate, loudEarcons: settings.loudEarcons)
        state = Mutex(State(filter: RepetitionFilter(cooldownSeconds: settings.cooldownSeconds)))
        pauseFrames = Int(settings.pauseSeconds * rate)
    }

    /// The pause after each utterance in whole output frames: `settings.pauseSeconds` rounded
    /// down (0.15 s is 3 307.5 frames at 22 050 Hz, so 3 307 are heard).
    public let pauseFrames: Int

    // MARK: Control (any thread)

    /// Speaks every utterance planned from now on with `voice` (what is already planned or playing
    /// keeps its audio). Its speech is resampled to the queue's rate, so any voice fits.
    public func changeVoice(to voice: (any TextToSpeech)?) {
        currentVoice.withLock { $0 = voice }
    }

    /// Whether speech and tones are placed toward the object (`settings.spatialAudio` at start);
    /// changed while running, it applies from the next utterance planned.
    public var placesByDirection: Bool {
        get { directional.load(ordering: .relaxed) }
        set { directional.store(newValue, ordering: .relaxed) }
    }

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
        let generation = abandonments.load(ordering: .relaxed)
        let abandoned = { self.abandonments.load(ordering: .relaxed) != generation }
        if let voice, voice.streamsPieces(of: utterance.text, urgent: utterance.priority == .hazard),
           let outcome = enqueueStreaming(utterance, id: id, voice: voice, unless: abandoned) {
            return outcome
        }
        let parts = self.parts(of: utterance, unless: abandoned)
        guard !abandoned() else { return .abandoned }
        let first = makeTrack(id: id, parts[0])
        releaseFinishedTracks()
        // The first part is queued before the later ones are synthesised, so that with a slow
        // voice (the natural one) it plays while they are made: a pipeline, not a wait for the whole.
        let stopsBefore = insert(first)
        guard let later = queueLater(Array(parts.dropFirst()), after: id, stopsBefore: stopsBefore, unless: abandoned) else {
            return .abandoned
        }
        return .queued(PlannedUtterance(id: id, utterance: first.plan.utterance, laterParts: later,
                                        speechSeconds: first.plan.speechSeconds, durationSeconds: first.plan.durationSeconds,
                                        voiceFailure: first.plan.voiceFailure))
    }

    /// Puts `track` among those waiting, by priority; a hazard fades out lower-priority speech.
    /// Returns how many "stop"s came so far.
    private func insert(_ track: Track) -> Int {
        state.withLock { state in
            let priority = track.plan.utterance.priority
            let index = state.pending.firstIndex { $0.plan.utterance.priority < priority } ?? state.pending.endIndex
            state.pending.insert(track, at: index)
            if priority == .hazard, let current = state.current,
               current.plan.utterance.priority < .hazard, state.fadeOutFramesLeft == nil {
                state.fadeOutFramesLeft = Int(Self.interruptionFadeSeconds * sampleRateHz)
            }
            return state.stops
        }
    }

    /// Synthesises the later parts of a message whose first part (`firstID`) is queued and queues
    /// them to follow it. nil: planning was abandoned, and the first part is taken back.
    private func queueLater(_ parts: [Utterance], after firstID: Int, stopsBefore: Int,
                            unless abandoned: () -> Bool) -> [PlannedUtterance]? {
        guard let priority = parts.first?.priority else { return [] }
        let (ids, superseded) = state.withLock { state -> (Range<Int>, [Track]) in
            defer { state.nextID += parts.count }
            // A newer long message replaces the unheard rest of one no more urgent than it.
            var superseded: [Track] = []
            state.laterParts.removeAll { track in
                guard track.plan.utterance.priority <= priority else { return false }
                superseded.append(track)
                return true
            }
            return (state.nextID..<(state.nextID + parts.count), superseded)
        }
        _ = superseded   // freed here, outside the lock
        var later: [Track] = []
        for (laterID, part) in zip(ids, parts) {
            guard !abandoned() else {
                state.withLock { state in state.pending.removeAll { $0.plan.id == firstID } }
                return nil
            }
            later.append(makeTrack(id: laterID, part))
        }
        state.withLock { state in
            let index = state.laterParts.firstIndex { $0.plan.utterance.priority < priority } ?? state.laterParts.endIndex
            state.laterParts.insert(contentsOf: later, at: index)
            // A "stop" while they were made holds them for "more", as it would have had they been ready.
            if state.stops == stopsBefore { state.laterPartsHeld = false }
            // They follow the first part; if it has already begun, nothing need wait for it.
            state.laterPartsAwait = state.pending.contains { $0.plan.id == firstID } ? firstID : nil
        }
        return later.map(\.plan)
    }

    /// Says `utterance` while the voice makes it: the first piece (`Utterance.pieces`, a few
    /// words) is queued as soon as it is synthesised, in a track left open, and each next piece is
    /// added to that track while it plays, as long as the part stays within the length limit; the
    /// pieces past the limit become later parts, as in `parts(of:)`. If the track is cut while it
    /// is made (a hazard, `dropWaiting`), the rest of the part goes with it, as a cut part does;
    /// after a "stop" the rest is held for "more". nil: the first piece alone would not fit (a
    /// long word), and the utterance is planned whole.
    private func enqueueStreaming(_ utterance: Utterance, id: Int, voice: any TextToSpeech,
                                  unless abandoned: () -> Bool) -> EnqueueOutcome? {
        let pieces = Utterance.pieces(of: utterance.phrases, breakingAfter: Self.pieceMarks,
                                      firstPieceWords: Self.firstPieceWords, maximumWords: Self.maximumPieceWords,
                                      firstClauseAlone: true)
        let limit = speechLimitSeconds(for: utterance)
        guard pieces.count > 1, let firstAudio = try? voice.synthesize(pieces[0]), firstAudio.durationSeconds <= limit else {
            return nil
        }
        guard !abandoned() else { return .abandoned }
        let placement = self.placement(for: utterance)
        let firstSpeech = streamedPiece(firstAudio)
        var samples: [Float] = []
        // Room for the whole part, so adding a piece never reallocates under the lock the audio thread takes.
        samples.reserveCapacity(Int((settings.maximumSpeechSeconds + 0.5) * sampleRateHz) * 2)
        samples.append(contentsOf: placement.place(opening(utterance, beforeSpeech: true) + firstSpeech, sampleRateHz: sampleRateHz))
        func plan(_ part: Utterance, speechFrames: Int, frames: Int, later: [PlannedUtterance] = []) -> PlannedUtterance {
            PlannedUtterance(id: id, utterance: part, laterParts: later, speechSeconds: Double(speechFrames) / sampleRateHz,
                             durationSeconds: Double(frames) / sampleRateHz, voiceFailure: nil)
        }
        var speechFrames = firstSpeech.count, frames = samples.count / 2
        releaseFinishedTracks()
        let stopsBefore = insert(Track(plan: plan(utterance, speechFrames: speechFrames, frames: frames), samples: samples, open: true))
        var spokenSeconds = firstAudio.durationSeconds
        var taken = 1, cut = false
        while taken < pieces.count {
            guard !abandoned() else {
                state.withLock { state in state.pending.removeAll { $0.plan.id == id } }
                return .abandoned
            }
            // Measured as `parts(of:)` measures: by the sum of the syntheses, each within the limit.
            guard let audio = try? voice.synthesize(pieces[taken]), spokenSeconds + audio.durationSeconds <= limit else { break }
            let speech = streamedPiece(audio)
            let stereo = placement.place(speech, sampleRateHz: sampleRateHz)
            let added = state.withLock { state in
                state.withOpenTrack(id) { $0.samples.append(contentsOf: stereo) }
            }
            guard added else { cut = true; break }
            spokenSeconds += audio.durationSeconds
            speechFrames += speech.count
            frames += stereo.count / 2
            taken += 1
        }
        var part = utterance
        if taken < pieces.count { part.phrases = Array(pieces[..<taken]) }
        let finalPlan = plan(part, speechFrames: speechFrames, frames: frames)
        let stopped = state.withLock { state -> Bool in
            _ = state.withOpenTrack(id, evenIfFading: true) { track in
                track.open = false
                track.plan = finalPlan
            }
            // It may have begun as the whole message: what was heard is this part.
            if let index = state.log.lastIndex(where: { $0.id == id }) {
                state.log[index].utterance = part
                if state.lastStarted == utterance { state.lastStarted = part }
            }
            return state.stops != stopsBefore
        }
        guard taken < pieces.count, !cut || stopped else { return .queued(finalPlan) }
        var rest = utterance
        rest.phrases = Array(pieces[taken...])
        rest.earcon = nil
        guard let later = queueLater(parts(of: rest, unless: abandoned), after: id, stopsBefore: stopsBefore, unless: abandoned) else {
            return .abandoned
        }
        return .queued(plan(part, speechFrames: speechFrames, frames: frames, later: later))
    }

    /// Stops the planning under way (a long answer being synthesised part by part) as soon as it
    /// can: the program is ending, and an "exit" must not wait for words nobody will hear.
    public func abandonPlanning() {
        abandonments.add(1, ordering: .relaxed)
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
    /// The later parts of a long message are held: `more()` says them. Returns what was dropped.
    @discardableResult
    public func stop() -> [PlannedUtterance] {
        let dropped = state.withLock { state -> [Track] in
            let dropped = state.pending
            state.pending = []
            state.laterPartsHeld = true
            state.laterPartsAwait = nil
            state.stops += 1
            if state.current != nil, state.fadeOutFramesLeft == nil {
                state.fadeOutFramesLeft = Int(Self.interruptionFadeSeconds * sampleRateHz)
            }
            return dropped
        }
        return dropped.map(\.plan)   // their audio is freed here, outside the lock the audio thread takes
    }

    /// "More" / "next": goes on with the later parts of a long message — the part being said
    /// ends (faded) and the next starts; held ones ("stop") are released. False when there are none.
    @discardableResult
    public func more() -> Bool {
        state.withLock { state in
            guard !state.laterParts.isEmpty else { return false }
            state.laterPartsHeld = false
            if let current = state.current, state.fadeOutFramesLeft == nil,
               current.plan.utterance.priority <= state.laterParts[0].plan.utterance.priority {
                state.fadeOutFramesLeft = Int(Self.interruptionFadeSeconds * sampleRateHz)
            }
            return true
        }
    }

    /// Nothing playing and nothing queued (the pause after the last utterance may still run:
    /// it is silence, and a program ending need not wait for it).
    public var hasNothingToSay: Bool {
        state.withLock { $0.current == nil && $0.pending.isEmpty && ($0.laterParts.isEmpty || $0.laterPartsHeld) }
    }

    /// Later parts of a long message not yet said.
    public var laterPartCount: Int { state.withLock { $0.laterParts.count } }

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
            state.laterParts.removeAll { track in
                guard !keep(track.plan.utterance) else { return false }
                dropped.append(track)
                return true
            }
            if let first = state.laterPartsAwait, dropped.contains(where: { $0.plan.id == first }) { state.laterPartsAwait = nil }
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

    /// Sounds a continuous tone under everything said, gliding to `pitchHz` over the next block (the
    /// light detector); nil silences it. The tone does not count as something to say (`isIdle`).
    public func setContinuousTone(pitchHz: Double?) {
        state.withLock { state in
            guard let pitchHz else {
                state.continuousTone = nil
                return
            }
            if state.continuousTone == nil { state.continuousTone = ContinuousTone(sampleRateHz: sampleRateHz) }
            state.continuousTonePitchHz = pitchHz
        }
    }

    /// The pitch the continuous tone is gliding to; nil while there is none.
    public var continuousTonePitchHz: Double? {
        state.withLock { $0.continuousTone == nil ? nil : $0.continuousTonePitchHz }
    }

    /// Audio time so far, in seconds.
    public var audioTimeSeconds: Double { state.withLock { Double($0.renderedFrames) / sampleRateHz } }

    /// Nothing playing, nothing queued (later parts held by "stop" do not count), no pause running.
    public var isIdle: Bool {
        state.withLock {
            $0.current == nil && $0.pending.isEmpty && $0.pauseFramesLeft == 0 && ($0.laterParts.isEmpty || $0.laterPartsHeld)
        }
    }

    /// Audio seconds until an utterance of `priority` queued now would start being heard: the rest
    /// of what is being said, what waits ahead of it (the same or a higher priority; the later
    /// parts of a long message only ahead of statuses, as `render` orders them) and the pause
    /// after each. 0 when idle. The live session plans an object announcement from a fresh frame
    /// when this is short, instead of queueing a sentence heard seconds after its frame.
    public func secondsUntilHeard(priority: UtterancePriority) -> Double {
        state.withLock { state in
            let pause = pauseFrames
            var frames = state.pauseFramesLeft
            if let current = state.current {
                frames += (state.fadeOutFramesLeft ?? (current.frameCount - state.positionFrames)) + pause
            }
            for track in state.pending where track.plan.utterance.priority >= priority { frames += track.frameCount + pause }
            if priority < .newObject && !state.laterPartsHeld {
                for track in state.laterParts { frames += track.frameCount + pause }
            }
            return Double(frames) / sampleRateHz
        }
    }

    /// Seconds of silence played because a streamed sentence's next piece came late (a gap heard
    /// inside a sentence; 0 when the voice keeps ahead of the output).
    public var starvedSeconds: Double { state.withLock { Double($0.starvedFrames) / sampleRateHz } }

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
                    // The next part of a long message goes on before answers and statuses queued
                    // after it; a hazard or a new object may be said first.
                    let partFirst = !state.laterParts.isEmpty && !state.laterPartsHeld
                        && (state.laterPartsAwait == nil || state.pending.isEmpty)
                        && (state.pending.first.map { waiting in
                            waiting.plan.utterance.priority != .hazard && waiting.plan.utterance.priority != .newObject
                                && waiting.plan.utterance.priority <= state.laterParts[0].plan.utterance.priority
                        } ?? true)
                    let next: Track
                    if partFirst {
                        next = state.laterParts.removeFirst()
                    } else if !state.pending.isEmpty {
                        next = state.pending.removeFirst()
                        if next.plan.id == state.laterPartsAwait { state.laterPartsAwait = nil }
                    } else {
                        fillSilence(buffer, from: frame, count: frameCount - frame)
                        break
                    }
                    state.current = next
                    state.positionFrames = 0
                    state.lastStarted = next.plan.utterance
                    state.log.append(PlaybackRecord(id: next.plan.id, utterance: next.plan.utterance,
                                                    startFrame: state.renderedFrames + frame, endFrame: nil, wasInterrupted: false))
                    if state.log.count > State.logLength { state.log.removeFirst(state.log.count - State.logLength) }
                }
                guard let current = state.current else { continue }
                let remainingInTrack = current.frameCount - state.positionFrames
                if remainingInTrack == 0 && current.open && state.fadeOutFramesLeft == nil {
                    // The voice is still making the next piece: silence until it comes.
                    fillSilence(buffer, from: frame, count: frameCount - frame)
                    state.starvedFrames += frameCount - frame
                    frame = frameCount
                    continue
                }
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
                let playedAll = state.positionFrames >= current.frameCount
                var finished = playedAll && !current.open
                var interrupted = false
                if let fade = state.fadeOutFramesLeft {
                    state.fadeOutFramesLeft = fade - n
                    // A cut streamed track ends with what it has, even mid-fade.
                    if fade - n <= 0 || (playedAll && current.open) { finished = true; interrupted = true }
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
                    state.pauseFramesLeft = interrupted ? 0 : pauseFrames
                }
            }
            if var tone = state.continuousTone {
                tone.add(into: buffer, frameCount: frameCount, towards: state.continuousTonePitchHz)
                state.continuousTone = tone
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

    /// `utterance` in parts that each fit the length limit, earcon included, most important (the
    /// first phrases) first. Without a voice, or when the voice fails, the utterance stays whole
    /// (the error tone is short).
    func parts(of utterance: Utterance, unless abandoned: () -> Bool = { false }) -> [Utterance] {
        guard let voice, utterance.phrases.count > 0 else { return [utterance] }
        let limit = speechLimitSeconds(for: utterance)
        // A hazard is measured with the voice that will say it (see `TextToSpeech.synthesize(_:urgent:)`).
        let urgent = utterance.priority == .hazard
        func seconds(_ units: ArraySlice<String>) -> Double {
            (try? voice.synthesize(units.joined(separator: " "), urgent: urgent).durationSeconds) ?? 0
        }
        var units = utterance.phrases
        // 200 characters take over 4 s even at the fastest rate (500 words a minute): not worth
        // synthesising whole to find out.
        if utterance.text.count <= 200 && seconds(units[...]) <= limit { return [utterance] }
        // Each unit is synthesised once and parts are packed by the sum of their lengths, which
        // overestimates a little (each synthesis has its own leading and trailing silence): a part
        // is never over the limit, and the cost stays linear in the text, so a long answer does
        // not hold up the session (and an "exit" behind it).
        var lengths: [Double] = []
        // A piece of a word cut in pieces joins the piece before it without a space when both
        // are in one part: the transcript shows "/nonexistent/missing.xml", as it was written.
        var continuesWord = [Bool](repeating: false, count: units.count)
        var index = 0
        while index < units.count {
            guard !abandoned() else { return [utterance] }
            let length = seconds(units[index...index])
            if length > limit {
                let smaller = Self.split(units[index])
                if smaller.count > 1 {
                    let cutWord = !units[index].contains(" ")
                    units.replaceSubrange(index...index, with: smaller)
                    continuesWord.replaceSubrange(index...index,
                                                  with: [continuesWord[index]] + Array(repeating: cutWord, count: smaller.count - 1))
                    continue
                }
            }
            lengths.append(length)
            index += 1
        }
        // Units as packed: a part's phrases are its units, a cut word's pieces written together.
        typealias Unit = (text: String, continuesWord: Bool)
        func phrases(_ group: [Unit]) -> [String] {
            var result: [String] = []
            for unit in group {
                if unit.continuesWord, let last = result.last { result[result.count - 1] = last + unit.text } else { result.append(unit.text) }
            }
            return result
        }
        var groups: [[Unit]] = []
        var current: [Unit] = [], currentSeconds = 0.0
        for ((unit, length), joins) in zip(zip(units, lengths), continuesWord) {
            if !current.isEmpty && currentSeconds + length > limit {
                groups.append(current)
                current = []
                currentSeconds = 0
            }
            current.append((unit, joins))   // one word longer than the limit is still said, alone
            currentSeconds += length
        }
        if !current.isEmpty { groups.append(current) }
        // Joined, units can take longer than their sum (the pause after a full stop or a comma
        // inside a part, digits read as one number): each part is checked whole, as it will be
        // said, and its last unit moves on while it is over.
        var checked = 0
        while checked < groups.count {
            guard !abandoned() else { return [utterance] }
            while groups[checked].count > 1 && seconds(phrases(groups[checked])[...]) > limit {
                let moved = groups[checked].removeLast()
                if checked + 1 < groups.count { groups[checked + 1].insert(moved, at: 0) } else { groups.append([moved]) }
            }
            checked += 1
        }
        return groups.enumerated().map { index, group in
            var part = utterance
            part.phrases = phrases(group)
            // Only the first part carries the tone; later ones continue the same message.
            if index > 0 { part.earcon = nil }
            return part
        }
    }

    /// How long the words of one part may last: the length limit less the earcon before them.
    private func speechLimitSeconds(for utterance: Utterance) -> Double {
        var earconSeconds = 0.0
        if let earcon = utterance.earcon {
            earconSeconds = Double(tones.render(earcon, severity: utterance.severity).count) / sampleRateHz + Self.earconGapSeconds
        }
        // The interaural delay and espeak-ng's leading silence (cut) are a few ms; the limit holds the rest.
        return settings.maximumSpeechSeconds - earconSeconds - 0.02
    }

    /// A phrase too long to say in one part, in smaller pieces: its sentences, else its clauses
    /// (after ; or :, then after ,), else its words. Joined with spaces they give the phrase back.
    /// A single word too long for one part (an address or a path, which the voice spells out for
    /// seconds) is cut after its punctuation ("http://host:port/" "camera." "mjpeg"), else in
    /// halves: no part may run past the limit, and the pieces are still every character of it.
    static func split(_ phrase: String) -> [String] {
        let words = phrase.split(separator: " ", omittingEmptySubsequences: true)
        if words.count == 1, let word = words.first, word.count > 1 {
            var pieces: [String] = [], current = ""
            for character in word {
                current.append(character)
                if !character.isLetter && !character.isNumber { pieces.append(current); current = "" }
            }
            if !current.isEmpty { pieces.append(current) }
            if pieces.count > 1 { return pieces }
            let middle = word.index(word.startIndex, offsetBy: word.count / 2)
            return [String(word[..<middle]), String(word[middle...])]
        }
        let sentences = Utterance.sentences(in: phrase)
        if sentences.count > 1 { return sentences }
        for marks in [";:", ","] {
            var clauses: [String] = []
            var current = ""
            for word in phrase.split(separator: " ", omittingEmptySubsequences: true) {
                current += current.isEmpty ? String(word) : " " + word
                if let last = word.last, marks.contains(last) {
                    clauses.append(current)
                    current = ""
                }
            }
            if !current.isEmpty { clauses.append(current) }
            if clauses.count > 1 { return clauses }
        }
        return phrase.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
    }

    private func makeTrack(id: Int, _ utterance: Utterance) -> Track {
        var speech: [Float] = []
        var failure: SpeechError?
        if !utterance.phrases.isEmpty {
            if let voice {
                do {
                    speech = playable(try voice.synthesize(utterance.phrases.joined(separator: " "), urgent: utterance.priority == .hazard))
                } catch {
                    failure = error
                }
            } else {
                failure = .engineUnavailable
            }
        }
        var mono = opening(utterance, beforeSpeech: !speech.isEmpty || failure != nil)
        if failure != nil {
            mono.append(contentsOf: tones.render(.error, severity: 1))
        } else {
            mono.append(contentsOf: speech)
        }
        let stereo = placement(for: utterance).place(mono, sampleRateHz: sampleRateHz)
        let plan = PlannedUtterance(id: id, utterance: utterance, laterParts: [], speechSeconds: Double(speech.count) / sampleRateHz,
                                    durationSeconds: Double(stereo.count / 2) / sampleRateHz, voiceFailure: failure)
        return Track(plan: plan, samples: stereo)
    }

    /// Synthesised speech as the queue plays it: mono at the output's rate, leading silence cut.
    private func playable(_ audio: SpeechAudio) -> [Float] {
        Self.resample(Self.withoutLeadingSilence(audio.samples).map { Float($0) / 32768 },
                      from: Double(audio.sampleRate), to: sampleRateHz)
    }

    /// One piece of a streamed sentence: playable, with faded edges so that pieces join without a
    /// click (each piece's own trailing silence is the pause between them).
    private func streamedPiece(_ audio: SpeechAudio) -> [Float] {
        var samples = playable(audio)
        let fade = min(Int(Self.pieceFadeSeconds * sampleRateHz), samples.count / 2)
        for i in 0..<fade {
            let gain = Float(i) / Float(fade)
            samples[i] *= gain
            samples[samples.count - 1 - i] *= gain
        }
        return samples
    }

    /// The earcon, and the gap after it when something follows.
    private func opening(_ utterance: Utterance, beforeSpeech: Bool) -> [Float] {
        guard let earcon = utterance.earcon else { return [] }
        var mono = tones.render(earcon, severity: utterance.severity)
        if beforeSpeech { mono.append(contentsOf: repeatElement(0, count: Int(Self.earconGapSeconds * sampleRateHz))) }
        return mono
    }

    private func placement(for utterance: Utterance) -> StereoPlacement {
        placesByDirection ? utterance.directionDegrees.map { StereoPlacement(directionDegrees: $0) } ?? .centre : .centre
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
