import Foundation
import Synchronization
import SessionControl

/// How the Live page gets the running session's latest analysed frame (its view socket); nil
/// before the session has analysed one.
public typealias SessionViewSource = @Sendable () async throws -> LiveViewFrame?

/// The camera view on the Live page: the session's latest analysed frame as a JPEG, each object
/// in a yellow box with its label and distance (drawn by page.js from `/live/view`), the scene's
/// description as the picture's text alternative.
///
/// The frames fetched are held here, in memory, only until the next ones replace them: the page's
/// picture request (`/live/frame/N.jpg`) follows its `/live/view` request, and nothing the page
/// shows is stored.
final class LiveViewPanel: Sendable {
    let source: SessionViewSource
    /// The last frames fetched, newest last: two, so a page still loading the previous picture
    /// gets it while another page asks for the next.
    private let held = Mutex<[LiveViewFrame]>([])
    static let heldFrames = 2

    init(source: @escaping SessionViewSource) {
        self.source = source
    }

    /// What `/live/view` answers: the view, where its picture is, and a sentence for the page
    /// (the description, or why there is nothing to show).
    struct Reply: Encodable, Equatable {
        var view: LiveView?
        var image: String?
        var sentence: String
    }

    static let noSession = "No camera view: no running session is sharing one."
    static let noFrameYet = "No view yet: the session has not analysed a frame."

    /// Fetches the session's latest frame and holds it for its picture request.
    func latest() async -> Reply {
        let frame: LiveViewFrame?
        do { frame = try await source() } catch {
            held.withLock { $0 = [] }
            return Reply(view: nil, image: nil, sentence: Self.noSession)
        }
        guard let frame else {
            held.withLock { $0 = [] }
            return Reply(view: nil, image: nil, sentence: Self.noFrameYet)
        }
        held.withLock { frames in
            frames.removeAll { $0.view.sequenceNumber == frame.view.sequenceNumber }
            frames.append(frame)
            if frames.count > Self.heldFrames { frames.removeFirst(frames.count - Self.heldFrames) }
        }
        return Reply(view: frame.view, image: frame.jpeg.bytes.isEmpty ? nil : Self.imagePath(frame.view.sequenceNumber),
                     sentence: Self.alternative(frame.view))
    }

    /// The picture of a frame fetched by `latest`, while it is held.
    func picture(sequenceNumber: Int) -> [UInt8]? {
        held.withLock { $0.first { $0.view.sequenceNumber == sequenceNumber }?.jpeg.bytes }
    }

    static func imagePath(_ sequenceNumber: Int) -> String { "/live/frame/\(sequenceNumber).jpg" }

    /// The picture's text alternative: what the session would say about it.
    static func alternative(_ view: LiveView) -> String {
        view.description.isEmpty ? "Nothing detected." : view.description
    }

    /// The section of the Live page; page.js fills it and keeps it current.
    static func render() -> String {
        """
        <section aria-labelledby="view-heading" class="view-section"><h2 id="view-heading">What the camera sees</h2>
        <div class="row view-controls">
        <button type="button" id="view-pause" aria-pressed="false" hidden>Pause the view</button>
        <button type="button" id="view-update" hidden>Update the view</button>
        </div>
        <p id="view-note" class="help">The view needs script; the sentences below say what is seen.</p>
        <figure class="view" id="view" hidden>
        <div class="view-frame" id="view-frame"><img id="view-image" alt=""></div>
        <figcaption id="view-caption"></figcaption>
        </figure>
        <script src="/assets/live-view.js" defer></script>
        </section>
        """
    }
}
