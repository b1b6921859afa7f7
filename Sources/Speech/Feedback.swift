import AssistCore
import Foundation
import Synchronization

/// Everything the user perceives, in one place: the utterance queue (speech and tones), the
/// vibration, and the sentences on standard error when something fails. Failure paths:
/// - the voice fails: the error tone plays (the queue does that), one alert vibration, and
///   "Voice response failed" with the text on standard error;
/// - no vibration device: "Haptic feedback is not available on this device" is said once and
///   printed once, and every later vibration is replaced by its audio cue;
/// - the audio device goes away or comes back: an alert vibration and a sentence (see
///   `SpeakerOutput`).
public final class Feedback: Sendable {
    public let queue: UtteranceQueue
    private let vibration: (any VibrationOutput)?
    private let report: @Sendable (String) -> Void
    private struct State {
        var vibrationWorks: Bool
        var toldVibrationMissing = false
        /// nil until the user's choice is applied: every pattern as the guidance asked for it.
        var haptics: HapticPreferences?
        /// The voice settings last applied with `apply(voice:haptics:)`; nil: the voice it was made with.
        var voice: SpeechVoiceSettings?
    }
    private let state: Mutex<State>

    /// `report` writes one sentence for the user (standard error in the tool).
    public init(queue: UtteranceQueue, vibration: (any VibrationOutput)?,
                report: @escaping @Sendable (String) -> Void = Feedback.standardError) {
        self.queue = queue
        self.vibration = vibration
        self.report = report
        state = Mutex(State(vibrationWorks: vibration != nil))
    }

    public static let standardError: @Sendable (String) -> Void = { line in
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Queues `utterance`, and vibrates `pattern` with it. Where vibration is unavailable, an
    /// utterance that has no earcon gets the one for its kind, so the cue is still heard.
    @discardableResult
    public func say(_ utterance: Utterance, vibrating pattern: VibrationPattern? = nil) -> EnqueueOutcome {
        var utterance = utterance
        if let pattern, !vibrate(pattern), utterance.earcon == nil {
            utterance.earcon = utterance.priority == .hazard ? .obstacleHazard : .nothingFound
            utterance.severity = max(utterance.severity, pattern.strength)
        }
        let outcome = queue.enqueue(utterance)
        if case .queued(let plan) = outcome, let failure = plan.voiceFailure {
            _ = vibrate(.alert)
            report("Voice response failed for “\(utterance.text)”: \(Self.reason(failure)).")
        }
        return outcome
    }

    /// Something happened that the user must know even without sound: vibrates the alert and
    /// writes `sentence`.
    public func alert(_ sentence: String) {
        _ = vibrate(.alert)
        report(sentence)
    }

    /// Applies what the user changed while guidance runs: the voice (its name, rate, pitch and
    /// volume: the next utterance is spoken with it) and the vibration (on or off, strength: the
    /// next pattern is felt so). nil leaves that part as it is. A voice that cannot start leaves
    /// the one speaking now, and says why.
    public func apply(voice settings: SpeechVoiceSettings?, haptics: HapticPreferences?) {
        if let haptics { state.withLock { $0.haptics = haptics } }
        guard let settings, state.withLock({ $0.voice }) != settings else { return }
        do {
            let chosen = try VoiceCatalog.start(settings)
            queue.changeVoice(to: chosen.voice)
            state.withLock { $0.voice = settings }
            if let notice = chosen.fallbackNotice {
                report(notice)
                queue.enqueue(Utterance(notice, priority: .status, contentKey: "natural-voice-unavailable"))
            }
        } catch {
            let sentence = "The new voice could not start: \(userMessage(for: error))"
            report(sentence)
            queue.enqueue(Utterance(sentence, priority: .status, contentKey: "voice-change-failed"))
        }
    }

    /// Vibrates, or returns false (after telling the user once) when there is no vibration. With
    /// vibration turned off by the user it returns false and says nothing: the cue is heard instead.
    @discardableResult
    public func vibrate(_ pattern: VibrationPattern) -> Bool {
        let (works, haptics) = state.withLock { ($0.vibrationWorks, $0.haptics) }
        if let haptics, !haptics.enabled { return false }
        if works, let vibration {
            do {
                try vibration.vibrate(haptics?.scaled(pattern) ?? pattern)
                return true
            } catch {
                state.withLock { $0.vibrationWorks = false }
            }
        }
        let tell = state.withLock { state in
            defer { state.toldVibrationMissing = true }
            return !state.toldVibrationMissing
        }
        if tell {
            let sentence = HapticError.notAvailable.userMessage
            report(sentence)
            queue.enqueue(Utterance(sentence, priority: .status, contentKey: "haptics-unavailable"))
        }
        return false
    }

    private static func reason(_ error: SpeechError) -> String {
        switch error {
        case .engineUnavailable: return "the speech engine espeak-ng could not start; is espeak-ng-data installed?"
        case .synthesisFailed(let code): return "speech engine error \(code)"
        default:
            var text = error.userMessage
            while text.hasSuffix(".") { text.removeLast() }
            return text.prefix(1).lowercased() + text.dropFirst()
        }
    }
}
