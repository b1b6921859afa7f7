import AssistCore
import CPortAudio
import Foundation
import Synchronization

/// Why live audio could not start, as one sentence.
public enum AudioDeviceError: UserFacingError, Equatable {
    case noAudioDevice
    case noInputDevice
    case noOutputDevice
    case deviceNotFound(name: String, available: [String])
    case formatNotSupported(sampleRate: Double, frames: Int, reason: String)
    case portAudio(String)

    public var userMessage: String {
        switch self {
        case .noAudioDevice:
            return "No audio device was found; connect a microphone and headphones (and check that the sound system sees them), then try again."
        case .noInputDevice:
            return "No audio input device was found; connect a microphone and try again."
        case .noOutputDevice:
            return "No audio output device was found; connect headphones and try again."
        case .deviceNotFound(let name, let available):
            return "There is no audio device named “\(name)”; the devices are: \(available.isEmpty ? "none" : available.joined(separator: ", "))."
        case .formatNotSupported(let rate, let frames, let reason):
            return "The audio devices cannot run at \(Int(rate)) Hz with \(frames)-frame buffers (\(reason))."
        case .portAudio(let text):
            return "The audio system reported an error: \(text)."
        }
    }
}

/// One audio device as PortAudio lists it.
public struct AudioDevice: Sendable, Equatable {
    public let index: Int
    public let name: String
    public let hostAPI: String
    public let inputChannels: Int
    public let outputChannels: Int
    public let defaultSampleRate: Double
    public let lowOutputLatencySeconds: Double

    /// Bluetooth links add 100–200 ms (A2DP codec buffering): far beyond the 50 ms a hearing aid
    /// may add before lips and sound drift apart. Judged by name, and by a reported latency
    /// above 50 ms.
    public var isProbablyBluetooth: Bool {
        let lower = name.lowercased()
        return ["bluetooth", "bluez", "a2dp", "airpods", "hands-free", "hfp"].contains { lower.contains($0) }
            || lowOutputLatencySeconds > 0.05
    }
}

/// The one wrapper of PortAudio: lists devices and runs a full-duplex float32 stream whose
/// callback hands each buffer to `process`, or an output-only stream whose callback asks
/// `render` for each buffer (`startOutput`). It owns the PortAudio session (initialised in
/// `init`, terminated in `deinit`) and the stream.
public final class AudioDuplexStream {
    /// Called on PortAudio's audio thread with interleaved input (`inputChannels`) and
    /// interleaved output (`outputChannels`) for `frames` frames. It must not allocate or lock.
    public typealias Process = (UnsafePointer<Float>, UnsafeMutablePointer<Float>, Int) -> Void

    /// Called on PortAudio's audio thread to fill interleaved output (`channels` per frame) for
    /// `frames` frames. It must not allocate or lock for long.
    public typealias Render = (UnsafeMutablePointer<Float>, _ frames: Int, _ channels: Int) -> Void

    private final class CallbackBox {
        let process: Process?
        let render: Render?
        let inputChannels: Int
        let outputChannels: Int
        /// Buffers the callback has been asked for: a stream whose count stops growing has lost its device.
        let callbacks = Atomic<Int>(0)
        /// Buffers PortAudio flagged as late or lost (under- and overflows: JACK's xruns).
        let dropouts = Atomic<Int>(0)
        init(process: Process?, render: Render?, inputChannels: Int, outputChannels: Int) {
            self.process = process
            self.render = render
            self.inputChannels = inputChannels
            self.outputChannels = outputChannels
        }
    }

    private var stream: UnsafeMutableRawPointer?
    private var box: Unmanaged<CallbackBox>?
    /// The latencies PortAudio reports for the open stream (0 when none is open), read when asked:
    /// JACK's are known only once the server has run its latency callback after the ports were
    /// connected, so a value read at start was sometimes 0 (the hearing bench once reported 5.3 ms,
    /// the chain alone, where the summary of the same settings said 9.3).
    public var inputLatencySeconds: Double { stream.flatMap { Pa_GetStreamInfo($0)?.pointee.inputLatency } ?? 0 }
    public var outputLatencySeconds: Double { stream.flatMap { Pa_GetStreamInfo($0)?.pointee.outputLatency } ?? 0 }

    /// PortAudio's `paFloat32` and `paClipOff` (cast macros Swift cannot import).
    private static let float32: PaSampleFormat = 0x0000_0001
    private static let clipOff: PaStreamFlags = 0x0000_0001

    public init() throws {
        // ALSA and JACK print pages of probing messages to stderr while PortAudio looks for
        // devices (e.g. on a machine without a sound card); the user gets our one sentence instead.
        let status = Self.withStandardErrorSilenced { Pa_Initialize() }
        try Self.check(status)
    }

    private static func withStandardErrorSilenced<T>(_ body: () -> T) -> T {
        let saved = dup(STDERR_FILENO)
        let null = open("/dev/null", O_WRONLY)
        guard saved >= 0, null >= 0 else {
            if saved >= 0 { close(saved) }
            if null >= 0 { close(null) }
            return body()
        }
        dup2(null, STDERR_FILENO)
        close(null)
        defer { dup2(saved, STDERR_FILENO); close(saved) }
        return body()
    }

    deinit {
        stop()
        Pa_Terminate()
    }

    public func devices() -> [AudioDevice] {
        let count = Pa_GetDeviceCount()
        guard count > 0 else { return [] }
        return (0..<count).compactMap { i in
            guard let info = Pa_GetDeviceInfo(i)?.pointee else { return nil }
            let host = Pa_GetHostApiInfo(info.hostApi).map { String(cString: $0.pointee.name) } ?? "?"
            return AudioDevice(index: Int(i), name: String(cString: info.name), hostAPI: host,
                               inputChannels: Int(info.maxInputChannels), outputChannels: Int(info.maxOutputChannels),
                               defaultSampleRate: info.defaultSampleRate, lowOutputLatencySeconds: info.defaultLowOutputLatency)
        }
    }

    /// The device whose name contains `name` (case-insensitive), or the default one.
    public func device(named name: String?, forInput: Bool) throws -> AudioDevice {
        let all = devices()
        guard !all.isEmpty else { throw AudioDeviceError.noAudioDevice }
        let usable = all.filter { forInput ? $0.inputChannels > 0 : $0.outputChannels > 0 }
        if let name {
            guard let match = usable.first(where: { $0.name.localizedCaseInsensitiveContains(name) }) else {
                throw AudioDeviceError.deviceNotFound(name: name, available: usable.map(\.name))
            }
            return match
        }
        let defaultIndex = Int(forInput ? Pa_GetDefaultInputDevice() : Pa_GetDefaultOutputDevice())
        if let device = usable.first(where: { $0.index == defaultIndex }) ?? usable.first { return device }
        throw forInput ? AudioDeviceError.noInputDevice : AudioDeviceError.noOutputDevice
    }

    /// Opens and starts the stream. `inputChannels` is 1 or 2 (the device's maximum, up to 2).
    public func start(input: AudioDevice, output: AudioDevice, sampleRate: Double, framesPerBuffer: Int,
                      process: @escaping Process) throws -> (inputChannels: Int, outputChannels: Int) {
        stop()
        let inputChannels = min(2, input.inputChannels), outputChannels = 2
        guard output.outputChannels >= 2 else {
            throw AudioDeviceError.formatNotSupported(sampleRate: sampleRate, frames: framesPerBuffer, reason: "the output device is not stereo")
        }
        var inParameters = PaStreamParameters(device: PaDeviceIndex(input.index), channelCount: Int32(inputChannels),
                                              sampleFormat: Self.float32,
                                              suggestedLatency: Pa_GetDeviceInfo(PaDeviceIndex(input.index)).pointee.defaultLowInputLatency,
                                              hostApiSpecificStreamInfo: nil)
        var outParameters = PaStreamParameters(device: PaDeviceIndex(output.index), channelCount: Int32(outputChannels),
                                               sampleFormat: Self.float32, suggestedLatency: output.lowOutputLatencySeconds,
                                               hostApiSpecificStreamInfo: nil)
        let supported = Pa_IsFormatSupported(&inParameters, &outParameters, sampleRate)
        if supported != 0 {
            throw AudioDeviceError.formatNotSupported(sampleRate: sampleRate, frames: framesPerBuffer,
                                                      reason: String(cString: Pa_GetErrorText(supported)))
        }
        let box = CallbackBox(process: process, render: nil, inputChannels: inputChannels, outputChannels: outputChannels)
        try openStream(box, input: &inParameters, output: &outParameters, sampleRate: sampleRate, framesPerBuffer: framesPerBuffer)
        return (inputChannels, outputChannels)
    }

    /// Opens and starts an output-only stream (speech, tones) on `output`: stereo, or mono where
    /// the device has one channel. Returns the channel count `render` is asked to fill.
    public func startOutput(_ output: AudioDevice, sampleRate: Double, framesPerBuffer: Int,
                            render: @escaping Render) throws -> Int {
        stop()
        let channels = min(2, output.outputChannels)
        guard channels >= 1 else { throw AudioDeviceError.noOutputDevice }
        var outParameters = PaStreamParameters(device: PaDeviceIndex(output.index), channelCount: Int32(channels),
                                               sampleFormat: Self.float32, suggestedLatency: output.lowOutputLatencySeconds,
                                               hostApiSpecificStreamInfo: nil)
        let supported = Pa_IsFormatSupported(nil, &outParameters, sampleRate)
        if supported != 0 {
            throw AudioDeviceError.formatNotSupported(sampleRate: sampleRate, frames: framesPerBuffer,
                                                      reason: String(cString: Pa_GetErrorText(supported)))
        }
        let box = CallbackBox(process: nil, render: render, inputChannels: 0, outputChannels: channels)
        try openStream(box, input: nil, output: &outParameters, sampleRate: sampleRate, framesPerBuffer: framesPerBuffer)
        return channels
    }

    /// Whether `output` plays `sampleRate` (checked before opening, e.g. 22 050 Hz speech).
    public func supportsOutput(_ output: AudioDevice, sampleRate: Double) -> Bool {
        var parameters = PaStreamParameters(device: PaDeviceIndex(output.index), channelCount: Int32(min(2, max(output.outputChannels, 1))),
                                            sampleFormat: Self.float32, suggestedLatency: output.lowOutputLatencySeconds,
                                            hostApiSpecificStreamInfo: nil)
        return Pa_IsFormatSupported(nil, &parameters, sampleRate) == 0
    }

    /// True while the stream runs: false once stopped, or after PortAudio ended it because the
    /// device failed or went away.
    public var isActive: Bool {
        guard let stream else { return false }
        return Pa_IsStreamActive(stream) == 1
    }

    /// How many buffers the device has asked for so far; when it stops growing while the stream
    /// claims to run, the device has stalled (an unplugged USB headset can do that on ALSA).
    public var callbackCount: Int { box?.takeUnretainedValue().callbacks.load(ordering: .relaxed) ?? 0 }

    /// How many buffers came late or were lost since the stream started (PortAudio's under- and
    /// overflow flags; JACK's xruns).
    public var dropoutCount: Int { box?.takeUnretainedValue().dropouts.load(ordering: .relaxed) ?? 0 }

    /// `paInputUnderflow | paInputOverflow | paOutputUnderflow | paOutputOverflow` (macros
    /// Swift cannot import).
    static let dropoutFlags: PaStreamCallbackFlags = 0x1 | 0x2 | 0x4 | 0x8

    /// After a dropout the sound jumps from where it stopped to where it resumes, a click; the
    /// block after it rises from silence instead (a linear fade over the block, at most 5 ms at
    /// 48 kHz), so a dropout is heard as a short dip.
    public static func fadeIn(_ output: UnsafeMutablePointer<Float>, frames: Int, channels: Int) {
        let length = min(frames, 240)
        guard length > 0 else { return }
        for frame in 0..<length {
            let gain = Float(frame) / Float(length)
            for channel in 0..<channels { output[frame * channels + channel] *= gain }
        }
    }

    private func openStream(_ callbackBox: CallbackBox, input: UnsafePointer<PaStreamParameters>?,
                      output: UnsafePointer<PaStreamParameters>, sampleRate: Double, framesPerBuffer: Int) throws {
        let box = Unmanaged.passRetained(callbackBox)
        var stream: UnsafeMutableRawPointer?
        let opened = Pa_OpenStream(&stream, input, output, sampleRate, UInt(framesPerBuffer), Self.clipOff, { input, output, frames, _, flags, user in
            let box = Unmanaged<CallbackBox>.fromOpaque(user!).takeUnretainedValue()
            box.callbacks.add(1, ordering: .relaxed)
            guard let output = output?.assumingMemoryBound(to: Float.self) else { return Int32(paContinue.rawValue) }
            if let render = box.render {
                render(output, Int(frames), box.outputChannels)
            } else if let process = box.process, let input = input?.assumingMemoryBound(to: Float.self) {
                process(input, output, Int(frames))
            } else {
                output.update(repeating: 0, count: Int(frames) * box.outputChannels)
            }
            if flags & AudioDuplexStream.dropoutFlags != 0 {
                box.dropouts.add(1, ordering: .relaxed)
                AudioDuplexStream.fadeIn(output, frames: Int(frames), channels: box.outputChannels)
            }
            return Int32(paContinue.rawValue)
        }, box.toOpaque())
        guard opened == 0, let stream else {
            box.release()
            throw AudioDeviceError.formatNotSupported(sampleRate: sampleRate, frames: framesPerBuffer, reason: String(cString: Pa_GetErrorText(opened)))
        }
        self.stream = stream
        self.box = box
        try Self.check(Self.withStandardErrorSilenced { Pa_StartStream(stream) })
    }

    public func stop() {
        if let stream {
            Pa_StopStream(stream)
            Pa_CloseStream(stream)
        }
        stream = nil
        box?.release()
        box = nil
    }

    private static func check(_ error: PaError) throws {
        if error != 0 { throw AudioDeviceError.portAudio(String(cString: Pa_GetErrorText(error))) }
    }
}
