import Foundation
import TestSupport
import Media
import Synchronization
import Testing
@testable import Speech

/// Sentences the feedback wrote for the user, kept for the test.
final class ReportedLines: Sendable {
    private let lines = Mutex<[String]>([])
    var all: [String] { lines.withLock { $0 } }
    var report: @Sendable (String) -> Void { { [self] line in lines.withLock { $0.append(line) } } }
}

/// A vibration device that was unplugged.
final class UnpluggedVibration: VibrationOutput {
    func vibrate(_ pattern: VibrationPattern) throws(HapticError) { throw .failed(path: "/dev/input/event9", reason: "No such device") }
}

@Suite("Vibration patterns")
struct VibrationPatternTests {
    @Test("as an obstacle comes closer, the vibration gets more pulses, longer and stronger")
    func growsWithCloseness() {
        let distances = [6.0, 4, 3, 2, 1, 0.5]
        let patterns = distances.map { VibrationPattern.obstacle(distanceMeters: $0) }
        for (far, near) in zip(patterns, patterns.dropFirst()) {
            #expect(near.pulseCount >= far.pulseCount)
            #expect(near.strength > far.strength || near.strength == 1)
            #expect(near.pulseSeconds >= far.pulseSeconds)
        }
        #expect(patterns.first!.pulseCount == 1 && patterns.last!.pulseCount == 4)
        #expect(patterns.last!.strength == 1)
    }

    @Test("without a vibration device, no force-feedback device is found and opening one by path says why")
    func noDeviceHere() {
        let folder = TemporaryFolder.path("input")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(ForceFeedbackVibration.findDevice(in: folder.path) == nil)
        #expect(throws: HapticError.cannotOpen(path: "/nonexistent/event0", reason: "No such file or directory")) {
            try ForceFeedbackVibration(path: "/nonexistent/event0")
        }
        // A regular file is no input device: the rumble query fails and it is refused.
        let file = folder.appendingPathComponent("event0")
        FileManager.default.createFile(atPath: file.path, contents: Data())
        #expect(throws: HapticError.noRumble(path: file.path)) { try ForceFeedbackVibration(path: file.path) }
    }
}

@Suite("The user's voice and vibration choices, applied while speaking")
struct FeedbackChoicesTests {
    @Test("vibration turned off by the user vibrates nothing, says nothing about a missing device, and plays the cue instead")
    func vibrationOff() throws {
        let vibration = RecordingVibration()
        let lines = ReportedLines()
        let feedback = Feedback(queue: UtteranceQueue(voice: try SpeechSynthesizer()), vibration: vibration, report: lines.report)
        feedback.apply(voice: nil, haptics: HapticPreferences(enabled: false, strength: 1))
        let outcome = feedback.say(Utterance("Chair ahead.", priority: .hazard), vibrating: .obstacle(distanceMeters: 1))
        #expect(vibration.patterns.isEmpty)
        #expect(lines.all.isEmpty)
        guard case .queued(let plan) = outcome else { Issue.record("not queued: \(outcome)"); return }
        #expect(plan.utterance.earcon == .obstacleHazard)
    }

    @Test("a weaker vibration strength scales every pattern's strength, never below a quarter")
    func strength() {
        let pattern = VibrationPattern.obstacle(distanceMeters: 0.5)
        #expect(HapticPreferences(strength: 1).scaled(pattern) == pattern)
        #expect(HapticPreferences(strength: 0).scaled(pattern).strength == pattern.strength * 0.25)
        #expect(HapticPreferences(strength: 0.5).scaled(pattern).pulseCount == pattern.pulseCount)
    }

    @Test("a new rate applies to the next sentence: the same words are shorter at 300 than at 150 words per minute")
    func rate() throws {
        let queue = UtteranceQueue(voice: try SpeechSynthesizer(settings: SpeechVoiceSettings(wordsPerMinute: 150)))
        let feedback = Feedback(queue: queue, vibration: nil, report: { _ in })
        let slow = queue.enqueue(Utterance("The bus stop is ten meters ahead.", priority: .status, contentKey: "a"))
        feedback.apply(voice: SpeechVoiceSettings(wordsPerMinute: 300), haptics: nil)
        let fast = queue.enqueue(Utterance("The bus stop is ten meters ahead.", priority: .status, contentKey: "b"))
        guard case .queued(let before) = slow, case .queued(let after) = fast else {
            Issue.record("not queued: \(slow), \(fast)")
            return
        }
        #expect(after.speechSeconds < before.speechSeconds * 0.7)
    }
}

@Suite("Feedback: speech, tones and vibration together, and what happens when parts are missing", .serialized)
struct FeedbackTests {
    @Test("a hazard vibrates with the pattern for its distance where a vibration device exists")
    func vibrates() throws {
        let vibration = RecordingVibration()
        let lines = ReportedLines()
        let feedback = Feedback(queue: UtteranceQueue(voice: try SpeechSynthesizer()), vibration: vibration, report: lines.report)
        feedback.say(Utterance("Pole, 1 meter, ahead.", priority: .hazard), vibrating: .obstacle(distanceMeters: 1))
        #expect(vibration.patterns == [.obstacle(distanceMeters: 1)])
        #expect(lines.all.isEmpty)
    }

    @Test("without a vibration device the user hears once that haptic feedback is not available, and a tone stands in")
    func noVibration() throws {
        let lines = ReportedLines()
        let queue = UtteranceQueue(voice: try SpeechSynthesizer())
        let feedback = Feedback(queue: queue, vibration: nil, report: lines.report)
        feedback.say(Utterance("Pole, 1 meter, ahead.", priority: .hazard), vibrating: .obstacle(distanceMeters: 1))
        feedback.say(Utterance("Pole, 1 meter, left.", priority: .hazard), vibrating: .obstacle(distanceMeters: 1))
        try queue.renderUntilIdle(to: NullAudioOutput())
        #expect(lines.all == ["Haptic feedback is not available on this device."])
        let heard = queue.playbackLog.map(\.utterance)
        #expect(heard.filter { $0.text == "Haptic feedback is not available on this device." }.count == 1)
        #expect(heard.filter { $0.priority == .hazard }.allSatisfy { $0.earcon == .obstacleHazard })
    }

    @Test("a vibration device that disappears is reported once and replaced by tones")
    func vibrationDisappears() throws {
        let lines = ReportedLines()
        let feedback = Feedback(queue: UtteranceQueue(voice: try SpeechSynthesizer()), vibration: UnpluggedVibration(), report: lines.report)
        #expect(!feedback.vibrate(.alert))
        #expect(!feedback.vibrate(.alert))
        #expect(lines.all == ["Haptic feedback is not available on this device."])
    }

    @Test("when the voice fails the error tone plays, one alert vibration is felt, and the text is on standard error")
    func voiceFails() throws {
        let lines = ReportedLines()
        let vibration = RecordingVibration()
        let queue = UtteranceQueue(voice: BrokenVoice())
        let feedback = Feedback(queue: queue, vibration: vibration, report: lines.report)
        feedback.say(Utterance("Bus, 4 meters, ahead.", priority: .newObject))
        #expect(vibration.patterns == [.alert])
        #expect(lines.all == ["Voice response failed for “Bus, 4 meters, ahead.”: speech engine error 1."])
        let recorder = RecordingAudioOutput()
        try queue.renderUntilIdle(to: recorder)
        #expect(Rendered.energy(recorder.samples, channel: 0) > 1)   // the error tone was heard
    }
}

/// A sound card that can be unplugged and plugged back in.
final class UnpluggableDevice: PlaybackDevice, @unchecked Sendable {
    let name = "USB headset"
    let outputLatencySeconds = 0.0
    var pluggedIn = true
    var render: (@Sendable (UnsafeMutablePointer<Float>, Int, Int) -> Void)?
    var starts = 0

    func start(sampleRateHz: Double, render: @escaping @Sendable (UnsafeMutablePointer<Float>, Int, Int) -> Void) throws {
        guard pluggedIn else { throw AudioDeviceError.noOutputDevice }
        self.render = render
        starts += 1
    }
    var isPlaying: Bool { pluggedIn && render != nil }
    func stop() { render = nil }

    /// Pulls one buffer as the device's callback would; nil while not playing.
    func pull(frames: Int = 512) -> [Float]? {
        guard isPlaying, let render else { return nil }
        var buffer = [Float](repeating: 0, count: frames * 2)
        buffer.withUnsafeMutableBufferPointer { render($0.baseAddress!, frames, 2) }
        return buffer
    }
}

@Suite("Playing on a device that comes and goes", .serialized)
struct SpeakerOutputTests {
    @Test("the device disappearing mid-sentence is reported by vibration and a sentence; speech resumes when it is back")
    func deviceComesBack() throws {
        let device = UnpluggableDevice()
        let lines = ReportedLines()
        let vibration = RecordingVibration()
        let queue = UtteranceQueue(voice: try SpeechSynthesizer())
        let feedback = Feedback(queue: queue, vibration: vibration, report: lines.report)
        let speaker = SpeakerOutput(queue: queue, device: device, feedback: feedback, retrySeconds: 2)
        try speaker.start()
        feedback.say(Utterance("Person, 2 meters, slightly left, walking towards you.", priority: .newObject))
        let start = Date()
        // espeak-ng starts with about 50 ms of silence: listen for 0.2 s.
        #expect((0..<9).flatMap { _ in device.pull() ?? [] }.contains { $0 != 0 })

        device.pluggedIn = false
        speaker.check(now: start.addingTimeInterval(0.25))
        #expect(lines.all == ["The audio device USB headset stopped; speech will resume when a device is back."])
        #expect(vibration.patterns == [.alert])
        speaker.check(now: start.addingTimeInterval(2.5))   // tried again, still gone: nothing more said
        #expect(lines.all.count == 1 && device.starts == 1)
        // The sentence that was cut off is not saved up for later: its time passed.
        #expect(queue.audioTimeSeconds >= 2)

        device.pluggedIn = true
        speaker.check(now: start.addingTimeInterval(3))   // less than 2 s since the last try
        #expect(device.starts == 1)
        speaker.check(now: start.addingTimeInterval(4.6))
        #expect(device.starts == 2)
        #expect(lines.all.last == "The audio device USB headset is back; speech resumes.")
        feedback.say(Utterance("Chair, 3 meters, right.", priority: .newObject))
        var heard: [Float] = []
        for _ in 0..<10 { heard += device.pull() ?? [] }
        #expect(heard.contains { $0 != 0 })
        #expect(queue.playbackLog.last?.utterance.text == "Chair, 3 meters, right.")
    }

    @Test("a mono device gets both channels mixed")
    func monoDevice() throws {
        let queue = UtteranceQueue(voice: try SpeechSynthesizer())
        queue.enqueue(Utterance("Left.", priority: .answer, directionDegrees: -90))
        let render = SpeakerOutput.renderer(for: queue)
        var mono = [Float](repeating: 0, count: 8192)
        mono.withUnsafeMutableBufferPointer { render($0.baseAddress!, 8192, 1) }
        #expect(mono.contains { $0 != 0 })
    }
}

@Suite("Bad input to the speech output")
struct SpeechBadInputTests {
    @Test("an unwritable WAV path is refused with a sentence naming it")
    func unwritable() throws {
        #expect(throws: AudioFileError.self) {
            try WAVFileOutput(url: URL(fileURLWithPath: "/nonexistent/folder/out.wav"), sampleRateHz: 22050)
        }
        do { _ = try WAVFileOutput(url: URL(fileURLWithPath: "/nonexistent/folder/out.wav"), sampleRateHz: 22050) } catch {
            #expect((error as? AudioFileError)?.userMessage.hasPrefix("The audio file /nonexistent/folder/out.wav could not be written") == true)
        }
    }

    @Test("an utterance of 10 000 characters in one phrase is said whole; in many phrases it is cut to 3 s by phrases")
    func tenThousandCharacters() throws {
        let queue = UtteranceQueue(voice: try SpeechSynthesizer(settings: SpeechVoiceSettings(wordsPerMinute: 500)))
        let phrases = Array(repeating: "Person ahead.", count: 714)   // 714 × 14 ≈ 10 000 characters
        #expect(phrases.joined(separator: " ").count >= 9_990)
        guard case .queued(let plan) = queue.enqueue(Utterance(phrases, priority: .answer)) else { Issue.record("not queued"); return }
        #expect(plan.speechSeconds <= 3 && plan.utterance.phrases.count >= 3)
        #expect(plan.voiceFailure == nil)
    }

    @Test("an utterance with no words and no tone plays nothing")
    func emptyUtterance() throws {
        let queue = UtteranceQueue(voice: try SpeechSynthesizer())
        guard case .queued(let plan) = queue.enqueue(Utterance("   ", priority: .answer)) else { Issue.record("not queued"); return }
        #expect(plan.durationSeconds == 0 && plan.voiceFailure == nil)
        let recorder = RecordingAudioOutput()
        try queue.renderUntilIdle(to: recorder)
        #expect(recorder.samples.allSatisfy { $0 == 0 })
    }
}
