import Foundation
import TestSupport
import Hearing
import LiveHearing
import Prescription
import Speech
import Synchronization
import Testing

/// What a live session said and showed, in order.
final class Transcript: Sendable {
    private let lines = Mutex<[String]>([])
    private let spoken = Mutex<[String]>([])
    var said: [String] { spoken.withLock { $0 } }
    var shown: [String] { lines.withLock { $0 } }
    var say: @Sendable (String) -> Void { { [self] text in spoken.withLock { $0.append(text) } } }
    var show: @Sendable (String) -> Void { { [self] text in lines.withLock { $0.append(text) } } }
}

@Suite("A live hearing session: what is said, what changes while listening")
struct LiveHearingSessionTests {
    static let audiologist = PrescriptionDocument.Audiologist(name: "Dr. Ana Ruiz", identifier: "AUD-12345")
    static let issued = Date(timeIntervalSince1970: 1_793_525_400)

    static func audiogram() throws -> Audiogram {
        Audiogram(left: try EarAudiogram(ear: .left, thresholdsHL: [250: 20, 500: 30, 1000: 40, 2000: 55, 4000: 70]),
                  right: try EarAudiogram(ear: .right, thresholdsHL: [250: 25, 500: 30, 1000: 45, 2000: 60, 4000: 70]))
    }

    static func document(kind: PrescriptionDocument.Kind = .fitting, expires: Date? = nil) throws -> PrescriptionDocument {
        try PrescriptionDocument(kind: kind, patient: .init(name: "Margarethe Quellenhof", reference: "P-0042", birthYear: 1948),
                                 audiologist: audiologist, issued: issued, expires: expires, audiogram: try audiogram(),
                                 rule: .nalR, maximumOutputSPL: 105, programs: [.quiet, .conversationInNoise, .tv])
    }

    /// A patient store (cheap key derivation) holding a fitting and, when asked, a debug prescription.
    static func store(clock: ManualClock, withDebug: Bool) throws -> (UnlockedPatientStore, PrescribedHearing, URL) {
        let folder = TemporaryFolder.path("live-hearing")
        let key = try AudiologistSigningKey.generate(for: audiologist)
        let store = try PatientStore(folder: folder, cost: ScryptCost(log2Rounds: 10, blockSize: 8, parallelism: 1),
                                     user: "margarethe", clock: clock.function).create(passphrase: "correct horse")
        try store.trust(key.publicKey)
        _ = try store.importPrescription(text: key.sign(try document()))
        if withDebug { _ = try store.importPrescription(text: key.sign(try document(kind: .debug))) }
        return (store, try store.prescribedHearing(), folder)
    }

    static func session(_ hearing: PrescribedHearing, debugging: LiveDebugging?, clock: ManualClock, transcript: Transcript,
                        expires: Date? = nil) throws -> LiveHearingSession {
        let control = try HearingAidControl(settings: HearingAidSettings(prescription: try hearing.fitting()))
        return LiveHearingSession(control: control, prescribed: hearing, expires: expires ?? hearing.expires, debugging: debugging,
                                  clock: clock.function, say: transcript.say, show: transcript.show)
    }

    @Test("a program switch is said, not only shown, and takes effect; a program not prescribed is said as refused")
    func programSwitchIsSaid() throws {
        let clock = ManualClock(Self.issued.addingTimeInterval(3600)), transcript = Transcript()
        let hearing = PrescribedHearing(audiogram: try Self.audiogram(), options: FittingOptions(rule: .nalR),
                                        programs: [.quiet, .conversationInNoise, .tv], origin: "test")
        let session = try Self.session(hearing, debugging: nil, clock: clock, transcript: transcript)
        #expect(session.handle(LiveHearingCommand("program tv")))
        #expect(session.control.settings.program == .tv)
        #expect(session.handle(LiveHearingCommand("2")))
        #expect(session.control.settings.program == .conversationInNoise)
        session.handle(LiveHearingCommand("music"))
        #expect(session.control.settings.program == .conversationInNoise)
        session.handle(LiveHearingCommand("+"))
        #expect(transcript.said == ["Program tv.", "Program conversation-in-noise.",
                                    "Your prescription has no music program; it has quiet, conversation-in-noise, tv."])
        #expect(transcript.shown == ["Volume +2 dB"])
        #expect(!session.handle(LiveHearingCommand("q")))
    }

    @Test("with a debug prescription stored, a threshold typed while listening changes the running fitting and is audited; without one it is refused")
    func thresholdChangesApplyLive() throws {
        let clock = ManualClock(Self.issued.addingTimeInterval(3600))
        let (store, hearing, folder) = try Self.store(clock: clock, withDebug: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let transcript = Transcript()
        let session = try Self.session(hearing, debugging: LiveDebugging(mode: nil, store: store, signed: hearing, initialChanges: []),
                                       clock: clock, transcript: transcript)
        let before = session.control.settings.prescription
        let gainBefore = before.left.band(atHz: 2000)!.mediumGain
        session.handle(LiveHearingCommand("left:2000=80"))
        let after = session.control.settings.prescription
        #expect(after != before)
        #expect(after.left.band(atHz: 2000)!.mediumGain > gainBefore + 3)
        #expect(after.right == before.right)
        #expect(transcript.said == ["Threshold changed."])
        #expect(transcript.shown.last?.contains("left 2000 Hz → 80 dB HL") == true)
        // A second change keeps the first.
        session.handle(LiveHearingCommand("right:1000=60"))
        #expect(session.control.settings.prescription.left == after.left)
        #expect(try store.auditEntries().filter { $0.action == "changed reference thresholds in debugging mode" }.count == 2)

        // The same store without a debug prescription: refused, nothing changes.
        let (plainStore, plainHearing, plainFolder) = try Self.store(clock: clock, withDebug: false)
        defer { try? FileManager.default.removeItem(at: plainFolder) }
        let refused = Transcript()
        let locked = try Self.session(plainHearing, debugging: LiveDebugging(mode: nil, store: plainStore, signed: plainHearing, initialChanges: []),
                                      clock: clock, transcript: refused)
        let unchanged = locked.control.settings.prescription
        locked.handle(LiveHearingCommand("left:2000=80"))
        #expect(locked.control.settings.prescription == unchanged)
        #expect(refused.said == [PrescriptionError.debuggingModeLocked.userMessage])
    }

    @Test("a prescription expiring while listening is said once, when the clock passes its expiry")
    func expiryIsSaid() throws {
        let clock = ManualClock(Self.issued.addingTimeInterval(3600)), transcript = Transcript()
        let hearing = PrescribedHearing(audiogram: try Self.audiogram(), options: FittingOptions(rule: .nalR), programs: [.quiet],
                                        origin: "test", expires: clock.date.addingTimeInterval(90))
        let session = try Self.session(hearing, debugging: nil, clock: clock, transcript: transcript)
        session.tick()
        clock.advance(seconds: 89)
        session.tick()
        #expect(transcript.said.isEmpty)
        clock.advance(seconds: 1)
        session.tick()
        clock.advance(seconds: 30)
        session.tick()
        #expect(transcript.said == [LiveHearingSession.expiredSentence])
        #expect(transcript.shown.count == 1)
    }

    @Test("an announcement is heard in the ear: speech appears in the output, the aided sound is ducked, the ceiling holds")
    func announcementIsHeard() throws {
        let voice = try SpeechSynthesizer()
        let mixer = AnnouncementMixer(queue: UtteranceQueue(voice: voice, sampleRateHz: 48_000,
                                                            settings: UtteranceQueueSettings(cooldownSeconds: 0, spatialAudio: false)),
                                      maximumFrames: 64)
        let ceiling: Float = 0.3
        var block = [Float](repeating: 0, count: 128)
        func aided() -> [Float] { (0..<128).map { _ in ceiling } }   // aided sound at the ceiling: the worst case
        // Quiet before: the aided sound passes untouched.
        block = aided()
        mixer.feed()
        block.withUnsafeMutableBufferPointer { mixer.mix(into: $0.baseAddress!, frames: 64, ceiling: ceiling) }
        #expect(block == aided())
        // Said over silence: speech comes out, at most half the ceiling.
        mixer.say(LiveHearingSession.spokenName(.tv), key: "test")
        var energy = 0.0, peak: Float = 0
        for _ in 0..<(48_000 / 64) {
            block = [Float](repeating: 0, count: 128)
            mixer.feed()
            block.withUnsafeMutableBufferPointer { mixer.mix(into: $0.baseAddress!, frames: 64, ceiling: ceiling) }
            energy += block.reduce(0) { $0 + Double($1 * $1) }
            peak = max(peak, block.map(abs).max()!)
        }
        #expect((energy / 48_000).squareRoot() > 0.01 * Double(ceiling), "speech RMS \((energy / 48_000).squareRoot())")
        #expect(peak <= ceiling * AnnouncementMixer.speechPeakFraction + 1e-6)
        // Said over aided sound at the ceiling: the sum never passes it, and the aided sound is ducked.
        mixer.say(LiveHearingSession.spokenName(.quiet), key: "test")
        var sum = 0.0
        for _ in 0..<(24_000 / 64) {
            block = aided()
            mixer.feed()
            block.withUnsafeMutableBufferPointer { mixer.mix(into: $0.baseAddress!, frames: 64, ceiling: ceiling) }
            #expect(block.allSatisfy { abs($0) <= ceiling })
            sum += block.reduce(0) { $0 + Double($1) }
        }
        #expect(sum / 48_000 < 0.5 * Double(ceiling), "mean \(sum / 48_000)")
    }

    @Test("""
        the audio thread never waits for the announcement queue: while another thread holds the queue's lock, \
        the mixer still returns each block, with the speech rendered ahead
        """)
    func mixingNeverWaitsForTheQueue() throws {
        let queue = UtteranceQueue(voice: try SpeechSynthesizer(), sampleRateHz: 48_000,
                                   settings: UtteranceQueueSettings(cooldownSeconds: 0, spatialAudio: false))
        let mixer = AnnouncementMixer(queue: queue, maximumFrames: 64)
        mixer.say(LiveHearingSession.spokenName(.tv), key: "test")
        mixer.feed()
        // A second announcement waits in the queue, so `dropWaiting` calls its closure, which holds
        // the queue's lock until the test lets go: a thread planning an announcement, suspended by
        // the scheduler while it holds the lock.
        mixer.say(LiveHearingSession.spokenName(.quiet), key: "test")
        let inside = DispatchSemaphore(value: 0), letGo = DispatchSemaphore(value: 0), released = DispatchSemaphore(value: 0)
        Thread {
            queue.dropWaiting { _ in inside.signal(); letGo.wait(); return true }
            released.signal()
        }.start()
        inside.wait()
        // Mixed on a thread of its own, so that a mixer that did wait fails the test instead of
        // hanging it (the limit only catches that: the blocks take microseconds).
        final class Peak: @unchecked Sendable { var value: Float = 0 }   // read after the semaphore
        let peak = Peak()
        let mixed = DispatchSemaphore(value: 0)
        Thread {
            var block = [Float](repeating: 0, count: 128)
            for _ in 0..<(12_000 / 64) {   // 250 ms: what the ring holds
                block.withUnsafeMutableBufferPointer { mixer.mix(into: $0.baseAddress!, frames: 64, ceiling: 0.3) }
                peak.value = max(peak.value, block.map(abs).max()!)
            }
            mixed.signal()
        }.start()
        let mixedWhileHeld = mixed.wait(timeout: .now() + 120) == .success
        letGo.signal()
        released.wait()
        if !mixedWhileHeld { mixed.wait() }
        #expect(mixedWhileHeld, "the mixer waited for the queue's lock")
        #expect(peak.value > 0.01, "no speech came out while the lock was held")
    }
}
