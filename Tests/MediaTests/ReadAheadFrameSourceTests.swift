import AssistCore
import Foundation
import TestSupport
import Media
import Testing

/// Frames numbered in `sourceName`; reads past `openReads` wait at a gate the test opens; the
/// read at `failingRead` throws as a damaged picture would. It notes every read it started, and
/// says when it is let go (the reading thread ended).
private final class GatedSource: FrameSource, @unchecked Sendable {
    /// Signalled when the source is let go, with the reads it had started by then.
    final class Release: @unchecked Sendable {
        let signal = DispatchSemaphore(value: 0)
        var readsStarted = 0
    }

    let name = "gated"
    let frameCount: Int
    let failingRead: Int?
    private let events = NSCondition()
    private var started = 0
    private var next = 0
    private let gate = DispatchSemaphore(value: 0)
    let letGo: Release

    init(frameCount: Int, openReads: Int, failingRead: Int? = nil, letGo: Release = Release()) {
        self.frameCount = frameCount
        self.failingRead = failingRead
        self.letGo = letGo
        for _ in 0..<openReads { gate.signal() }
    }

    deinit {
        letGo.readsStarted = started
        letGo.signal.signal()
    }

    var readsStarted: Int { events.withLock { started } }

    func open(_ count: Int) { for _ in 0..<count { gate.signal() } }

    /// Blocks until `count` reads have started: an event, not a time (the bound only ends a hang).
    func waitForReads(_ count: Int) {
        let hangGuard = Date().addingTimeInterval(180)
        events.withLock {
            while started < count { if !events.wait(until: hangGuard) { break } }
        }
    }

    func nextFrame() throws -> Frame? {
        let read = events.withLock { () -> Int in
            started += 1
            events.broadcast()
            return started
        }
        gate.wait()
        if read == failingRead { throw VideoInputError.damagedPictures(name: name) }
        guard next < frameCount else { return nil }
        defer { next += 1 }
        return Frame(image: RGBImage(width: 4, height: 2, filledWith: (UInt8(next), 0, 0)),
                     timestampSeconds: Double(next) / 10, sourceName: "frame \(next)")
    }
}

@Suite("Reading the next frame ahead (issue 20, item 3)")
struct ReadAheadFrameSourceTests {
    @Test("reading ahead gives every frame of a video, in order and identical, as reading it directly does")
    func sameFramesAsDirect() throws {
        let url = try VideoTestFiles.busThenZidaneMP4.get()
        let direct = try VideoTestFiles.readAll(try VideoFrameSource(.file(url)))
        let readAhead = try VideoTestFiles.readAll(ReadAheadFrameSource(try VideoFrameSource(.file(url))))
        #expect(direct.count == 20)
        #expect(readAhead.map(\.timestampSeconds) == direct.map(\.timestampSeconds))
        #expect(zip(readAhead, direct).allSatisfy { $0.image.pixels == $1.image.pixels })
    }

    @Test("a damaged frame mid-stream is thrown in its turn, and nothing is read past it until the consumer asks")
    func errorInItsTurn() throws {
        let source = GatedSource(frameCount: 4, openReads: 100, failingRead: 3)
        let frames = ReadAheadFrameSource(source)
        #expect(try frames.nextFrame()?.sourceName == "frame 0")
        #expect(try frames.nextFrame()?.sourceName == "frame 1")
        #expect(throws: VideoInputError.damagedPictures(name: "gated")) { try frames.nextFrame() }
        // The error was the last read: the source is read again only because the consumer asks.
        #expect(source.readsStarted == 3)
        #expect(try frames.nextFrame()?.sourceName == "frame 2")
        #expect(try frames.nextFrame()?.sourceName == "frame 3")
        #expect(try frames.nextFrame() == nil)
        #expect(try frames.nextFrame() == nil, "after the end the source is asked again, as it would be without reading ahead")
    }

    @Test("stop while the next frame is still being read returns at once, and nothing more is read")
    func stopDuringReadAhead() throws {
        let letGo = GatedSource.Release()
        var source: GatedSource? = GatedSource(frameCount: 10, openReads: 1, letGo: letGo)
        let frames = ReadAheadFrameSource(source!)
        #expect(try frames.nextFrame()?.sourceName == "frame 0")
        // The reading thread is now inside the second read, held at the gate.
        source!.waitForReads(2)
        frames.stop()
        #expect(try frames.nextFrame() == nil, "a stopped source hands out nothing, without waiting for the read")
        // The held read finishes; the thread then ends and lets the source go without another read.
        source!.open(1)
        source = nil
        // An event, not a time: the bound only ends a hang.
        #expect(letGo.signal.wait(timeout: .now() + 180) == .success, "the reading thread ended")
        #expect(letGo.readsStarted == 2)
    }

    @Test("the battery saver's smaller width applies from the next read")
    func widthFromNextRead() throws {
        let url = try VideoTestFiles.busThenZidaneMP4.get()
        let frames = ReadAheadFrameSource(try VideoFrameSource(.file(url)))
        #expect(try frames.nextFrame()?.image.width == 320)
        frames.maximumWidthPixels = 160
        // Frame 1 was read ahead at the old size; frame 2 is read at the new one.
        #expect(try frames.nextFrame()?.image.width == 320)
        #expect(try frames.nextFrame()?.image.width == 160)
    }
}
