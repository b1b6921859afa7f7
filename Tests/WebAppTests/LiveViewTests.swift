import AssistCore
import Foundation
import Hummingbird
import LiveGuidance
import Media
import Perception
import SessionControl
import TestSupport
import Testing
@testable import WebApp

/// The Live page's camera view: what the session analysed last, from its view socket (a real
/// Unix socket here) through the web app's routes.
@Suite("The Live page shows what the session analysed, and keeps none of it")
struct LiveViewTests {
    static let bus = SharedFiles.bus

    static func located(_ label: String, _ box: BoundingBox, meters: Double?, direction: HorizontalDirection) -> LocatedObject {
        LocatedObject(detection: Detection(classIndex: label == "bus" ? 5 : 0, label: label, confidence: 0.9, box: box),
                      direction: Direction(angleDegrees: 0, elevationDegrees: 0, horizontal: direction, vertical: .level, clockHour: 12),
                      distance: meters.map { DistanceEstimate(meters: $0, method: .objectSize, relativeError: 0.2) } ?? .unknown)
    }

    /// bus.jpg as a session would have analysed it: a bus and a person (boxes in its pixels).
    static func analysedBus() throws -> AnalysedFrame {
        let image = try ImageFile(bus).decode()
        return AnalysedFrame(sequenceNumber: 7, timeSeconds: 3.5, image: image,
                             objects: [located("person", BoundingBox(x0: 50, y0: 400, x1: 245, y1: 905), meters: 0.8, direction: .left),
                                       located("bus", BoundingBox(x0: 18, y0: 230, x1: 805, y1: 750), meters: 6.4, direction: .ahead)],
                             description: ["A person, less than 1 meter, on your left.", "A bus, 6 meters, ahead."],
                             distanceUnit: .meters)
    }

    struct ViewReply: Decodable {
        var view: LiveView?
        var image: String?
        var sentence: String
    }

    @Test("the view and its picture are refused without the access token")
    func refusedWithoutToken() async throws {
        let web = try WebTestApp()
        defer { web.remove() }
        for path in ["/live/view", "/live/frame/1.jpg"] {
            let reply = try await web.request(.get, path, cookie: nil)
            #expect(reply.status == .unauthorized, "\(path)")
            #expect(reply.body.contains("needs the access token"), "\(path)")
            #expect(!(reply.headers[.contentType] ?? "").contains("image"))
        }
    }

    @Test("the view's objects are the session's detections, its text is the description, its picture a JPEG of the frame; nothing is cached")
    func viewOfTheSession() async throws {
        let frame = try Self.analysedBus()
        let folder = try TemporaryFolder.make("view")
        defer { try? FileManager.default.removeItem(at: folder) }
        let socketPath = folder.appendingPathComponent("view.sock").path
        let server = try LiveViewServer(path: socketPath, latest: { frame })
        defer { server.stop() }
        let client = LiveViewClient(socketPath: socketPath)
        let web = try WebTestApp(viewOfSession: { try await client.latestAway() })
        defer { web.remove() }

        let reply = try await web.request(.get, "/live/view")
        #expect(reply.status == .ok)
        #expect(reply.headers[.cacheControl] == "no-store")
        #expect(reply.headers[.contentType] == "application/json")
        let decoded = try JSONDecoder().decode(ViewReply.self, from: Data(reply.body.utf8))
        let view = try #require(decoded.view)
        #expect(view == LiveView(frame))
        #expect(view.objects.map(\.label) == frame.objects.map(\.label))
        #expect(view.objects.map(\.box) == frame.objects.map(\.detection.box))
        #expect(view.objects.map(\.distanceText) == ["under 1 m", "6 m"])
        #expect(view.objects.map(\.direction) == [.left, .ahead])
        #expect((view.width, view.height) == (810, 1080))
        #expect(decoded.sentence == "A person, less than 1 meter, on your left. A bus, 6 meters, ahead.")
        #expect(decoded.image == "/live/frame/7.jpg")

        let picture = try await web.request(.get, "/live/frame/7.jpg")
        #expect(picture.status == .ok)
        #expect(picture.headers[.contentType] == "image/jpeg")
        #expect(picture.headers[.cacheControl] == "no-store")
        let jpeg = picture.bytes
        #expect(jpeg.prefix(2) == [0xFF, 0xD8] && jpeg.suffix(2) == [0xFF, 0xD9])
        let size = try #require(Self.jpegSize(jpeg))
        #expect(size == (810, 1080))
        // A frame the web app no longer holds is gone, not fetched again.
        let gone = try await web.request(.get, "/live/frame/6.jpg")
        #expect(gone.status == .notFound)
        #expect(gone.headers[.cacheControl] == "no-store")
    }

    @Test("without a session, or before its first frame, the view says so in a sentence")
    func noSessionNoFrame() async throws {
        let none = try WebTestApp(viewOfSession: { throw ControlSocketError.noSession(path: "/nowhere/view.sock") })
        defer { none.remove() }
        let noSession = try JSONDecoder().decode(ViewReply.self, from: Data(try await none.request(.get, "/live/view").body.utf8))
        #expect(noSession.view == nil && noSession.image == nil)
        #expect(noSession.sentence == "No camera view: no running session is sharing one.")
        let waiting = try WebTestApp(viewOfSession: { nil })
        defer { waiting.remove() }
        let noFrame = try JSONDecoder().decode(ViewReply.self, from: Data(try await waiting.request(.get, "/live/view").body.utf8))
        #expect(noFrame.view == nil)
        #expect(noFrame.sentence == "No view yet: the session has not analysed a frame.")
    }

    @Test("the Live page has the view with its controls, and every setting on the Settings page has its label")
    func pages() async throws {
        let web = try WebTestApp()
        defer { web.remove() }
        let live = try await web.request(.get, "/live").body
        #expect(live.contains("<h2 id=\"view-heading\">What the camera sees</h2>"))
        #expect(live.contains("<script src=\"/assets/live-view.js\" defer></script>"))
        #expect(live.contains("id=\"view-pause\" aria-pressed=\"false\""))
        let settings = try await web.request(.get, "/settings").body
        #expect(settings.contains("<label for=\"setting-speech-pitch\">Pitch</label>"))
        #expect(settings.contains("<code>speech.pitch</code>"))
        #expect(settings.contains("aria-label=\"Save Distance units\""))
    }

    /// Width and height from a baseline or progressive JPEG's frame header (SOF0/SOF2).
    static func jpegSize(_ bytes: [UInt8]) -> (Int, Int)? {
        var index = 2
        while index + 9 < bytes.count {
            guard bytes[index] == 0xFF else { return nil }
            let marker = bytes[index + 1]
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            if marker == 0xC0 || marker == 0xC2 {
                let height = Int(bytes[index + 5]) << 8 | Int(bytes[index + 6])
                let width = Int(bytes[index + 7]) << 8 | Int(bytes[index + 8])
                return (width, height)
            }
            index += 2 + length
        }
        return nil
    }
}
