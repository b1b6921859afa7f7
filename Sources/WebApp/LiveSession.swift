import AssistCore
import Foundation
import LiveGuidance
import ServiceLifecycle
import SessionControl

/// The live session `assist serve --input` runs: the same vision assistant as `assist see INPUT`,
/// as a service in the server's own group (it used to be a child `assist see`, whose printed lines
/// were parsed back). What it says is published to the Live page as it is said; the page's
/// commands reach it on its control socket like any session's; its end, and a start-up failure,
/// are said. When the server stops (Ctrl-C, SIGTERM) it ends as "exit" would: it says goodbye and
/// lets go of camera and models.
public struct LiveSession: Service {
    private let assistant: VisionAssistant
    private let sentences: SpokenSentences
    private let warn: @Sendable (String) -> Void

    /// Every sentence `run` says is published to `sentences`.
    public init(_ run: LiveGuidanceRun, sentences: SpokenSentences, warn: @escaping @Sendable (String) -> Void) {
        var run = run
        run.onEvent = { event in
            if case .said(let line) = event { sentences.publish(line.printedText) }
        }
        assistant = VisionAssistant(run)
        self.sentences = sentences
        self.warn = warn
    }

    public func run() async {
        await assistant.run()
        if case .failure(let error) = assistant.result {
            // Said where the user looks (the page) and where the server's errors go.
            sentences.publish(userMessage(for: error))
            warn("The live session could not go on: \(userMessage(for: error))")
        }
        sentences.publish("The live session has ended.")
    }
}
