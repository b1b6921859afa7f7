import AssistCore
import Foundation
import Hearing
import Prescription
import Synchronization

/// One line typed while listening live.
public enum LiveHearingCommand: Equatable, Sendable {
    case quit, louder, softer, toggleMute, status
    /// A program's name or number, with or without the word "program" before it.
    case program(String)
    /// A reference threshold change in the debugging mode, written as for `--debug-threshold`
    /// (`left:2000=65`).
    case threshold(String)

    public init(_ typed: String) {
        let line = typed.trimmingCharacters(in: .whitespaces).lowercased()
        switch line {
        case "q", "quit": self = .quit
        case "+": self = .louder
        case "-": self = .softer
        case "m", "mute": self = .toggleMute
        case "s", "status", "": self = .status
        default:
            if line.hasPrefix("left:") || line.hasPrefix("right:") { self = .threshold(line); return }
            let name = line.hasPrefix("program ") ? String(line.dropFirst("program ".count)) : line
            self = .program(name.trimmingCharacters(in: .whitespaces))
        }
    }
}

/// The debugging mode as a live session uses it: the fitting before any change, the store
/// whose debug prescription allows changes (and whose audit log records each one), and the mode
/// when it was already unlocked at the start (`--debug-threshold`); otherwise it is unlocked at
/// the first change typed, and refused there when the store holds no valid debug prescription.
public struct LiveDebugging: Sendable {
    public let mode: DebuggingMode?
    public let store: UnlockedPatientStore
    /// The prescription as signed, before any threshold change.
    public let signed: PrescribedHearing
    /// Changes given at the start; live changes are added to them.
    public let initialChanges: [ReferenceThresholdChange]

    public init(mode: DebuggingMode?, store: UnlockedPatientStore, signed: PrescribedHearing,
                initialChanges: [ReferenceThresholdChange]) {
        self.mode = mode
        self.store = store
        self.signed = signed
        self.initialChanges = initialChanges
    }
}

/// The rules of a live hearing session, apart from the sound itself: what each typed command
/// does to the running chain and what the user is told, and what the passing of time brings
/// (a prescription that expires while listening). The sound device and the keyboard are wired
/// by the command; this type takes a clock and two outputs, so tests drive it on a fake clock.
///
/// `say` gets what must be heard (program switches, the expiry, refusals): the command speaks
/// it and prints it. `show` gets what is only read (volume, status).
public final class LiveHearingSession: Sendable {
    private struct State {
        var thresholdChanges: [ReferenceThresholdChange]
        var expiryAnnounced = false
    }

    public let control: HearingAidControl
    private let prescribed: PrescribedHearing
    private let expires: Date?
    private let debugging: LiveDebugging?
    private let clock: @Sendable () -> Date
    private let say: @Sendable (String) -> Void
    private let show: @Sendable (String) -> Void
    private let state: Mutex<State>

    public init(control: HearingAidControl, prescribed: PrescribedHearing, expires: Date?, debugging: LiveDebugging?,
                clock: @escaping @Sendable () -> Date = { Date() },
                say: @escaping @Sendable (String) -> Void, show: @escaping @Sendable (String) -> Void) {
        self.control = control
        self.prescribed = prescribed
        self.expires = expires
        self.debugging = debugging
        self.clock = clock
        self.say = say
        self.show = show
        state = Mutex(State(thresholdChanges: debugging?.initialChanges ?? []))
    }

    /// The programs as offered at the start: "1 quiet, 2 conversation-in-noise, …".
    public var programList: String {
        prescribed.programs.enumerated().map { "\($0.offset + 1) \($0.element.rawValue)" }.joined(separator: ", ")
    }

    /// The sentence that names a program, said and printed (the voice reads the hyphens as pauses).
    public static func spokenName(_ program: ListeningProgram) -> String { "Program \(program.rawValue)." }

    /// Acts on one typed command; false when the session should end.
    @discardableResult
    public func handle(_ command: LiveHearingCommand) -> Bool {
        do { return try perform(command) } catch {
            say(userMessage(for: error))
        }
        return true
    }

    /// Acts on one command and throws its refusal instead of saying it (the web app shows the
    /// refusal on the page that sent it); false when the session should end.
    @discardableResult
    public func perform(_ command: LiveHearingCommand) throws -> Bool {
        switch command {
        case .quit: return false
        case .louder: show(String(format: "Volume %+.0f dB", try control.volumeUp()))
        case .softer: show(String(format: "Volume %+.0f dB", try control.volumeDown()))
        case .toggleMute:
            try control.setMuted(!control.settings.muted)
            show(control.settings.muted ? "Muted" : "Unmuted")
        case .status:
            let gains = control.monitors.values(.appliedGainDecibels, ear: .left).map { String(format: "%.0f", $0) }
            show("Program \(control.settings.program.rawValue), volume \(control.settings.volumeDecibels) dB; "
                 + "left gains (dB) per band: \(gains.joined(separator: " "))")
        case .program(let name):
            try control.select(try prescribed.program(named: name))
            say(Self.spokenName(control.settings.program))
        case .threshold(let text):
            try changeThreshold(try ReferenceThresholdChange(parsing: text))
        }
        return true
    }

    /// The reference threshold changes made so far in the debugging mode, oldest first.
    public var thresholdChanges: [ReferenceThresholdChange] { state.withLock { $0.thresholdChanges } }

    /// Applies a reference threshold change to the running fitting (debugging mode only) and
    /// records it in the audit log; the chain picks the new fitting up at its next block.
    private func changeThreshold(_ change: ReferenceThresholdChange) throws {
        guard let debugging else { throw PrescriptionError.debuggingModeLocked }
        let mode = try debugging.mode ?? debugging.store.debuggingMode()
        let changes = state.withLock { $0.thresholdChanges } + [change]
        let hearing = try debugging.signed.changingReferenceThresholds(changes, in: mode)
        try control.setPrescription(try hearing.fitting())
        state.withLock { $0.thresholdChanges = changes }
        try debugging.store.recordThresholdChanges([change], in: mode)
        say("Threshold changed.")
        show("Debugging mode: \(changes.map(\.description).joined(separator: ", ")); the fitting follows.")
    }

    /// Says something the session's owner learnt (the sound coming back after a loss).
    public func announce(_ sentence: String) { say(sentence) }

    /// Called about once a second: says once when the prescription expires while listening.
    public func tick() {
        guard let expires, clock() >= expires else { return }
        let first = state.withLock { state in
            defer { state.expiryAnnounced = true }
            return !state.expiryAnnounced
        }
        if first {
            say(Self.expiredSentence)
            show("Listening goes on until you stop, but it will not start again until your audiologist renews the prescription.")
        }
    }

    /// Short enough to be said within 3 s; the rest is shown.
    public static let expiredSentence = "Your prescription has expired."
}
