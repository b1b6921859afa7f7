import AssistCore
import Foundation

/// The sentence model, found and its vocabulary read on a thread of its own while the rest of a
/// session starts (the command language needs the detector's class names, the model does not).
/// For a session the model itself is compiled only when a line needs meaning, and released a
/// minute after the last one did (`SentenceEmbedder.IdleRelease.session`).
public final class SentenceModelLoading: @unchecked Sendable {
    /// Set once by the loading thread before `done` is signalled; read only after waiting on it.
    private var result: Result<SentenceEmbedder, MeaningModelError>?
    private let done = DispatchSemaphore(value: 0)

    public init(locator: ModelLocator = ModelLocator(), loadsNow: Bool = false,
                idleRelease: SentenceEmbedder.IdleRelease? = .session) {
        let thread = Thread { [self] in
            do throws(MeaningModelError) {
                result = .success(try SentenceEmbedder.located(locator: locator, loadsNow: loadsNow, idleRelease: idleRelease))
            } catch {
                result = .failure(error)
            }
            done.signal()
        }
        thread.name = "sentence model"
        thread.start()
    }

    /// Waits for the load to end; what it gave is kept, so every later call returns at once.
    public func embedder() throws(MeaningModelError) -> SentenceEmbedder {
        done.wait()
        done.signal()
        return try result!.get()
    }
}
