import AssistCore
import Foundation
import TestSupport
import Media
import Testing

/// A source that gives the frames it is told to, numbered in `sourceName`, each only once the test
/// lets it (`release`), then ends or fails.
private final class ScriptedSource: ScalableFrameSource, @unchecked Sendable {
    let name = "scripted"
    var maximumWidthPixels: Int?
    /// Calls of nextFrame so far, counting one still waiting at the gate.
    private let reads = NSCondition()
    private var started = 0
    let timestamps: [Double]
    let failure: VideoInputError?
    let gate = DispatchSemaphore(value: 0)
    private var next = 0
    private let width: Int

    init(timestamps: [Double], failure: VideoInputError? = nil, ungated: Bool = false, width: Int = 4) {
        self.timestamps = timestamps
        self.failure = failure
        self.width = width
        if ungated { for _ in 0...timestamps.count { gate.signal() } }
    }

    func release(_ count: Int = 1) { for _ in 0..<count { gate.signal() } }

    /// Blocks until the reader has started its `count`th read: the reader stores a frame before it
    /// asks for the next, so `count` reads started means `count - 1` frames were read. An event,
    /// not a time; the 3-minute bound only ends a hang.
    func waitForReads(_ count: Int) {
        let hangGuard = Date().addingTimeInterval(180)
        reads.withLock {
            while started < count { if !reads.wait(until: hangGuard) { break } }
        }
    }

    func nextFrame() throws -> Frame? {
        let width = min(self.width, maximumWidthPixels ?? self.width)
        reads.withLock { started += 1; reads.broadcast() }
        gate.wait()
        guard next < timestamps.count else {
            if let failure { throw failure }
            return nil
        }
        defer { next += 1 }
        return Frame(image: RGBImage(width: width, height: 2, filledWith: (UInt8(next), 0, 0)),
                     timestampSeconds: timestamps[next], sourceName: "frame \(next)")
    }
}

@Suite("Newest frame wins")
struct VideoLatestFrameTests {
    @Test("a consumer that asks after ten frames were read gets the tenth, not the first; the nine others are dropped")
    func newestWins() async throws {
        let source = ScriptedSource(timestamps: (0..<10).map { Double($0) / 10 }, ungated: true)
        let buffer = LatestFrameBuffer(source: source)
        source.waitForReads(11)
        #expect(buffer.framesRead == 10)
        let frame = try await buffer.nextFrame()
        #expect(frame?.sourceName == "frame 9")
        #expect(buffer.framesDropped == 9)
        #expect(try await buffer.nextFrame() == nil, "the same frame is never handed out twice; the source ended")
    }

    @Test("a consumer that asks before the camera has a frame waits for it")
    func waitsForAFrame() async throws {
        let source = ScriptedSource(timestamps: [0, 0.1])
        let buffer = LatestFrameBuffer(source: source)
        async let first = buffer.nextFrame()
        try await Task.sleep(for: .milliseconds(50))
        source.release()
        #expect(try await first?.sourceName == "frame 0")
        source.release()
        #expect(try await buffer.nextFrame()?.sourceName == "frame 1")
        #expect(buffer.framesDropped == 0)
        source.release()
        #expect(try await buffer.nextFrame() == nil)
    }

    @Test("a camera unplugged mid-run: the last good frame is handed out, then the error")
    func errorAfterLastFrame() async throws {
        let source = ScriptedSource(timestamps: [0], failure: .cameraDisconnected(device: "/dev/video0"), ungated: true)
        let buffer = LatestFrameBuffer(source: source)
        source.waitForReads(2)
        try await Task.sleep(for: .milliseconds(20))
        #expect(try await buffer.nextFrame()?.sourceName == "frame 0")
        await #expect(throws: VideoInputError.cameraDisconnected(device: "/dev/video0")) { try await buffer.nextFrame() }
    }

    @Test("stopping wakes a waiting consumer with the end of the frames")
    func stopEndsWaiting() async throws {
        let source = ScriptedSource(timestamps: [0])
        let buffer = LatestFrameBuffer(source: source)
        async let waiting = buffer.nextFrame()
        try await Task.sleep(for: .milliseconds(30))
        buffer.stop()
        #expect(try await waiting == nil)
        source.release(2)
    }

    @Test("a video file read at its own clock in real time takes as long as the video")
    func realTimeFile() async throws {
        let source = try VideoFrameSource(.file(try VideoTestFiles.busThenZidaneMP4.get()))
        let started = ContinuousClock.now
        let buffer = LatestFrameBuffer(source: source, pace: .sourceClockInRealTime, executor: OwnThreads.shared)
        var frames = 0
        while try await buffer.nextFrame() != nil { frames += 1 }
        let elapsed = ContinuousClock.now - started
        // 20 frames at 10 fps: the last is due at 1.9 s. How many the consumer took depends on how
        // busy the machine is; every frame was either taken or dropped.
        #expect(elapsed >= .milliseconds(1850), "\(elapsed)")
        #expect(buffer.framesRead == 20)
        #expect(frames + buffer.framesDropped == 20)
    }

    @Test("battery saver scales a running source down from the frame after the one being read")
    func scalingWhileRunning() async throws {
        let source = ScriptedSource(timestamps: [0, 0.1, 0.2], width: 640)
        let buffer = LatestFrameBuffer(source: source)
        source.release()
        #expect(try await buffer.nextFrame()?.image.width == 640)
        // The reader is already waiting in the source for frame 1 when the width changes.
        source.waitForReads(2)
        let pacing = FramePacing(rate: .asFastAsPossible, batterySaving: true)
        buffer.setMaximumWidthPixels(pacing.maximumWidthPixels(sourceWidthPixels: 640))
        source.release()
        #expect(try await buffer.nextFrame()?.image.width == 640)
        source.release()
        #expect(try await buffer.nextFrame()?.image.width == 320)
        source.release()
        #expect(try await buffer.nextFrame() == nil)
    }
}

@Suite("Pacing")
struct VideoPacingTests {
    @Test("a fixed interval waits out the rest of the interval; battery saving doubles it")
    func fixedInterval() {
        let every2 = FramePacing(rate: .fixedInterval(seconds: 2))
        #expect(every2.waitSeconds(sinceLastFrame: nil, consumerWorkedSeconds: 0) == 0)
        #expect(every2.waitSeconds(sinceLastFrame: 0.5, consumerWorkedSeconds: 0.5) == 1.5)
        #expect(every2.waitSeconds(sinceLastFrame: 3, consumerWorkedSeconds: 3) == 0, "a slow consumer never waits")
        let saving = FramePacing(rate: .fixedInterval(seconds: 2), batterySaving: true)
        #expect(saving.waitSeconds(sinceLastFrame: 0.5, consumerWorkedSeconds: 0.5) == 3.5)
    }

    @Test("as fast as possible never waits; battery saving rests as long as the work took, halving the rate")
    func asFastAsPossible() {
        #expect(FramePacing(rate: .asFastAsPossible).waitSeconds(sinceLastFrame: 0.2, consumerWorkedSeconds: 0.2) == 0)
        let saving = FramePacing(rate: .asFastAsPossible, batterySaving: true)
        #expect(saving.waitSeconds(sinceLastFrame: 0.2, consumerWorkedSeconds: 0.2) == 0.2)
        #expect(saving.maximumWidthPixels(sourceWidthPixels: 640) == 320)
        #expect(FramePacing(rate: .asFastAsPossible).maximumWidthPixels(sourceWidthPixels: 640) == nil)
    }

    @Test("a pacer at one frame every 0.2 s takes the newest frame each time")
    func pacerTakesNewest() async throws {
        let source = ScriptedSource(timestamps: (0..<100).map { Double($0) / 100 })
        let buffer = LatestFrameBuffer(source: source)
        let pacer = FramePacer(buffer: buffer, pacing: FramePacing(rate: .fixedInterval(seconds: 0.2)))
        source.release()
        let started = ContinuousClock.now
        #expect(try await pacer.nextFrame()?.sourceName == "frame 0")
        source.release(5)
        source.waitForReads(7)
        let second = try await pacer.nextFrame()
        #expect(ContinuousClock.now - started >= .milliseconds(195))
        #expect(second?.sourceName == "frame 5")
        buffer.stop()
        source.release(200)
    }

    @Test("offline at the video's clock: with 0.25 s of work per frame at 10 fps, frames 0, 2, 5, 7… are processed")
    func videoClockSkipsDeterministically() throws {
        let pacer = VideoClockPacer(source: ScriptedSource(timestamps: (0..<20).map { Double($0) / 10 }, ungated: true))
        var processed: [String] = []
        while let frame = try pacer.nextFrame(afterProcessingFor: 0.25) { processed.append(frame.sourceName) }
        // Work ends at 0.25, 0.5, 0.75…: the newest frame then is ⌊2.5 k⌋; at 2.25 s the last
        // frame (1.9 s) has not been worked on yet, so it is.
        #expect(processed == [0, 2, 5, 7, 10, 12, 15, 17, 19].map { "frame \($0)" })
        #expect(pacer.processedFrameCount == 9)
        #expect(pacer.skippedFrameCount == 11)
    }

    @Test("offline, a consumer faster than the video gets every frame, waiting on the video's clock")
    func videoClockFastConsumer() throws {
        let pacer = VideoClockPacer(source: ScriptedSource(timestamps: [0, 0.5, 1.0, 1.5], ungated: true))
        var timestamps: [Double] = []
        while let frame = try pacer.nextFrame(afterProcessingFor: 0.01) { timestamps.append(frame.timestampSeconds) }
        #expect(timestamps == [0, 0.5, 1.0, 1.5])
        #expect(pacer.skippedFrameCount == 0)
        #expect(abs(pacer.nowSeconds - 1.51) < 1e-9, "the last frame's work ends 0.01 s after it came")
    }

    @Test("offline pacing of a real video file gives the same frames on every run")
    func videoClockFileIsDeterministic() throws {
        func run() throws -> [Double] {
            let pacer = VideoClockPacer(source: try VideoFrameSource(.file(try VideoTestFiles.busThenZidaneMP4.get())))
            var timestamps: [Double] = []
            while let frame = try pacer.nextFrame(afterProcessingFor: 0.33) { timestamps.append(frame.timestampSeconds) }
            return timestamps
        }
        let first = try run()
        // Work ends at 0.33 k s; the newest frame then is at ⌊3.3 k⌋ / 10 s.
        let expected = [0, 0.3, 0.6, 0.9, 1.3, 1.6, 1.9]
        #expect(first.count == expected.count && zip(first, expected).allSatisfy { abs($0 - $1) < 1e-6 }, "\(first)")
        #expect(try run() == first)
    }
}

@Suite("Battery")
struct VideoBatteryTests {
    /// A fake /sys/class/power_supply with the given entries (name → attribute files).
    private func powerSupply(_ entries: [String: [String: String]]) throws -> URL {
        let root = try TemporaryFolder.make("media-tests")
        for (entry, attributes) in entries {
            let folder = root.appendingPathComponent(entry)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for (name, value) in attributes { try Data("\(value)\n".utf8).write(to: folder.appendingPathComponent(name)) }
        }
        return root
    }

    @Test("a desktop with no battery never turns the saver on")
    func noBattery() throws {
        let root = try powerSupply(["AC": ["type": "Mains", "online": "1"]])
        defer { try? FileManager.default.removeItem(at: root) }
        let monitor = BatteryMonitor(powerSupplyFolder: root)
        #expect(monitor.reading() == nil)
        #expect(!monitor.shouldSaveBattery(wasSaving: false))
        #expect(!BatteryMonitor(powerSupplyFolder: URL(fileURLWithPath: "/nonexistent")).shouldSaveBattery(wasSaving: true))
    }

    @Test("the saver turns on below 15 % on battery, stays on until 20 %, and never while charging")
    func thresholds() throws {
        for (capacity, status, wasSaving, expected) in [(14, "Discharging", false, true), (15, "Discharging", false, false),
                                                         (17, "Discharging", true, true), (20, "Discharging", true, false),
                                                         (5, "Charging", false, false), (5, "Not charging", true, false)] {
            let root = try powerSupply(["BAT0": ["type": "Battery", "capacity": "\(capacity)", "status": status],
                                        "AC": ["type": "Mains"]])
            defer { try? FileManager.default.removeItem(at: root) }
            #expect(BatteryMonitor(powerSupplyFolder: root).shouldSaveBattery(wasSaving: wasSaving) == expected,
                    "\(capacity) % \(status), was saving: \(wasSaving)")
        }
    }

    @Test("a wireless mouse's low battery does not count; two laptop batteries are averaged")
    func deviceBatteriesAndAveraging() throws {
        let root = try powerSupply(["hid-mouse-battery": ["type": "Battery", "scope": "Device", "capacity": "3", "status": "Discharging"],
                                    "BAT0": ["type": "Battery", "capacity": "10", "status": "Discharging"],
                                    "BAT1": ["type": "Battery", "capacity": "30", "status": "Unknown"]])
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(BatteryMonitor(powerSupplyFolder: root).reading() == .init(capacityPercent: 20, isDischarging: true))
    }
}
