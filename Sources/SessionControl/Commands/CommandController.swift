import AssistCore
import Commands
import Foundation
import LiveGuidance
import Storage
import Synchronization

/// What one typed, sent or spoken line did, as `assist ctl --json` prints it.
public struct ControlReply: Codable, Equatable, Sendable {
    /// Whether the line was taken as a command and carried out.
    public var understood: Bool
    /// The command's intent, when one was recognised (also for an unknown value: "find a unicorn").
    public var intent: String?
    /// The one sentence said in answer.
    public var reply: String

    public init(understood: Bool, intent: String?, reply: String) {
        self.understood = understood
        self.intent = intent
        self.reply = reply
    }
}

/// Carries out commands for a running session: session commands go to the session, settings to
/// the settings store (which the session follows), reports are read from storage; every answer
/// is one sentence, said by the session and returned to the caller (console, socket).
///
/// One line at a time: the console and the socket may both send, and two list changes made at
/// once ("ignore chairs", "ignore cups") must not each overwrite the other.
public final class CommandController: Sendable {
    public let language: CommandLanguage
    private let session: SessionControls
    private let storage: UserStorage?
    /// Told the new settings as soon as a command stored them, so the session applies them at
    /// once (at the moment of an `--at` line when rendering offline), not when the store's change
    /// notification arrives.
    private let follower: SessionSettingsFollower?
    /// Understanding by meaning over the language's patterns; asks before what it is unsure of.
    let understanding: CommandUnderstanding
    /// The question awaiting yes or no, if any; guarded with the line being handled.
    private let lock = Mutex(PendingConfirmation<ContinuousClock.Instant>())
    private let now: @Sendable () -> ContinuousClock.Instant

    /// Where settings, history and usage live; nil when the user database cannot be opened.
    public struct UserStorage: Sendable {
        public var settings: SettingsStore
        public var history: DetectionHistory
        public var usage: UsageStatistics

        public init(settings: SettingsStore, history: DetectionHistory, usage: UsageStatistics) {
            self.settings = settings
            self.history = history
            self.usage = usage
        }
    }

    public init(language: CommandLanguage, session: SessionControls, storage: UserStorage?,
         settings follower: SessionSettingsFollower? = nil,
         understanding: CommandUnderstanding? = nil, sentenceModel: SentenceModelLoading? = nil,
         now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.language = language
        // Without the sentence model only exact phrases act; anything else is asked about.
        self.understanding = understanding
            ?? CommandUnderstanding.loadOrPhrasesOnly(language: language, loading: sentenceModel, warn: UserData.warn)
        self.now = now
        self.session = session
        self.storage = storage
        self.follower = follower
    }

    /// A typed or sent line (console, socket).
    public func handle(_ line: String) -> ControlReply { handle(line, channel: .typed) }

    /// A line whose sender reads the answer (the control socket, `assist ctl`): a command for the
    /// session is answered with what the session did, waiting up to `sessionWait` for it — so
    /// "scan now" that could not take the camera or the model again is answered with the failure,
    /// not "Scanning.", and `ctl` exits 1. Never call it on the session's own thread (a line run by
    /// the session, `--at`): the session would be waiting on itself; `handle` is for that.
    public func handleReportingOutcome(_ line: String, sessionWait: Duration = .seconds(8)) -> ControlReply {
        let waiter = OutcomeWaiter()
        let reply = handle(line, channel: .typed, answer: waiter.answer)
        guard waiter.wasSent else { return reply }
        switch waiter.wait(upTo: sessionWait) {
        case .carriedOut?, nil:
            // Not handled within the wait (a long analysis): it is queued and will be carried out.
            return reply
        case .failed(let sentence)?, .notCarriedOut(let sentence)?:
            return ControlReply(understood: false, intent: reply.intent, reply: sentence)
        }
    }

    /// Handles one line: typed (console, socket: acted on at once when understood) or spoken
    /// (what would hide things is asked about first). A yes or no answers an open question.
    public func handle(_ line: String, channel: InputChannel) -> ControlReply {
        handle(line, channel: channel, answer: nil)
    }

    /// A spoken line already decided by the listener (`ListeningDecoding`); a yes or no in
    /// `line` still answers an open question.
    public func handle(_ line: String, decided: CommandDecision?) -> ControlReply {
        handle(line, channel: .spoken(certain: false), answer: nil, decided: decided)
    }

    private func handle(_ line: String, channel: InputChannel, answer: OutcomeWaiter.Answer?,
                        decided: CommandDecision? = nil) -> ControlReply {
        lock.withLock { question in
            let command: Command
            switch question.answer(line, at: now(), isYes: language.answer) {
            case .confirmed(let confirmed):
                command = confirmed
            case .declined, .expired:
                let sentence = language.cancelledSentence
                session.send(.say(sentence))
                return ControlReply(understood: false, intent: nil, reply: sentence)
            case .notAnAnswer:
                switch understanding.split(line, channel: channel) {
                case .whole: break
                case .several(let commands):
                    return carryOutInOrder(commands)
                case .refuse(let sentence):
                    session.send(.say(sentence))
                    return ControlReply(understood: false, intent: nil, reply: sentence)
                }
                switch decided ?? understanding.decide(line, channel: channel) {
                case .act(let understood):
                    command = understood
                case .confirm(let sentence, let pending):
                    question.ask(pending, at: now())
                    session.send(.say(sentence))
                    return ControlReply(understood: false, intent: pending.intent.rawValue, reply: sentence)
                case .refuse(let sentence):
                    session.send(.say(sentence))
                    return ControlReply(understood: false, intent: nil, reply: sentence)
                }
            }
            let outcome = carryOut(command, answer: answer)
            if !outcome.saidBySession { session.send(.say(outcome.sentence)) }
            return ControlReply(understood: outcome.accepted, intent: command.intent.rawValue, reply: outcome.sentence)
        }
    }

    /// Several commands of one line ("louder and slower"), each carried out and confirmed in turn.
    /// The reply is understood when every one of them was carried out.
    private func carryOutInOrder(_ commands: [Command]) -> ControlReply {
        var sentences: [String] = []
        var accepted = true
        for command in commands {
            let outcome = carryOut(command, answer: nil)
            if !outcome.saidBySession { session.send(.say(outcome.sentence)) }
            sentences.append(outcome.sentence)
            accepted = accepted && outcome.accepted
        }
        return ControlReply(understood: accepted, intent: commands.map(\.intent.rawValue).joined(separator: ","),
                            reply: sentences.joined(separator: " "))
    }

    private struct Outcome {
        var sentence: String
        /// The session says its own answer (a mode's confirmation, a scan's description).
        var saidBySession = false
        var accepted = true
    }

    private func carryOut(_ command: Command, answer: OutcomeWaiter.Answer?) -> Outcome {
        if let sessionRequest = Self.sessionRequest(for: command) {
            session.send(sessionRequest, answer: answer?.sent())
            // Battery saver is also a stored setting, so it lasts beyond this run.
            var stored = false
            if command.intent == .enableBatterySaver || command.intent == .disableBatterySaver {
                stored = (try? storage?.settings.set("batterySaver", value: .bool(command.intent == .enableBatterySaver))) != nil
            }
            // The mode the user last chose is the one they expect at the next start (find is a
            // task of the moment, not a mode to come back to).
            if let mode = Self.storedMode(for: command.intent) {
                stored = (try? storage?.settings.set("scanning.mode", value: .string(mode.rawValue))) != nil
            }
            // The session was sent the command itself: what it stored is not sent again.
            if stored, let settings = try? storage?.settings.current() { follower?.note(settings) }
            return Outcome(sentence: language.confirmation(for: command), saidBySession: true)
        }
        if let report = report(for: command) {
            return Outcome(sentence: report)
        }
        return changeSettings(command)
    }

    /// The session command an intent stands for; nil for settings and reports.
    public static func sessionRequest(for command: Command) -> SessionRequest? {
        switch command.intent {
        case .startDetection: return .resume
        case .stopDetection: return .pause
        case .scanNow, .describeAhead: return .scanNow
        case .exploreScene: return .explore
        case .checkObstacles: return .checkObstacles
        case .continuousMode, .onDemandMode, .navigationMode, .lightMode:
            return command.intent.mode.flatMap(GuidanceMode.init(starting:)).map(SessionRequest.setMode)
        case .find, .findAhead:
            guard let selection = command.categories else { return nil }
            return .find(FindTarget(categories: Set(selection.categories), spokenName: selection.singular,
                                    aheadOnly: command.intent == .findAhead))
        case .switchCamera: return .switchCamera
        case .enableBatterySaver: return .setBatterySaver(true)
        case .disableBatterySaver: return .setBatterySaver(false)
        case .repeatLast: return .repeatLast
        case .stopTalking: return .stopTalking
        case .more: return .more
        case .exit: return .quit
        case .readText: return .ask(.readText)
        case .readPage: return .ask(.readPage)
        case .describeColour: return .ask(.colour)
        case .checkLight: return .ask(.light)
        case .countFaces: return .ask(.countFaces)
        case .countThings, .isThereThing, .whereIsThing, .howFarThing, .colourOfThing, .textOnThing, .whatIsClosest, .whatIsOnLeft,
             .whatIsOnRight, .cannotTell:
            return sceneQuestion(for: command).map { .ask(.scene($0)) }
        default: return nil
        }
    }

    /// The question about the things in view a command asks; nil for any other command. "Where is
    /// the bus" is answered from the newest frame, live too; "find the bus" starts find mode live,
    /// and for a picture (`assist see --ask`), where there is no live view to guide in, it is
    /// answered as "where is", as "describe the scene" is answered once.
    public static func sceneQuestion(for command: Command, picture: Bool = false) -> SceneQuestion? {
        let target = command.categories.map { SceneTarget(categories: $0.categories, singular: $0.singular, plural: $0.plural, side: command.side) }
        switch command.intent {
        case .countThings: return target.map { .count($0) }
        case .isThereThing: return target.map { .isThere($0) }
        case .whereIsThing: return target.map { .whereIs($0) }
        case .howFarThing: return target.map { .howFar($0) }
        case .colourOfThing: return target.map { .colour($0) }
        case .textOnThing: return target.map { .text($0) }
        case .whatIsClosest: return .closest
        case .whatIsOnLeft: return .onSide(left: true)
        case .whatIsOnRight: return .onSide(left: false)
        case .cannotTell: return .cannotTell
        case .find, .findAhead: return picture ? target.map { .whereIs($0) } : nil
        case .scanNow, .describeAhead, .exploreScene: return picture ? .describe : nil
        default: return nil
        }
    }

    /// The question a command asks about a picture (`assist see --ask`); nil when it is no question
    /// about a picture (a setting, a mode).
    public static func pictureQuestion(for command: Command) -> PictureQuestion? {
        if let scene = sceneQuestion(for: command, picture: true) { return .scene(scene) }
        switch command.intent {
        case .readText, .readPage: return .readPage
        case .describeColour: return .colour
        case .checkLight: return .light
        case .countFaces: return .countFaces
        default: return nil
        }
    }

    /// The stored `scanning.mode` a mode command chooses; nil for any other command.
    static func storedMode(for intent: CommandIntent) -> Mode? {
        intent.mode.flatMap { $0.canStart ? $0 : nil }
    }

    private func report(for command: Command) -> String? {
        switch command.intent {
        case .help:
            let snapshot = session.snapshot
            return language.help(mode: snapshot.isPaused ? "paused" : snapshot.modeName)
        case .tutorial:
            return language.tutorial.joined(separator: " ")
        case .listCategories:
            return language.categoriesSentence()
        case .recentDetections:
            guard let storage else { return unavailable(nil) }
            do {
                let units = (try? storage.settings.current().units) ?? .metric
                return try storage.history.recentReport(10, units: units).sentence
            } catch { return unavailable(error) }
        case .askMode:
            let snapshot = session.snapshot
            var mode = Mode(rawValue: snapshot.modeName)?.spokenName ?? snapshot.modeName
            if let target = snapshot.findTarget { mode += ", looking for " + language.withArticle(target) }
            if snapshot.isPaused { mode += ", paused" }
            return language.confirmation(for: command, values: ["mode": mode])
        case .askFindTarget:
            guard let target = session.snapshot.findTarget else { return language.sentence(.notFinding) }
            return language.confirmation(for: command, values: ["target": language.withArticle(target)])
        case .askVolume:
            // The voice speaking now (a `--volume` of this run included), else the stored volume.
            let stored = try? storage?.settings.current()
            guard let volume = follower?.voice.volumePercent ?? stored?.speech.volumePercent else { return unavailable(nil) }
            return language.confirmation(for: command, values: ["volume": String(volume)])
        case .askHazardAlerts:
            guard let storage else { return unavailable(nil) }
            do {
                return try storage.settings.current().detection.hazardAlerts
                    ? language.confirmation(for: command) : language.sentence(.hazardAlertsAreOff)
            } catch { return unavailable(error) }
        case .usageStats:
            guard let storage else { return unavailable(nil) }
            do { return SpokenReport.usage(try storage.usage.today()) } catch { return unavailable(error) }
        default:
            return nil
        }
    }

    private func changeSettings(_ command: Command) -> Outcome {
        guard let storage else { return Outcome(sentence: unavailable(nil), accepted: false) }
        do {
            let current = try storage.settings.current()
            guard let changes = SettingChanges.changes(for: command, in: current, language: language) else {
                return Outcome(sentence: language.confirmation(for: command))
            }
            if let refused = changes.notWritten {
                return Outcome(sentence: language.sentence(refused, changes.values), accepted: false)
            }
            for write in changes.writes { try storage.settings.set(write.key, value: write.value) }
            if !changes.writes.isEmpty, let follower { follower.follow(try storage.settings.current()) }
            var sentences: [String] = []
            if (changes.refusedHazards == nil && changes.refusedPrioritised == nil) || !changes.writes.isEmpty {
                sentences.append(language.confirmation(for: withoutRefused(command, changes), values: changes.values))
            }
            if let hazards = changes.refusedHazards {
                sentences.append(language.sentence(.hazardStillAnnounced, ["plural": hazards.plural]))
            }
            if let prioritised = changes.refusedPrioritised {
                sentences.append(language.sentence(.prioritisedStillAnnounced, ["plural": prioritised.plural]))
            }
            return Outcome(sentence: sentences.joined(separator: " "), accepted: !changes.writes.isEmpty)
        } catch let error as StorageError {
            return Outcome(sentence: refusal(error, command: command), accepted: false)
        } catch {
            return Outcome(sentence: unavailable(error), accepted: false)
        }
    }

    /// "Ignore chairs and cars": the confirmation names only the chairs, which were ignored.
    private func withoutRefused(_ command: Command, _ changes: SettingChanges) -> Command {
        let refused = (changes.refusedHazards?.categories ?? []) + (changes.refusedPrioritised?.categories ?? [])
        guard !refused.isEmpty, let named = command.categories else { return command }
        var kept = command
        kept.categories = language.selection(of: named.categories.filter { !refused.contains($0) })
        return kept
    }

    /// A value the store refused, said in the user's terms where the command has a range.
    private func refusal(_ error: StorageError, command: Command) -> String {
        if case .invalidSetting = error {
            switch command.intent {
            case .setConfidence:
                if case .number(let range, _) = SettingsSchema.confidenceThreshold.kind {
                    return language.sentence(.confidenceRange, ["minimum": percent(range.lowerBound), "maximum": percent(range.upperBound)])
                }
            case .setVolume:
                return language.sentence(.volumeRange, ["minimum": String(SettingChanges.volumeRange.lowerBound),
                                                       "maximum": String(SettingChanges.volumeRange.upperBound)])
            case .setSpeechRate:
                return language.sentence(.rateRange, ["minimum": String(SettingChanges.rateRange.lowerBound),
                                                     "maximum": String(SettingChanges.rateRange.upperBound)])
            default: break
            }
        }
        return language.sentence(.notChanged, ["reason": error.userMessage])
    }

    private func percent(_ fraction: Double) -> String { String(Int((fraction * 100).rounded())) }

    private func unavailable(_ error: (any Error)?) -> String {
        language.sentence(.settingsUnavailable, ["reason": error.map(userMessage(for:)) ?? "the user database could not be opened."])
    }
}

/// Waits, on a control connection's thread, for the session to say what became of a command.
private final class OutcomeWaiter: Sendable {
    /// Handed down to where the command is sent; `sent()` notes that it was, and gives the callback.
    struct Answer {
        let waiter: OutcomeWaiter
        func sent() -> @Sendable (SessionRequestOutcome) -> Void {
            waiter.state.withLock { $0.sent = true }
            return { [waiter] outcome in
                waiter.state.withLock { $0.outcome = outcome }
                waiter.arrived.signal()
            }
        }
    }

    private struct State {
        var sent = false
        var outcome: SessionRequestOutcome?
    }
    private let state = Mutex(State())
    private let arrived = DispatchSemaphore(value: 0)

    var answer: Answer { Answer(waiter: self) }
    var wasSent: Bool { state.withLock { $0.sent } }

    /// The outcome, or nil when the session has not handled the command within `limit`.
    func wait(upTo limit: Duration) -> SessionRequestOutcome? {
        let (seconds, attoseconds) = limit.components
        let nanoseconds = Double(seconds) * 1e9 + Double(attoseconds) / 1e9
        _ = arrived.wait(timeout: .now() + .nanoseconds(Int(min(nanoseconds, 3_600e9))))
        return state.withLock { $0.outcome }
    }
}
