import AssistCore
import Foundation
import Hearing
import LiveHearing
import Prescription
import SessionControl
import Synchronization

/// The hearing side of the web app: the patient store, unlocked with the passphrase typed on
/// its page (the same store, passphrase, delays and lock as `assist rx`), and the hearing aid
/// that `assist serve --hear-input` or `--hear-live` runs on the prescription in use. Nothing is kept but in
/// memory: the store's keys while unlocked, and the codes signed on the Audiologist page.
public final class HearingPages: Sendable {
    /// Where the hearing aid's sound comes from, as `assist serve` was told.
    public enum HearingInput: Sendable, Equatable {
        /// No hearing input was given: no hearing aid runs in the web app.
        case none
        /// A sound file processed through the chain at its own pace, looping (no sound card needed).
        case soundFile(URL)
        /// The live hearing aid on the sound devices (JACK when a server runs), as `assist hear --live`.
        case live(LiveSoundDevices)
    }

    let patientStore: PatientStore
    let input: HearingInput
    /// What the hearing aid says (program switches, refusals, the expiry), for the Patient home's live region.
    public let announcements: SpokenSentences
    /// Whether a started hearing aid runs at its own pace (false in tests, which drive its blocks).
    let paced: Bool
    let clock: @Sendable () -> Date

    struct SignedCode: Sendable {
        var signed: PrescriptionRequest.Signed
        var fileStem: String
    }

    private struct State: Sendable {
        var unlocked: UnlockedPatientStore?
        var aid: SoundFileHearingAid?
        var aidTask: Task<Void, Never>?
        /// The live hearing aid's commands and state, while one was started.
        var live: LiveHearingRemote?
        /// Why no hearing aid runs although an input was given (no prescription in use, a refused one).
        var aidProblem: String?
        var signed: [String: SignedCode] = [:]
    }
    private let state = Mutex(State())

    public init(patientStore: PatientStore, input: HearingInput, announcements: SpokenSentences = SpokenSentences(),
                paced: Bool = true, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.patientStore = patientStore
        self.input = input
        self.announcements = announcements
        self.paced = paced
        self.clock = clock
    }

    /// The patient store at its usual place (as `assist rx` opens it), with the hearing aid on a
    /// sound file (`assist serve --hear-input`), on the sound devices (`--hear-live`) or none.
    public convenience init(soundFile: String?, live: LiveSoundDevices? = nil) {
        let input: HearingInput = if let live { .live(live) } else { soundFile.map { .soundFile(URL(fileURLWithPath: $0)) } ?? .none }
        self.init(patientStore: Self.usualPatientStore(), input: input)
    }

    /// The store `assist rx` opens; an access the audit log could not record is told on standard
    /// error, as the command line tells it.
    public static func usualPatientStore() -> PatientStore {
        PatientStore(folder: PatientStore.defaultFolder(), unrecordedAccess: { sentence in
            FileHandle.standardError.write(Data((sentence + "\n").utf8))
        })
    }

    static let uploadTooLargeSentence = "The picture is larger than 10 MB, the most this page accepts; send a smaller photo or a screenshot of the code."

    // MARK: The patient store

    var unlocked: UnlockedPatientStore? { state.withLock { $0.unlocked } }
    public var aid: SoundFileHearingAid? { state.withLock { $0.aid } }
    /// The live hearing aid's commands and state, once one was started.
    public var live: LiveHearingRemote? { state.withLock { $0.live } }
    /// The rules of the running hearing aid, on a sound file or live.
    var session: LiveHearingSession? { aid?.session ?? live?.session }
    var aidProblem: String? { state.withLock { $0.aidProblem } }

    /// Opens the store with `passphrase`, or on first use sets it (typed twice), as `assist rx`
    /// does: a wrong passphrase is counted, delays grow and the store locks.
    func unlock(passphrase: String, repeated: String?) -> PageMessage {
        do {
            let opened: UnlockedPatientStore
            if patientStore.exists {
                let wait = try patientStore.waitBeforeNextAttempt()
                if wait.seconds > 0 {
                    throw wait.isLock ? PrescriptionError.locked(seconds: wait.seconds) : PrescriptionError.tryAgainLater(seconds: wait.seconds)
                }
                opened = try patientStore.unlock(passphrase: passphrase)
            } else {
                guard let repeated, repeated == passphrase else {
                    return PageMessage(text: "The two entries differ; nothing was changed.", isWarning: true, fieldID: "passphrase", fieldName: "the passphrase")
                }
                opened = try patientStore.create(passphrase: passphrase)
            }
            state.withLock { $0.unlocked = opened }
            startAid()
            return PageMessage(text: "The prescriptions are open.", isWarning: false)
        } catch {
            return PageMessage(text: userMessage(for: error), isWarning: true, fieldID: "passphrase", fieldName: "the passphrase")
        }
    }

    /// Forgets the store's keys; a running hearing aid goes on (as `assist hear --live` goes on
    /// when its terminal is left).
    func lock() -> PageMessage {
        state.withLock { $0.unlocked = nil }
        return PageMessage(text: "The prescriptions are locked; the passphrase is needed to open them again.", isWarning: false)
    }

    // MARK: The hearing aid

    /// Starts (or restarts) the hearing aid on the prescription in use, when an input was given.
    func startAid() {
        stopAid()
        if case .live(let devices) = input { return startLiveAid(devices) }
        guard case .soundFile(let url) = input, let store = unlocked else { return }
        let announcements = self.announcements
        do {
            let fitted = try HearingFitting.fitted(store: store)
            let aid = try SoundFileHearingAid(fitted: fitted, soundFile: url, clock: clock,
                                              say: { announcements.publish($0) }, show: { announcements.publish($0) })
            let task: Task<Void, Never>? = paced ? Task.detached { await aid.run() } : nil
            try? store.recordStarted(fitted.settings.prescription)
            state.withLock { state in
                state.aid = aid
                state.aidTask = task
                state.aidProblem = nil
            }
            announcements.publish("The hearing aid is running: \(LiveHearingSession.spokenName(aid.control.settings.program))")
        } catch {
            state.withLock { $0.aidProblem = userMessage(for: error) }
        }
    }

    /// Starts the live hearing aid on its own thread (its loop blocks while the sound runs) and
    /// returns once its sound flows or it failed, so the page that started it tells which. A
    /// failure (no sound device) is one sentence on the page and on standard error.
    private func startLiveAid(_ devices: LiveSoundDevices) {
        guard let store = unlocked else { return }
        let announcements = self.announcements
        let fitted: HearingFitting.Fitted
        do { fitted = try HearingFitting.fitted(store: store) } catch {
            state.withLock { $0.aidProblem = userMessage(for: error) }
            return
        }
        let remote = LiveHearingRemote()
        state.withLock { state in
            state.live = remote
            state.aidProblem = nil
        }
        let voice = StoredVoiceSpeech.voice(from: StoredVoiceSpeech.storedSettings())
        Thread {
            do {
                _ = try fitted.hearLive(volumeSteps: 0, devices: devices, monitorFile: nil, durationSeconds: nil, announcementVoice: voice,
                                        commands: .remote(remote), show: { line in
                                            announcements.publish(line)
                                            FileHandle.standardError.write(Data((line + "\n").utf8))
                                        })
                remote.ended(problem: nil)
            } catch {
                let sentence = userMessage(for: error)
                FileHandle.standardError.write(Data((sentence + "\n").utf8))
                announcements.publish(sentence)
                remote.ended(problem: sentence)
            }
        }.start()
        remote.waitUntilStartedOrEnded()
    }

    func stopAid() {
        let (task, live) = state.withLock { state -> (Task<Void, Never>?, LiveHearingRemote?) in
            defer { state.aid = nil; state.aidTask = nil; state.live = nil }
            return (state.aidTask, state.live)
        }
        task?.cancel()
        // The device is closed before another aid opens it (or the server ends).
        live?.stop()
        live?.waitUntilEnded()
    }

    /// Ends the paced hearing aid (the server is stopping).
    public func finish() {
        stopAid()
        announcements.finish()
    }

    /// A command for the running hearing aid (program, volume, threshold), with the sentence
    /// the page shows: its refusal, or what changed.
    func perform(_ command: LiveHearingCommand, done: (LiveHearingSession) -> String) -> PageMessage {
        guard let session else { return PageMessage(text: noAidSentence, isWarning: true) }
        do {
            // The live aid's own channel, so that a command that ends listening ends it.
            if aid == nil, let live { try live.perform(command) } else { try session.perform(command) }
            return PageMessage(text: done(session), isWarning: false)
        } catch {
            return PageMessage(text: userMessage(for: error), isWarning: true)
        }
    }

    /// Why nothing runs, in words.
    var noAidSentence: String {
        switch input {
        case .none:
            return "No hearing aid runs in this web app: assist serve was started without a hearing input. "
                + "Start it again with the sound devices, or with a sound file, as its hearing input."
        case .live:
            if unlocked == nil { return "The live hearing aid starts once the prescriptions are opened with the passphrase." }
            if let live, case .failed(let sentence) = live.state.phase { return sentence }
            return aidProblem ?? "The hearing aid is not running: choose a prescription to use on the Prescriptions page."
        case .soundFile(let url):
            if unlocked == nil { return "The hearing aid starts on \(url.lastPathComponent) once the prescriptions are opened with the passphrase." }
            return aidProblem ?? "The hearing aid is not running: choose a prescription to use on the Prescriptions page."
        }
    }

    // MARK: The Audiologist page's codes

    func keep(_ signed: PrescriptionRequest.Signed, fileStem: String) -> String {
        let id = AccessGuard.randomToken().prefix(16).lowercased()
        state.withLock { $0.signed[String(id)] = SignedCode(signed: signed, fileStem: fileStem) }
        return String(id)
    }

    func signedCode(_ id: String) -> SignedCode? { state.withLock { $0.signed[id] } }
}
