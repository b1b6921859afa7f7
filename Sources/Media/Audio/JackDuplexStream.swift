import AssistCore
import CJack
import Foundation
import Synchronization

/// Why a JACK client could not start, as one sentence.
public enum JackError: UserFacingError, Equatable {
    case noServer
    case failed(String)

    public var userMessage: String {
        switch self {
        case .noServer: return "No JACK server is running."
        case .failed(let what): return "The JACK server refused the hearing aid: \(what)."
        }
    }
}

/// The one wrapper of libjack: a full-duplex client of a running JACK server with its own
/// input and output ports, connected to the server's physical ports. Used directly rather than
/// through PortAudio because PortAudio waits minutes to stop a stream whose server stopped;
/// here a server that goes away is noticed (`isActive` turns false) and the client can be
/// closed at once and opened again.
///
/// The callback gets interleaved input (`inputChannels`) and fills interleaved stereo, like
/// `AudioDuplexStream.Process`. Owns the client (closed in `close` or `deinit`).
public final class JackDuplexStream: @unchecked Sendable {
    // `client` and the port list are touched by the owning thread only; the audio thread reaches
    // the callback box.
    private final class CallbackBox: @unchecked Sendable {
        let process: AudioDuplexStream.Process
        let inputChannels: Int
        var inputPorts: [OpaquePointer] = []
        var outputPorts: [OpaquePointer] = []
        /// The input ports, then the two output ports, as the process callback reads them: filled
        /// before the client is activated, never changed after.
        let audioThreadPorts: UnsafeMutablePointer<OpaquePointer>
        let interleavedInput: UnsafeMutablePointer<Float>
        let interleavedOutput: UnsafeMutablePointer<Float>
        let capacity: Int
        let callbacks = Atomic<Int>(0)
        let dropouts = Atomic<Int>(0)
        /// Set by JACK's xrun callback; the next block fades in (see `AudioDuplexStream.fadeIn`).
        let dropoutPending = Atomic<Bool>(false)
        let serverGone = Atomic<Bool>(false)

        init(process: @escaping AudioDuplexStream.Process, inputChannels: Int, capacity: Int) {
            self.process = process
            self.inputChannels = inputChannels
            self.capacity = capacity
            audioThreadPorts = .allocate(capacity: inputChannels + 2)
            interleavedInput = .allocate(capacity: capacity * inputChannels)
            interleavedInput.initialize(repeating: 0, count: capacity * inputChannels)
            interleavedOutput = .allocate(capacity: capacity * 2)
            interleavedOutput.initialize(repeating: 0, count: capacity * 2)
        }

        deinit {
            audioThreadPorts.deallocate()
            interleavedInput.deallocate()
            interleavedOutput.deallocate()
        }
    }

    private var client: OpaquePointer?
    private let box: CallbackBox
    private let unmanagedBox: Unmanaged<CallbackBox>
    public let clientName: String
    public let sampleRate: Double
    public let blockFrames: Int
    /// The server's reported latency of the physical ports we are connected to, seconds (0 once
    /// stopped). Read when asked: the server works latencies out after the connections are made,
    /// on its own time, so a value read right after connecting was sometimes still 0 (the hearing
    /// bench once reported 5.3 ms at 64-frame periods, the chain alone, where 9.3 was due).
    public var inputLatencySeconds: Double { portLatencySeconds(box.inputPorts.first, mode: JackCaptureLatency) }
    public var outputLatencySeconds: Double { portLatencySeconds(box.outputPorts.first, mode: JackPlaybackLatency) }

    private func portLatencySeconds(_ port: OpaquePointer?, mode: jack_latency_callback_mode_t) -> Double {
        guard client != nil, let port else { return 0 }
        var range = jack_latency_range_t()
        jack_port_get_latency_range(port, mode, &range)
        return Double(range.max) / sampleRate
    }
    /// The physical ports we were connected to.
    public private(set) var captureName = "none"
    public private(set) var playbackName = "none"

    /// Opens a client called `clientName` on the server named `serverName`, or by
    /// `JACK_DEFAULT_SERVER` (or the default one), with `inputChannels` input ports (`in_1`…) and
    /// two output ports (`out_1`, `out_2`), activates it and connects it to the physical ports.
    /// Throws `noServer` when none runs.
    public init(clientName: String = "assist-hear", serverName: String? = nil, inputChannels: Int,
                process: @escaping AudioDuplexStream.Process) throws {
        Self.silenceLibraryMessages()
        var status = jack_status_t(rawValue: 0)
        let opened = if let serverName { cjack_client_open_on(clientName, serverName, &status) } else { cjack_client_open(clientName, &status) }
        guard let client = opened else { throw JackError.noServer }
        self.client = client
        self.clientName = String(cString: jack_get_client_name(client))
        sampleRate = Double(jack_get_sample_rate(client))
        blockFrames = Int(jack_get_buffer_size(client))
        box = CallbackBox(process: process, inputChannels: inputChannels, capacity: max(blockFrames, 8192))
        unmanagedBox = Unmanaged.passRetained(box)
        do {
            try setUp(client, inputChannels: inputChannels)
        } catch {
            close()
            throw error
        }
    }

    private func setUp(_ client: OpaquePointer, inputChannels: Int) throws {
        let audioType = "32 bit float mono audio"
        for i in 1...inputChannels {
            guard let port = jack_port_register(client, "in_\(i)", audioType, UInt(JackPortIsInput.rawValue), 0) else {
                throw JackError.failed("input port \(i) could not be made")
            }
            box.inputPorts.append(port)
        }
        for i in 1...2 {
            guard let port = jack_port_register(client, "out_\(i)", audioType, UInt(JackPortIsOutput.rawValue), 0) else {
                throw JackError.failed("output port \(i) could not be made")
            }
            box.outputPorts.append(port)
        }
        for (i, port) in (box.inputPorts + box.outputPorts).enumerated() { (box.audioThreadPorts + i).initialize(to: port) }
        let context = unmanagedBox.toOpaque()
        jack_set_process_callback(client, { frames, context in
            let box = Unmanaged<CallbackBox>.fromOpaque(context!).takeUnretainedValue()
            let n = Int(frames)
            box.callbacks.add(1, ordering: .relaxed)
            guard n <= box.capacity else { return 0 }
            // Plain loops over the fixed port table: iterating the port arrays generically
            // allocated in the debug build (gdb on the process thread caught `malloc` here).
            let channels = box.inputChannels
            for c in 0..<channels {
                let source = jack_port_get_buffer(box.audioThreadPorts[c], frames)!.assumingMemoryBound(to: Float.self)
                for i in 0..<n { box.interleavedInput[i * channels + c] = source[i] }
            }
            box.process(box.interleavedInput, box.interleavedOutput, n)
            if box.dropoutPending.exchange(false, ordering: .relaxed) {
                AudioDuplexStream.fadeIn(box.interleavedOutput, frames: n, channels: 2)
            }
            for c in 0..<2 {
                let target = jack_port_get_buffer(box.audioThreadPorts[channels + c], frames)!.assumingMemoryBound(to: Float.self)
                for i in 0..<n { target[i] = box.interleavedOutput[i * 2 + c] }
            }
            return 0
        }, context)
        jack_set_xrun_callback(client, { context in
            let box = Unmanaged<CallbackBox>.fromOpaque(context!).takeUnretainedValue()
            box.dropouts.add(1, ordering: .relaxed)
            box.dropoutPending.store(true, ordering: .relaxed)
            return 0
        }, context)
        jack_on_shutdown(client, { context in
            Unmanaged<CallbackBox>.fromOpaque(context!).takeUnretainedValue().serverGone.store(true, ordering: .releasing)
        }, context)
        guard jack_activate(client) == 0 else { throw JackError.failed("the client could not be activated") }
        // The physical capture ports feed our inputs (the last one feeds any input left over);
        // our outputs feed the physical playback ports.
        let captures = Self.ports(client, flags: UInt(JackPortIsPhysical.rawValue | JackPortIsOutput.rawValue))
        let playbacks = Self.ports(client, flags: UInt(JackPortIsPhysical.rawValue | JackPortIsInput.rawValue))
        for (i, port) in box.inputPorts.enumerated() where !captures.isEmpty {
            jack_connect(client, captures[min(i, captures.count - 1)], jack_port_name(port))
        }
        for (i, port) in box.outputPorts.enumerated() where i < playbacks.count {
            jack_connect(client, jack_port_name(port), playbacks[i])
        }
        captureName = captures.first.map { String($0.prefix { $0 != ":" }) } ?? "none"
        playbackName = playbacks.first.map { String($0.prefix { $0 != ":" }) } ?? "none"
    }

    private static func ports(_ client: OpaquePointer, flags: UInt) -> [String] {
        guard let list = jack_get_ports(client, nil, "32 bit float mono audio", flags) else { return [] }
        defer { jack_free(list) }
        var names: [String] = []
        var i = 0
        while let name = list[i] { names.append(String(cString: name)); i += 1 }
        return names
    }

    /// libjack prints its connection attempts and errors on stderr (pages of them when no server
    /// runs, e.g. with ALSA only); the user gets our one sentence instead.
    static func silenceLibraryMessages() {
        jack_set_error_function { _ in }
        jack_set_info_function { _ in }
    }

    /// The running server's sample rate and period, or nil when no JACK server can be reached
    /// (opens and closes a client).
    public static func serverFormat() -> (sampleRate: Double, blockFrames: Int)? {
        silenceLibraryMessages()
        var status = jack_status_t(rawValue: 0)
        guard let client = cjack_client_open("assist-probe", &status) else { return nil }
        defer { jack_client_close(client) }
        return (Double(jack_get_sample_rate(client)), Int(jack_get_buffer_size(client)))
    }

    /// False once the server went away.
    public var isActive: Bool { client != nil && !box.serverGone.load(ordering: .acquiring) }
    public var callbackCount: Int { box.callbacks.load(ordering: .relaxed) }
    public var dropoutCount: Int { box.dropouts.load(ordering: .relaxed) }

    /// Deactivates and closes the client (at once, also when the server has gone).
    public func close() {
        if let client {
            if !box.serverGone.load(ordering: .acquiring) { jack_deactivate(client) }
            jack_client_close(client)
        }
        client = nil
    }

    deinit {
        close()
        unmanagedBox.release()
    }
}
