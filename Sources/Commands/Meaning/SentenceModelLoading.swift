import AssistCore
import Foundation

/// The sentence model, loaded on a thread of its own while the rest of a session starts (the
/// detector's compilation is the longest part of a start, and this one needs none of it): the
/// command language needs the detector's class names, the model does not.
public final class SentenceModelLoading: @unchecked Sendable {
    /// Set once by the loading thread before `done` is signalled; read only after waiting on it.
    private var result: Result<SentenceEmbedder, MeaningModelError>?
    private let done = DispatchSemaphore(value: 0)

    public init(locator: ModelLocator = ModelLocator()) {
        let thread = Thread { [self] in
            do throws(MeaningModelError) { result = .success(try SentenceEmbedder.located(locator: locator)) } catch {
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
