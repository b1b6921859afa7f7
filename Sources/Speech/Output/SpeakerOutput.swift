import AssistCore
import Foundation
import Media
import Synchronization

/// Something that plays audio by pulling blocks from a callback: a sound card through PortAudio,
/// a paced null device for measurements, a fake in tests.
public protocol PlaybackDevice: AnyObject, Sendable {
    /// The device's name, for the user.
    var name: String { get }
    /// Starts pulling: `render(buffer, frames, channels)` fills interleaved frames. Throws when
    /// the device cannot play.
    func start(sampleRateHz: Double, render: @escaping @Sendable (UnsafeMutablePointer<Float>, Int, Int) -> Void) throws
    /// False once the device stopped, failed or went away.
    var isPlaying: Bool { get }
    /// How long a sample takes from the callback to the ear.
    var outputLatencySeconds: Double { get }
    func stop()
}

/// A sound card through PortAudio (Media's `AudioDuplexStream`, output only).
public final class SoundCardPlayback: PlaybackDevice, @unchecked Sendable {
    // PortAudio's stream is used from the supervising thread only; the audio thread reaches
    // nothing here but the render closure.
    /// nil between sessions (see `start`).
    private var stream: AudioDuplexStream?
    private var hasStarted = false
    private let requestedName: String?
    private var device: AudioDevice?
    private var lastCallbackCount = -1
    private var lastProgress = Date()
    public static let framesPerBuffer = 256

    /// `deviceName`: part of a device name, or an index as `assist devices` lists it; nil for the
    /// default output. Throws `AudioDeviceError` when there is no such device.
    public init(deviceName: String?) throws {
        let session = try AudioDuplexStream()
        stream = session
        requestedName = deviceName
        device = try Self.find(deviceName, in: session)
    }

    private static func find(_ name: String?, in stream: AudioDuplexStream) throws -> AudioDevice {
        if let name, let index = Int(name) {
            let outputs = stream.devices().filter { $0.outputChannels > 0 }
            guard let device = outputs.first(where: { $0.index == index }) else {
                throw AudioDeviceError.deviceNotFound(name: name, available: outputs.map { "\($0.index) \($0.name)" })
            }
            return device
        }
        do {
            return try stream.device(named: name, forInput: false)
        } catch AudioDeviceError.noAudioDevice {
            // The duplex wording asks for a microphone too; speech needs only an output.
            throw AudioDeviceError.noOutputDevice
        }
    }

    public var name: String { device?.name ?? requestedName ?? "default" }

    /// 22 050 Hz (the voice's own rate) where the device takes it, else the device's own rate.
    public func preferredSampleRateHz(voiceRateHz: Double) -> Double {
        guard let device, let stream else { return voiceRateHz }
        return stream.supportsOutput(device, sampleRate: voiceRateHz) ? voiceRateHz : device.defaultSampleRate
    }

    public func start(sampleRateHz: Double, render: @escaping @Sendable (UnsafeMutablePointer<Float>, Int, Int) -> Void) throws {
        if hasStarted || stream == nil {
            // PortAudio lists devices once per session: to see a device that was plugged back in,
            // end the session (releasing the old stream runs Pa_Terminate) and start a new one.
            stream = nil
            stream = try AudioDuplexStream()
        }
        hasStarted = true
        guard let stream else { throw AudioDeviceError.noOutputDevice }
        // A device that came back may have a new index: look it up again by name.
        let device = try Self.find(requestedName, in: stream)
        self.device = device
        _ = try stream.startOutput(device, sampleRate: sampleRateHz, framesPerBuffer: Self.framesPerBuffer, render: render)
        lastCallbackCount = -1
        lastProgress = Date()
    }

    public var isPlaying: Bool {
        guard let stream, stream.isActive else { return false }
        let count = stream.callbackCount
        if count != lastCallbackCount {
            lastCallbackCount = count
            lastProgress = Date()
            return true
        }
        // A running stream asks for a buffer every few milliseconds; a second of silence from
        // the callback means the device stalled.
        return Date().timeIntervalSince(lastProgress) < 1
    }

    public var outputLatencySeconds: Double { stream?.outputLatencySeconds ?? 0 }

    public func stop() { stream?.stop() }

    /// All output devices, for `assist devices`.
    public static func outputDevices() throws -> [AudioDevice] {
        try AudioDuplexStream().devices().filter { $0.outputChannels > 0 }
    }
}

/// Plays the utterance queue on a device and keeps it playing: when the device fails or goes
/// away mid-sentence the user is told (vibration and a sentence), speech meanwhile is dropped
/// rather than saved up, and playing resumes when a device is back.
public final class SpeakerOutput: Sendable {
    public let queue: UtteranceQueue
    private let device: any PlaybackDevice
    private let feedback: Feedback
    /// How often a lost device is tried again.
    public let retrySeconds: Double

    private struct State {
        var lost = false
        var lastTry = Date.distantPast
        var lostSince = Date()
    }
    private let state = Mutex(State())
    private let running = Atomic<Bool>(false)

    public init(queue: UtteranceQueue, device: any PlaybackDevice, feedback: Feedback, retrySeconds: Double = 2) {
        self.queue = queue
        self.device = device
        self.feedback = feedback
        self.retrySeconds = retrySeconds
    }

    /// Starts playing. Throws when no device can play at all; later losses are handled by `check`.
    public func start() throws {
        try device.start(sampleRateHz: queue.sampleRateHz, render: Self.renderer(for: queue))
    }

    /// Starts a thread that calls `check` four times a second.
    public func startMonitoring() {
        running.store(true, ordering: .relaxed)
        let thread = Thread { [self] in
            while running.load(ordering: .relaxed) {
                Thread.sleep(forTimeInterval: 0.25)
                check()
            }
        }
        thread.name = "speaker monitor"
        thread.start()
    }

    public func stopMonitoring() {
        running.store(false, ordering: .relaxed)
    }

    /// Looks at the device once: reports a loss, discards speech while it lasts, and restarts
    /// the device every `retrySeconds`.
    public func check(now: Date = Date()) {
        queue.releaseFinishedTracks()
        let playing = device.isPlaying
        let (justLost, wasLost) = state.withLock { state -> (Bool, Bool) in
            if !playing && !state.lost {
                state.lost = true
                state.lostSince = now
                state.lastTry = now
                return (true, false)
            }
            return (false, state.lost)
        }
        if justLost {
            device.stop()
            feedback.alert("The audio device \(device.name) stopped; speech will resume when a device is back.")
            return
        }
        guard wasLost else { return }
        // Nobody hears this audio: render it away so stale announcements are not saved up.
        let elapsed = state.withLock { state -> Double in
            defer { state.lostSince = now }
            return now.timeIntervalSince(state.lostSince)
        }
        if elapsed > 0 { _ = queue.renderBlock(frameCount: Int(elapsed * queue.sampleRateHz)) }
        let due = state.withLock { state -> Bool in
            guard now.timeIntervalSince(state.lastTry) >= retrySeconds else { return false }
            state.lastTry = now
            return true
        }
        guard due else { return }
        do {
            try start()
            state.withLock { $0.lost = false }
            feedback.alert("The audio device \(device.name) is back; speech resumes.")
        } catch {
            // Still gone; the user was told once.
        }
    }

    /// Blocks until everything queued has been played, and the device's latency has passed.
    public func waitUntilPlayed(timeoutSeconds: Double = 60) {
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while !queue.isIdle && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        Thread.sleep(forTimeInterval: device.outputLatencySeconds + 0.05)
    }

    /// The device callback: stereo straight from the queue; mono devices get both channels mixed.
    static func renderer(for queue: UtteranceQueue) -> @Sendable (UnsafeMutablePointer<Float>, Int, Int) -> Void {
        let scratch = StereoScratch(frames: 4096)
        return { buffer, frames, channels in
            if channels == 2 {
                queue.render(into: UnsafeMutableBufferPointer(start: buffer, count: frames * 2), frameCount: frames)
                return
            }
            var done = 0
            while done < frames {
                let n = min(scratch.frames, frames - done)
                queue.render(into: scratch.buffer, frameCount: n)
                for i in 0..<n { buffer[done + i] = (scratch.buffer[2 * i] + scratch.buffer[2 * i + 1]) * 0.5 }
                done += n
            }
        }
    }
}

/// A stereo buffer allocated once, for the audio thread (which must not allocate).
private final class StereoScratch: @unchecked Sendable {
    let frames: Int
    let buffer: UnsafeMutableBufferPointer<Float>
    init(frames: Int) {
        self.frames = frames
        buffer = .allocate(capacity: frames * 2)
        buffer.initialize(repeating: 0)
    }
    deinit { buffer.deallocate() }
}
