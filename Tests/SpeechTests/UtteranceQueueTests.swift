import Foundation
import TestSupport
import Media
import Testing
@testable import Speech

/// Helpers on rendered stereo audio.
enum Rendered {
    static func energy(_ stereo: [Float], channel: Int) -> Double {
        stride(from: channel, to: stereo.count, by: 2).reduce(0) { $0 + Double(stereo[$1] * stereo[$1]) }
    }

    /// First and last frame whose either channel exceeds `threshold`.
    static func audibleFrames(_ stereo: [Float], threshold: Float = 0.01) -> ClosedRange<Int>? {
        let frames = stereo.count / 2
        guard let first = (0..<frames).first(where: { abs(stereo[$0 * 2]) > threshold || abs(stereo[$0 * 2 + 1]) > threshold }),
              let last = (0..<frames).last(where: { abs(stereo[$0 * 2]) > threshold || abs(stereo[$0 * 2 + 1]) > threshold })
        else { return nil }
        return first...last
    }

    /// The queue's track for `utterance` alone, as it is heard with nothing else queued.
    static func solo(_ utterance: Utterance, voice: any TextToSpeech, settings: UtteranceQueueSettings = UtteranceQueueSettings()) throws -> [Float] {
        let queue = UtteranceQueue(voice: voice, settings: settings)
        let recorder = RecordingAudioOutput()
        queue.enqueue(utterance)
        try queue.renderUntilIdle(to: recorder)
        let record = try #require(queue.playbackLog.first)
        return Array(recorder.samples[(record.startFrame * 2)..<(try #require(record.endFrame) * 2)])
    }
}

/// A voice that gives the same samples for the same text every time (espeak-ng does not: its
/// pitch flutter runs on from one call to the next), so rendered spans can be compared exactly:
/// a tone whose pitch depends on the text, 40 ms per character.
struct ExactVoice: TextToSpeech {
    var sampleRate: Int { 22050 }
    func synthesize(_ text: String) throws(SpeechError) -> SpeechAudio {
        let hz = 200 + Double(text.unicodeScalars.reduce(0) { ($0 &* 31 &+ Int($1.value)) % 1000 })
        let count = text.count * 882
        return SpeechAudio(samples: (0..<count).map { Int16(12000 * sin(2 * Double.pi * hz * Double($0) / 22050)) }, sampleRate: 22050)
    }
}

/// A voice that always fails, as espeak-ng would with a broken data folder.
struct BrokenVoice: TextToSpeech {
    var sampleRate: Int { 22050 }
    func synthesize(_ text: String) throws(SpeechError) -> SpeechAudio { throw .synthesisFailed(code: 1) }
}

@Suite("The utterance queue, heard in audio time", .serialized)
struct UtteranceQueueTests {
    let voice: SpeechSynthesizer
    init() throws { voice = try SpeechSynthesizer() }

    @Test("spoken words rendered to a WAV are audible and last as long as the queue planned")
    func durationMatchesPlan() throws {
        let queue = UtteranceQueue(voice: voice)
        guard case .queued(let plan) = queue.enqueue(Utterance("Bus, 4 meters, ahead.", priority: .newObject)) else {
            Issue.record("the utterance was not queued"); return
        }
        let url = TemporaryFolder.path("queue.wav")
        defer { try? FileManager.default.removeItem(at: url) }
        let file = try WAVFileOutput(url: url, sampleRateHz: queue.sampleRateHz)
        try queue.renderUntilIdle(to: file, blockFrames: 256)
        file.close()

        let wav = try AudioFile.read(url)
        #expect(wav.channelCount == 2 && wav.sampleRate == 22050)
        // The file holds the planned sound, then the pause, rounded up to whole blocks. Counted
        // in frames: the pause is whole frames (3 307 for 0.15 s), and comparing seconds failed
        // in about one run in 256: whenever sound and pause filled the last block exactly.
        let plannedFrames = Int((plan.durationSeconds * queue.sampleRateHz).rounded()) + queue.pauseFrames
        let wavFrames = wav.samples.count / 2
        #expect(wavFrames >= plannedFrames && wavFrames < plannedFrames + 256,
                "\(wavFrames) frames in the file against \(plannedFrames) planned")
        let audible = try #require(Rendered.audibleFrames(wav.samples))
        // espeak-ng leaves only a few tens of milliseconds of silence around the words.
        let audibleSeconds = Double(audible.count) / 22050
        #expect(audibleSeconds > plan.durationSeconds - 0.25 && audibleSeconds <= plan.durationSeconds)
        let peak = wav.samples.map { abs($0) }.max() ?? 0
        #expect(peak > 0.1)
    }

    @Test("two queued utterances are heard one after the other, never both at once")
    func noOverlap() throws {
        let first = Utterance("Person, 2 meters, slightly left.", priority: .newObject, directionDegrees: -20)
        let second = Utterance("Chair, 3 meters, right.", priority: .newObject, directionDegrees: 40)
        let exact = ExactVoice()
        let queue = UtteranceQueue(voice: exact)
        let recorder = RecordingAudioOutput()
        queue.enqueue(first)
        queue.enqueue(second)
        try queue.renderUntilIdle(to: recorder)
        let output = recorder.samples

        let log = queue.playbackLog
        #expect(log.count == 2)
        let a = log[0], b = log[1]
        let aEnd = try #require(a.endFrame), bEnd = try #require(b.endFrame)
        #expect(aEnd <= b.startFrame)
        // Each span is exactly that utterance alone (a sum of both would differ), and the gap is silent.
        let firstAlone = Array(output[(a.startFrame * 2)..<(aEnd * 2)]) == (try Rendered.solo(first, voice: exact))
        let secondAlone = Array(output[(b.startFrame * 2)..<(bEnd * 2)]) == (try Rendered.solo(second, voice: exact))
        #expect(firstAlone && secondAlone)
        #expect(output[(aEnd * 2)..<(b.startFrame * 2)].allSatisfy { $0 == 0 })
    }

    @Test("a hazard queued during a status message starts within 100 ms of audio time, cutting the status off")
    func hazardInterrupts() throws {
        let exact = ExactVoice()
        let queue = UtteranceQueue(voice: exact)
        let recorder = RecordingAudioOutput()
        queue.enqueue(Utterance("Walking mode is on. Battery at 80 percent.", priority: .status))
        for _ in 0..<40 { try recorder.consume(queue.renderBlock(frameCount: 256)) }   // 0.46 s into the status
        let enqueuedAtFrame = 40 * 256
        let hazard = Utterance("Car, 3 meters, left.", priority: .hazard, directionDegrees: -30, earcon: .vehicleHazard, severity: 1)
        queue.enqueue(hazard)
        try queue.renderUntilIdle(to: recorder)

        let log = queue.playbackLog
        #expect(log.map(\.utterance.priority) == [.status, .hazard])
        #expect(log[0].wasInterrupted)
        let hazardStart = log[1].startFrame
        #expect(Double(hazardStart - enqueuedAtFrame) / 22050 <= 0.1)
        // What is heard from that frame on is the hazard itself.
        let solo = try Rendered.solo(hazard, voice: exact)
        let output = recorder.samples
        let heardIsHazard = Array(output[(hazardStart * 2)..<(hazardStart * 2 + solo.count)]) == solo
        #expect(heardIsHazard)
        // And the status was still audible right before the hazard cut in.
        #expect(output[((enqueuedAtFrame - 64) * 2)..<(enqueuedAtFrame * 2)].contains { $0 != 0 })
    }

    @Test("a hazard queued in the pause after a message starts at once, not after the pause")
    func hazardSkipsPause() throws {
        let queue = UtteranceQueue(voice: ExactVoice(), settings: UtteranceQueueSettings(pauseSeconds: 0.5))
        queue.enqueue(Utterance("Battery low.", priority: .status))
        while queue.playbackLog.first?.endFrame == nil { _ = queue.renderBlock(frameCount: 256) }
        let enqueuedAtFrame = Int(queue.audioTimeSeconds * 22050)
        queue.enqueue(Utterance("Step down.", priority: .hazard))
        try queue.renderUntilIdle(to: NullAudioOutput())
        #expect(queue.playbackLog[1].startFrame - enqueuedAtFrame == 0)
    }

    @Test("a lower-priority message does not interrupt, and a waiting answer is said before a waiting status")
    func priorityOrder() throws {
        let queue = UtteranceQueue(voice: voice)
        queue.enqueue(Utterance("Bench, 5 meters, right.", priority: .newObject))
        _ = queue.renderBlock(frameCount: 256)
        queue.enqueue(Utterance("Battery at 80 percent.", priority: .status))
        queue.enqueue(Utterance("Door, 4 meters, ahead.", priority: .answer))
        try queue.renderUntilIdle(to: NullAudioOutput())
        #expect(queue.playbackLog.map(\.utterance.priority) == [.newObject, .answer, .status])
        #expect(!queue.playbackLog[0].wasInterrupted)
    }

    @Test("stop silences speech within 100 ms and drops what was waiting")
    func stopSilences() throws {
        let queue = UtteranceQueue(voice: voice)
        let recorder = RecordingAudioOutput()
        queue.enqueue(Utterance("Person, 2 meters, slightly left, walking towards you.", priority: .newObject))
        queue.enqueue(Utterance("Chair, 3 meters, right.", priority: .newObject))
        for _ in 0..<20 { try recorder.consume(queue.renderBlock(frameCount: 256)) }
        queue.stop()
        for _ in 0..<20 { try recorder.consume(queue.renderBlock(frameCount: 256)) }
        let afterStop = Array(recorder.samples[(20 * 256 * 2)...])
        let silentFrom = afterStop.count / 2 - (0..<(afterStop.count / 2)).reversed().prefix { afterStop[$0 * 2] == 0 && afterStop[$0 * 2 + 1] == 0 }.count
        #expect(Double(silentFrom) / 22050 <= 0.1)
        #expect(queue.isIdle && queue.playbackLog.count == 1)
    }

    @Test("dropping the waiting backlog lets the current sentence finish whole and keeps what is asked to be kept")
    func dropWaitingKeepsCurrent() throws {
        let queue = UtteranceQueue(voice: voice)
        queue.enqueue(Utterance("Person, 2 meters, slightly left.", priority: .newObject))
        _ = queue.renderBlock(frameCount: 256)   // the person is being said
        queue.enqueue(Utterance("Chair, 3 meters, right.", priority: .newObject))
        queue.enqueue(Utterance("Scene navigation on.", priority: .answer))
        queue.enqueue(Utterance("Bench, 5 meters, ahead.", priority: .newObject))
        let dropped = queue.dropWaiting { $0.priority == .answer }
        #expect(Set(dropped.map(\.utterance.text)) == ["Chair, 3 meters, right.", "Bench, 5 meters, ahead."])
        try queue.renderUntilIdle(to: NullAudioOutput())
        let log = queue.playbackLog
        #expect(log.map(\.utterance.text) == ["Person, 2 meters, slightly left.", "Scene navigation on."])
        #expect(log.allSatisfy { !$0.wasInterrupted })
    }

    @Test("seconds until heard: the rest of what is said, what waits ahead at the same or a higher priority, and the pauses; a status waiting behind does not count")
    func secondsUntilHeard() throws {
        let settings = UtteranceQueueSettings(pauseSeconds: 0.1)
        let queue = UtteranceQueue(voice: ExactVoice(), settings: settings)   // 40 ms a character
        #expect(queue.secondsUntilHeard(priority: .newObject) == 0)
        let person = "Person, 2 meters."                                   // 17 characters: 0.68 s
        guard case .queued(let said) = queue.enqueue(Utterance(person, priority: .newObject)) else {
            Issue.record("not queued"); return
        }
        _ = queue.renderBlock(frameCount: 2205)                            // 0.1 s of it heard
        queue.enqueue(Utterance("No object detected.", priority: .status))
        let rest = said.durationSeconds - 0.1 + 0.1                        // its rest and the pause after it
        #expect(abs(queue.secondsUntilHeard(priority: .newObject) - rest) < 0.001)
        #expect(queue.secondsUntilHeard(priority: .status) > rest + 0.7)
        guard case .queued(let chair) = queue.enqueue(Utterance("Chair, 3 meters.", priority: .newObject)) else {
            Issue.record("not queued"); return
        }
        #expect(abs(queue.secondsUntilHeard(priority: .newObject) - (rest + chair.durationSeconds + 0.1)) < 0.001)
        try queue.renderUntilIdle(to: NullAudioOutput())
        #expect(queue.secondsUntilHeard(priority: .status) == 0)
    }

    @Test("repeat says the last utterance again, even within the cooldown")
    func repeatLast() throws {
        let queue = UtteranceQueue(voice: voice)
        #expect(queue.repeatLast() == nil)
        queue.enqueue(Utterance("Bus, 4 meters, ahead.", priority: .newObject))
        try queue.renderUntilIdle(to: NullAudioOutput())
        #expect(queue.enqueue(Utterance("Bus, 4 meters, ahead.", priority: .newObject)) == .suppressedAsRepeat)
        guard case .queued(let plan) = queue.repeatLast() else { Issue.record("repeat was not queued"); return }
        #expect(plan.utterance.text == "Bus, 4 meters, ahead." && plan.utterance.priority == .answer)
        try queue.renderUntilIdle(to: NullAudioOutput())
        #expect(queue.playbackLog.map(\.utterance.text) == ["Bus, 4 meters, ahead.", "Bus, 4 meters, ahead."])
    }

    @Test("identical content is held back within the cooldown, and said again when the object came closer, came back into view, or the cooldown passed")
    func repetitionSuppression() throws {
        let queue = UtteranceQueue(voice: voice, settings: UtteranceQueueSettings(cooldownSeconds: 10))
        func car(_ meters: Int, band: Int) -> Utterance {
            Utterance("Car, \(meters) meters, left.", priority: .hazard, contentKey: "car#7", distanceBand: band)
        }
        #expect(queue.enqueue(car(8, band: 2)) != .suppressedAsRepeat)
        try queue.renderUntilIdle(to: NullAudioOutput())
        #expect(queue.enqueue(car(8, band: 2)) == .suppressedAsRepeat)
        #expect(queue.enqueue(car(7, band: 2)) == .suppressedAsRepeat)   // same band: not more urgent
        #expect(queue.enqueue(car(4, band: 1)) != .suppressedAsRepeat)   // crossed into a closer band
        try queue.renderUntilIdle(to: NullAudioOutput())
        #expect(queue.enqueue(car(4, band: 1)) == .suppressedAsRepeat)
        queue.objectLeftView(contentKey: "car#7")
        #expect(queue.enqueue(car(4, band: 1)) != .suppressedAsRepeat)   // left the view and came back
        try queue.renderUntilIdle(to: NullAudioOutput())
        #expect(queue.enqueue(car(4, band: 1)) == .suppressedAsRepeat)
        let start = queue.audioTimeSeconds
        while queue.audioTimeSeconds - start < 10 { _ = queue.renderBlock(frameCount: 2048) }
        #expect(queue.enqueue(car(4, band: 1)) != .suppressedAsRepeat)   // the cooldown passed
    }

    @Test("a message longer than 3 s is said in parts of at most 3 s, in order, none left out, never part of a word")
    func parts() throws {
        let phrases = ["Car, 3 meters, left.", "Person, 2 meters, slightly right.", "Bench, 5 meters, ahead.",
                       "Bicycle, 6 meters, right.", "Door, 8 meters, slightly left.", "Tree, 9 meters, far right."]
        let queue = UtteranceQueue(voice: voice)
        guard case .queued(let plan) = queue.enqueue(Utterance(phrases, priority: .answer, earcon: .started)) else {
            Issue.record("not queued"); return
        }
        let all = [plan] + plan.laterParts
        #expect(all.count > 1)
        #expect(all.flatMap(\.utterance.phrases) == phrases, "every phrase, in order, whole")
        #expect(all.allSatisfy { $0.durationSeconds <= 3 }, "\(all.map(\.durationSeconds))")
        #expect(all.dropFirst().allSatisfy { $0.utterance.earcon == nil }, "only the first part has the tone")
        // Heard one after the other, each part as planned.
        let recorder = RecordingAudioOutput()
        try queue.renderUntilIdle(to: recorder)
        #expect(queue.playbackLog.map(\.id) == all.map(\.id))
        let lengths = queue.playbackLog.map { Double($0.endFrame! - $0.startFrame) / queue.sampleRateHz }
        #expect(lengths.allSatisfy { $0 <= 3 }, "\(lengths)")

        // One long phrase is split at its sentences, then clauses, then words.
        let long = "Caution, there is a construction site with a deep trench and a barrier across the whole pavement ahead of you, so keep to the right and wait for the signal before you cross the road."
        guard case .queued(let single) = queue.enqueue(Utterance(long, priority: .hazard)) else { Issue.record("not queued"); return }
        let pieces = [single] + single.laterParts
        #expect(pieces.count > 1)
        #expect(pieces.flatMap(\.utterance.phrases).joined(separator: " ") == long)
        #expect(pieces.allSatisfy { $0.durationSeconds <= 3 }, "\(pieces.map(\.durationSeconds))")

        // Running text of long sentences (the tutorial): split inside sentences, parts checked
        // whole, since the pause after a full stop makes a joined part longer than its pieces.
        let tutorial = "Welcome to Assistive Vision. I describe what the camera sees and warn you about obstacles and traffic. In continuous mode I tell you about new objects and anything that comes closer. Vehicles sound a warning tone. Say scan now at any time for a full description of what is in front of you."
        guard case .queued(let first) = queue.enqueue(Utterance(tutorial, priority: .answer)) else { Issue.record("not queued"); return }
        let tutorialParts = [first] + first.laterParts
        #expect(tutorialParts.flatMap(\.utterance.phrases).joined(separator: " ") == tutorial)
        #expect(tutorialParts.allSatisfy { $0.durationSeconds <= 3 }, "\(tutorialParts.map(\.durationSeconds))")

        // A word the voice spells out for seconds (a stream's address in a start-up failure) is
        // cut after its punctuation, else in halves: still no part over 3 s, no character lost.
        let address = "http://127.0.0.1:34433/camera.mjpeg"
        let failure = "Assistive Vision could not start: The video stream at \(address) could not be reached."
        guard case .queued(let opening) = queue.enqueue(Utterance(failure, priority: .answer)) else { Issue.record("not queued"); return }
        let failureParts = [opening] + opening.laterParts
        #expect(failureParts.allSatisfy { $0.durationSeconds <= 3 }, "\(failureParts.map(\.durationSeconds))")
        #expect(failureParts.flatMap(\.utterance.phrases).joined().filter { $0 != " " } == failure.filter { $0 != " " })
        // Within a part, the pieces of the address are written together, as the address is.
        #expect(failureParts.allSatisfy { part in
            part.utterance.text.split(separator: " ").allSatisfy { failure.split(separator: " ").contains($0) || address.contains($0) }
        }, "\(failureParts.map(\.utterance.text))")
        let digits = String(repeating: "7", count: 80)
        guard case .queued(let number) = queue.enqueue(Utterance(digits, priority: .answer)) else { Issue.record("not queued"); return }
        let numberParts = [number] + number.laterParts
        #expect(numberParts.allSatisfy { $0.durationSeconds <= 3 }, "\(numberParts.map(\.durationSeconds))")
        #expect(numberParts.flatMap(\.utterance.phrases).joined() == digits)
    }

    @Test("between the parts of a long answer a new object is said first; stop holds the rest, more goes on, repeat says the last part again")
    func partsAreInterruptible() throws {
        let queue = UtteranceQueue(voice: voice, settings: UtteranceQueueSettings(pauseSeconds: 0.1))
        let help = (1...12).map { "Say command number \($0) to do thing number \($0)." }
        guard case .queued(let plan) = queue.enqueue(Utterance(help, priority: .answer)) else { Issue.record("not queued"); return }
        #expect(plan.laterParts.count >= 2)
        // While the first part plays, a new object comes: it is heard before the second part.
        _ = queue.renderBlock(frameCount: 2048)
        _ = queue.enqueue(Utterance("Chair, 2 meters, left.", priority: .newObject))
        while queue.playbackLog.count < 3 { _ = queue.renderBlock(frameCount: 1024) }
        let order = queue.playbackLog.map(\.utterance.text)
        #expect(order[0] == plan.utterance.text)
        #expect(order[1] == "Chair, 2 meters, left.")
        #expect(order[2] == plan.laterParts[0].utterance.text)
        // Stop: silence within 5 ms of audio time, and the rest waits.
        queue.stop()
        let stopFrame = Int(queue.audioTimeSeconds * queue.sampleRateHz)
        let after = queue.renderBlock(frameCount: 4096)
        let fadeFrames = Int(0.006 * queue.sampleRateHz)
        #expect(after.samples[(fadeFrames * 2)...].allSatisfy { $0 == 0 })
        #expect(queue.isIdle)
        #expect(queue.playbackLog.last!.endFrame! <= stopFrame + fadeFrames)
        let remaining = queue.laterPartCount
        #expect(remaining == plan.laterParts.count - 1)
        // More: the next part.
        #expect(queue.more())
        _ = queue.renderBlock(frameCount: 1024)
        #expect(queue.playbackLog.last?.utterance.text == plan.laterParts[1].utterance.text)
        // Repeat: that part again.
        #expect(queue.repeatLast() != nil)
        try queue.renderUntilIdle(to: NullAudioOutput())
        let texts = queue.playbackLog.map(\.utterance.text)
        #expect(texts.filter { $0 == plan.laterParts[1].utterance.text }.count == 2)
        // Once everything was said, more has nothing left.
        #expect(!queue.more())
    }

    @Test("when the voice fails, the error tone is heard instead and the failure is reported")
    func voiceFailure() throws {
        let queue = UtteranceQueue(voice: BrokenVoice())
        guard case .queued(let plan) = queue.enqueue(Utterance("Bus, 4 meters, ahead.", priority: .newObject)) else {
            Issue.record("not queued"); return
        }
        #expect(plan.voiceFailure == .synthesisFailed(code: 1))
        let recorder = RecordingAudioOutput()
        try queue.renderUntilIdle(to: recorder)
        let errorTone = ToneSynthesizer(sampleRateHz: 22050).render(.error, severity: 1)
        let heard = recorder.samples
        let heardErrorTone = stride(from: 0, to: errorTone.count * 2, by: 2).map { heard[$0] } == errorTone.map { $0 * Float(StereoPlacement.centre.leftGain) }
        #expect(heardErrorTone)
    }

    @Test("speech about an object at −40° has more energy in the left channel, and none of that with spatial audio off")
    func panning() throws {
        let utterance = Utterance("Chair, 2 meters, left.", priority: .newObject, directionDegrees: -40)
        let spatial = try Rendered.solo(utterance, voice: voice)
        let left = Rendered.energy(spatial, channel: 0), right = Rendered.energy(spatial, channel: 1)
        #expect(left > right * 3)
        let mono = try Rendered.solo(utterance, voice: voice, settings: UtteranceQueueSettings(spatialAudio: false))
        #expect(Rendered.energy(mono, channel: 0) == Rendered.energy(mono, channel: 1))
    }
}

@Suite("The queue's memory")
struct UtteranceQueueMemoryTests {
    @Test("the audio of finished utterances is kept for a control thread to free, and freed there")
    func finishedTracksAreReleasedOffTheAudioThread() throws {
        let queue = UtteranceQueue(voice: ExactVoice(), settings: UtteranceQueueSettings(cooldownSeconds: 0))
        for number in 0..<3 { queue.enqueue(Utterance("Step \(number).", priority: .status)) }
        try queue.renderUntilIdle(to: NullAudioOutput())
        #expect(queue.playbackLog.count == 3)
        #expect(queue.finishedTrackCount == 3)   // rendering freed nothing itself
        queue.releaseFinishedTracks()
        #expect(queue.finishedTrackCount == 0)
    }
}
