import AssistCore
import Foundation
import Hearing
import Synchronization

/// The sound devices a live hearing aid runs on, as `assist hear --live` and
/// `assist serve --hear-live` are told: JACK when a server runs and no device is named,
/// PortAudio (ALSA, PipeWire, a named device) otherwise.
public struct LiveSoundDevices: Sendable, Equatable {
    public var inputDevice: String?
    public var outputDevice: String?
    public var sampleRate: Double
    public var bufferSize: Int

    public init(inputDevice: String? = nil, outputDevice: String? = nil, sampleRate: Double = 48_000, bufferSize: Int = 64) {
        self.inputDevice = inputDevice
        self.outputDevice = outputDevice
        self.sampleRate = sampleRate
        self.bufferSize = bufferSize
    }
}

/// Where a live hearing aid takes its commands from.
public enum LiveHearingCommandSource: Sendable {
    /// One typed line at a time on standard input (`assist hear --live`); its end stops
    /// listening unless a duration was given.
    case standardInput
    /// Another part of the program (the web app's pages), through `LiveHearingRemote`.
    case remote(LiveHearingRemote)
}

/// A running live hearing aid driven from elsewhere than standard input (the web app's Patient
/// home): program, volume and threshold commands reach the running chain through the same
/// `LiveHearingSession` rules the keyboard goes through, `stop()` ends it, and what it is doing
/// is published as a `LiveHearingState` for a page to show in words.
public final class LiveHearingRemote: Sendable {
    private struct Published {
        var phase: LiveHearingState.Phase = .starting
        var connection = ""
        var blocks = 0
        var dropouts = 0
        var session: LiveHearingSession?
        var ended = false
    }
    private let published = Mutex(Published())
    private let stopping = Atomic<Bool>(false)
    /// Woken when the aid starts, fails or ends.
    private let changed = NSCondition()

    public init() {}

    /// What the aid is doing now.
    public var state: LiveHearingState {
        published.withLock { p in
            let settings = p.session?.control.settings
            return LiveHearingState(phase: p.phase, connection: p.connection, program: settings?.program,
                                    volumeDecibels: settings?.volumeDecibels ?? 0, muted: settings?.muted ?? false,
                                    blocks: p.blocks, dropouts: p.dropouts)
        }
    }

    /// The running session's rules (program, volume, thresholds), nil before the sound starts and after it ends.
    public var session: LiveHearingSession? { published.withLock { $0.ended ? nil : $0.session } }

    /// Acts on a command as if typed (a refusal is thrown, not said: the sender shows it);
    /// `quit` stops the aid. Throws `notRunning` when no aid runs.
    public func perform(_ command: LiveHearingCommand) throws {
        guard let session else { throw LiveHearingRemoteError.notRunning }
        if try !session.perform(command) { stop() }
    }

    /// Asks the aid to stop; it closes its device within its next turn (a twentieth of a second).
    public func stop() { stopping.store(true, ordering: .releasing) }

    var isStopping: Bool { stopping.load(ordering: .acquiring) }

    /// Blocks until the aid is running or has ended (the caller then reads `state`).
    public func waitUntilStartedOrEnded() {
        changed.lock()
        defer { changed.unlock() }
        while published.withLock({ $0.phase == .starting && !$0.ended }) { changed.wait() }
    }

    /// Blocks until the aid's loop has ended and its device is closed.
    public func waitUntilEnded() {
        changed.lock()
        defer { changed.unlock() }
        while !published.withLock({ $0.ended }) { changed.wait() }
    }

    // MARK: What the running aid reports (LiveHearingAid and its owner only)

    func attach(_ session: LiveHearingSession, connection: String) {
        update { $0.session = session; $0.connection = connection; $0.phase = .running }
    }

    func report(phase: LiveHearingState.Phase, blocks: Int, dropouts: Int) {
        published.withLock { p in
            p.phase = phase
            p.blocks = blocks
            p.dropouts = dropouts
        }
    }

    /// The aid ended: stopped as asked, or failed with `problem` (one sentence).
    public func ended(problem: String?) {
        update { p in
            p.ended = true
            p.phase = problem.map { .failed($0) } ?? .stopped
        }
    }

    private func update(_ change: (inout Published) -> Void) {
        changed.lock()
        published.withLock { change(&$0) }
        changed.broadcast()
        changed.unlock()
    }
}

public enum LiveHearingRemoteError: UserFacingError, Equatable {
    case notRunning

    public var userMessage: String { "The live hearing aid is not running." }
}

/// What a live hearing aid is doing, for a page to show.
public struct LiveHearingState: Sendable, Equatable {
    public enum Phase: Sendable, Equatable {
        case starting, running
        /// The device went away; it is looked for again every second.
        case deviceLost
        case stopped
        /// It could not start or go on (no sound device, a refused prescription): one sentence.
        case failed(String)
    }

    public var phase: Phase
    /// "system:capture_1 → system:playback_1 [JACK], 48000 Hz, 64-frame buffers".
    public var connection: String
    public var program: ListeningProgram?
    public var volumeDecibels: Double
    public var muted: Bool
    public var blocks: Int
    public var dropouts: Int

    /// The state in words, as the Patient home shows it.
    public var sentence: String {
        switch phase {
        case .starting: return "The live hearing aid is starting."
        case .running:
            return "The live hearing aid is running through \(connection), in program \(program?.rawValue ?? "unknown"), "
                + "volume \(Self.volumeText(volumeDecibels))\(muted ? ", muted" : ""); \(blocks) blocks, \(dropouts) dropouts."
        case .deviceLost: return LiveHearingAid.deviceGoneSentence
        case .stopped: return "The live hearing aid has stopped."
        case .failed(let sentence): return sentence
        }
    }

    /// A volume as the patient reads it: "as prescribed (0 dB)", "+2 dB", "−4 dB".
    public static func volumeText(_ decibels: Double) -> String {
        decibels == 0 ? "as prescribed (0 dB)" : String(format: "%+.0f dB", decibels).replacingOccurrences(of: "-", with: "−")
    }
}
