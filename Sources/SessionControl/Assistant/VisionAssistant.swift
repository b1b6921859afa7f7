import Foundation
import LiveGuidance
import Logging
import ServiceLifecycle
import Synchronization

/// The vision assistant as a service: a `LiveGuidanceRun` (built from values: the input, the
/// models, the speech output, the settings) run from start-up to its end, with its adapters (the
/// control socket, the console, spoken commands, media keys, the settings store) beside it.
///
/// In a `ServiceGroup` it ends as "exit" ends it when the group shuts down (Ctrl-C, SIGTERM, the
/// web app stopping) or is cancelled: it says goodbye, writes its transcript and gives camera and
/// models back, whatever the group's reason. `assist see` and `assist console` run it alone in a
/// group that takes Ctrl-C and SIGTERM (`LiveGuidanceRun.run()`); `assist serve --input` runs it
/// beside the web server, in the server's group.
///
///     let assistant = VisionAssistant(LiveGuidanceRun(input: try VideoInput(argument: "camera")))
///     try await ServiceGroup(services: [server, assistant], gracefulShutdownSignals: [.sigint],
///                            logger: logger).run()
///     let ended = assistant.result     // how the session ended, or why it could not start
public final class VisionAssistant: Service {
    public let options: LiveGuidanceRun
    private let outcome = Mutex<Result<LiveRunResult, LiveRunError>?>(nil)

    public init(_ options: LiveGuidanceRun) {
        self.options = options
    }

    /// Runs the assistant to its end; never throws: how it ended is `result`.
    public func run() async {
        let ender = SessionEnder()
        let options = self.options
        // In a task of its own, which the group's cancellation does not reach: a cancelled session
        // could not wait for its goodbye to be heard. Cancellation asks it to end as "exit" instead.
        // (The task still sees the group's graceful shutdown, which its adapters follow.)
        let running = Task { () -> Result<LiveRunResult, LiveRunError> in
            do throws(LiveRunError) {
                return .success(try await options.run(endedBy: ender))
            } catch {
                return .failure(error)
            }
        }
        let result = await withTaskCancellationOrGracefulShutdownHandler {
            await running.value
        } onCancelOrGracefulShutdown: {
            ender.end()
        }
        outcome.withLock { $0 = result }
    }

    /// How the run ended once `run()` has returned: the session's ending and whether the transcript
    /// was saved, or why it could not start.
    public var result: Result<LiveRunResult, LiveRunError> {
        outcome.withLock { $0 } ?? .failure(.cannotStart(reason: "The vision assistant has not run."))
    }

    /// The group's own log is not the user's: what matters reaches them as sentences.
    static let logger: Logger = {
        var logger = Logger(label: "assist vision assistant")
        logger.logLevel = .critical
        return logger
    }()
}

/// Ends a session as "exit" does when asked: the assistant's group shutting down. Asked before
/// the session exists (Ctrl-C while the models load), the session ends as soon as it starts.
final class SessionEnder: Sendable {
    private let state = Mutex<(controls: SessionControls?, ended: Bool)>((nil, false))

    func end() {
        let controls = state.withLock { state -> SessionControls? in
            state.ended = true
            return state.controls
        }
        controls?.send(.quit)
    }

    func sessionStarted(_ controls: SessionControls) {
        let ended = state.withLock { state -> Bool in
            state.controls = controls
            return state.ended
        }
        if ended { controls.send(.quit) }
    }
}

extension LiveGuidanceRun {
    /// Runs `session` with `adapters` beside it in a group of their own: the session starts once
    /// every adapter has (commands are taken from "Assistive Vision activated." on), and the
    /// adapters stop when it ends. The adapters also stop with the assistant's group (Ctrl-C).
    static func run(_ session: GuidanceSession, beside adapters: [SessionAdapter],
                    endedBy ender: SessionEnder) async throws(SessionStartupError) -> SessionEnding {
        ender.sessionStarted(session.controls)
        let (starts, started) = AsyncStream<Void>.makeStream()
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(
            services: adapters.map { .init(service: $0.announcingStart(to: started), successTerminationBehavior: .ignore,
                                           failureTerminationBehavior: .ignore) },
            logger: VisionAssistant.logger))
        // A child task: it runs where the session's caller prefers (a test's own threads), and
        // sees the assistant's group shutting down (Ctrl-C), which its adapters follow at once.
        async let adaptersRan: Void = {
            if !adapters.isEmpty { try? await group.run() }
            started.finish()
        }()
        var adaptersStarted = 0
        for await _ in starts where adaptersStarted < adapters.count {
            adaptersStarted += 1
            if adaptersStarted == adapters.count { break }
        }
        let ending: Result<SessionEnding, SessionStartupError>
        do throws(SessionStartupError) { ending = .success(try await session.run()) } catch { ending = .failure(error) }
        await group.triggerGracefulShutdown()
        await adaptersRan
        return try ending.get()
    }
}
