import Foundation
import Media
import Synchronization

/// Live microphone audio through Media's PortAudio stream, at 16 kHz mono. The audio thread
/// only copies into a preallocated ring (a short lock, no allocation); `nextChunk()` waits for
/// 20 ms to be there. When the recogniser falls behind by more than the ring (2 s), the oldest
/// audio is dropped rather than growing a backlog the user would wait through.
public final class MicrophoneSpeechSource: SpeechAudioSource {
    private struct Ring {
        var samples: [Int16]
        var readIndex = 0
        var count = 0
        var stopped = false
    }

    /// Shared by the audio thread's closure and the reader (a Mutex cannot be copied into a closure).
    private final class SharedRing: Sendable {
        let mutex: Mutex<Ring>
        init(capacity: Int) { mutex = Mutex(Ring(samples: [Int16](repeating: 0, count: capacity))) }
    }

    private let stream: AudioDuplexStream
    private let shared: SharedRing
    private let capacity = 32_000
    public let device: AudioDevice

    /// - Parameter deviceName: part of the microphone's name; nil for the default one.
    public init(deviceName: String? = nil) throws {
        do {
            stream = try AudioDuplexStream()
            device = try stream.device(named: deviceName, forInput: true)
        } catch let error as AudioDeviceError {
            throw Self.translate(error)
        }
        shared = SharedRing(capacity: capacity)
        let output: AudioDevice
        do {
            // PortAudio's wrapper runs input with an output; the output is kept silent.
            output = try stream.device(named: nil, forInput: false)
        } catch {
            throw VoiceInputError.microphoneUnavailable(reason: "the audio wrapper needs an output device beside the microphone, and none was found")
        }
        let shared = self.shared
        let capacity = self.capacity
        // The wrapper opens min(2, the device's channels); both are averaged into one.
        let channels = min(2, max(1, device.inputChannels))
        let scale = 1 / Float(channels)
        do {
            _ = try stream.start(input: device, output: output, sampleRate: RecognizerAudio.sampleRateHz,
                                 framesPerBuffer: LiveReplay.chunkSamples) { input, output, frames in
                shared.mutex.withLock { ring in
                    for frame in 0..<frames {
                        var sum: Float = 0
                        for channel in 0..<channels { sum += input[frame * channels + channel] }
                        let write = (ring.readIndex + ring.count) % capacity
                        ring.samples[write] = Int16(max(-1, min(1, sum * scale)) * 32767)
                        if ring.count == capacity { ring.readIndex = (ring.readIndex + 1) % capacity } else { ring.count += 1 }
                    }
                }
                output.update(repeating: 0, count: frames * 2)
            }
        } catch let error as AudioDeviceError {
            throw Self.translate(error)
        }
    }

    deinit { stream.stop() }

    public var isRecording: Bool { false }

    public func nextChunk() throws -> [Int16]? {
        while true {
            let chunk: [Int16]? = shared.mutex.withLock { ring in
                if ring.stopped { return [] }
                guard ring.count >= LiveReplay.chunkSamples else { return nil }
                let start = ring.readIndex
                let chunk = (0..<LiveReplay.chunkSamples).map { ring.samples[(start + $0) % capacity] }
                ring.readIndex = (start + LiveReplay.chunkSamples) % capacity
                ring.count -= LiveReplay.chunkSamples
                return chunk
            }
            if let chunk { return chunk.isEmpty ? nil : chunk }
            guard stream.isActive else {
                throw VoiceInputError.microphoneUnavailable(reason: "the microphone stopped delivering sound; it may have been unplugged")
            }
            usleep(5_000)
        }
    }

    public func stop() {
        shared.mutex.withLock { $0.stopped = true }
        stream.stop()
    }

    static func translate(_ error: AudioDeviceError) -> VoiceInputError {
        switch error {
        case .noAudioDevice, .noInputDevice: return .microphoneMissing
        case .deviceNotFound(let name, let available): return .microphoneNotFound(name: name, available: available)
        case .noOutputDevice: return .microphoneUnavailable(reason: "no audio output device was found beside it")
        case .formatNotSupported(_, _, let reason): return .microphoneUnavailable(reason: "it cannot record at 16 000 Hz: \(reason)")
        case .portAudio(let text): return .microphoneUnavailable(reason: text)
        }
    }
}
