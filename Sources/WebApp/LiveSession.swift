import AssistCore
import Foundation
import LiveGuidance
import SessionControl
import Synchronization

/// The live session `assist serve --input` runs: the same `LiveGuidanceRun` as `assist see INPUT`,
/// inside the server's own process (it used to be a child `assist see`, whose printed lines were
/// parsed back). What it says is published to the Live page as it is said; the page's commands
/// reach it on its control socket like any session's; its end, and a start-up failure, are said.
public final class LiveSession: Sendable {
    private let running: Task<Void, Never>
    private let state = State()

    /// The session's controls once it exists, and whether it was asked to stop before that.
    private final class State: Sendable {
        let value = Mutex<(controls: SessionControls?, stopping: Bool)>((nil, false))
    }

    /// Starts `run` at once; every sentence it says is published to `sentences`.
    public init(_ run: LiveGuidanceRun, sentences: SpokenSentences, warn: @escaping @Sendable (String) -> Void) {
        var run = run
        // The server owns Ctrl-C and SIGTERM; `stop()` ends the session when the server stops.
        run.quitsOnInterrupt = false
        run.onEvent = { event in
            if case .said(let line) = event { sentences.publish(line.printedText) }
        }
        let state = self.state
        run.onStart = { started in
            // Stopped before it had started: it ends now.
            let stopping = state.value.withLock { value in
                value.controls = started
                return value.stopping
            }
            if stopping { started.send(.quit) }
        }
        let prepared = run
        running = Task {
            let run = prepared
            do {
                _ = try await run.run()
            } catch {
                // Said where the user looks (the page) and where the server's errors go.
                sentences.publish(userMessage(for: error))
                warn("The live session could not go on: \(userMessage(for: error))")
            }
            sentences.publish("The live session has ended.")
        }
    }

    /// Ends the session as "exit" would (it says goodbye and lets go of camera and models) and
    /// waits for it.
    public func stop() async {
        let controls = state.value.withLock { value in
            value.stopping = true
            return value.controls
        }
        controls?.send(.quit)
        await running.value
    }
}
