import AssistCore
import Foundation
import Hearing
import Media
import Prescription
import Speech
import Synchronization

/// What `assist hear --live --json` prints when it ends: how the sound ran.
public struct LiveHearingSummary: Codable, Sendable {
    public var hostAPI: String
    public var inputDevice: String
    public var outputDevice: String
    public var sampleRateHz: Double
    public var blockFrames: Int
    /// Blocks the device asked for, across reconnections.
    public var blocks: Int
    /// Blocks that came late or were lost (xruns); each one faded in instead of clicking.
    public var dropouts: Int
    public var inputPeakDBFS: Double
    public var outputPeakDBFS: Double
    /// The fitted ceiling no output sample may pass.
    public var outputCeilingDBFS: Double
    /// The chain's algorithmic delay plus one block, and what the devices report.
    public var chainLatencyMilliseconds: Double
    public var inputLatencyMilliseconds: Double
    public var outputLatencyMilliseconds: Double
    public var totalLatencyMilliseconds: Double
    /// Times the device went away, and times the sound came back.
    public var deviceLosses: Int
    public var reconnections: Int
    /// What was said in the ear (and printed), in order.
    public var announcements: [String]
    public var seconds: Double
}

/// What the audio thread, the keyboard thread and the supervising loop share: peaks stored by
/// the audio thread (relaxed atomics, no locks), what was said, and whether to stop.
final class LiveSharedState: Sendable {
    private let inputPeakBits = Atomic<UInt32>(Float(0).bitPattern)
    private let outputPeakBits = Atomic<UInt32>(Float(0).bitPattern)
    let quit = Atomic<Bool>(false)
    private let said = Mutex<[String]>([])

    /// Audio thread only (one writer, so load-compare-store loses nothing).
    func noteInput(_ samples: UnsafePointer<Float>, count: Int) {
        inputPeakBits.store(Self.peak(samples, count, above: inputPeak).bitPattern, ordering: .relaxed)
    }

    func noteOutput(_ samples: UnsafePointer<Float>, count: Int) {
        outputPeakBits.store(Self.peak(samples, count, above: outputPeak).bitPattern, ordering: .relaxed)
    }

    private static func peak(_ samples: UnsafePointer<Float>, _ count: Int, above start: Float) -> Float {
        var peak = start
        for i in 0..<count where samples[i].isFinite { peak = max(peak, abs(samples[i])) }
        return peak
    }

    var inputPeak: Float { Float(bitPattern: inputPeakBits.load(ordering: .relaxed)) }
    var outputPeak: Float { Float(bitPattern: outputPeakBits.load(ordering: .relaxed)) }

    func record(_ sentence: String) { said.withLock { $0.append(sentence) } }
    var announcements: [String] { said.withLock { $0 } }
}

/// What the live loop needs of a running duplex stream, through JACK or PortAudio.
protocol LiveSoundStream: AnyObject {
    var isActive: Bool { get }
    var callbackCount: Int { get }
    var dropoutCount: Int { get }
    var inputLatencySeconds: Double { get }
    var outputLatencySeconds: Double { get }
    func stop()
}

extension AudioDuplexStream: LiveSoundStream {}

extension JackDuplexStream: LiveSoundStream {
    func stop() { close() }
}

/// Ends a stream that lost its device on a thread of its own (stopping it, then ending its
/// PortAudio session), so the supervising loop keeps running while PortAudio waits.
final class StreamRelease: Sendable {
    private let done = Atomic<Bool>(false)

    init(_ stream: any LiveSoundStream) {
        nonisolated(unsafe) var ending: (any LiveSoundStream)? = stream
        Thread { [self] in
            ending?.stop()
            ending = nil
            done.store(true, ordering: .releasing)
        }.start()
    }

    var isDone: Bool { done.load(ordering: .acquiring) }
}

/// Live hearing (`assist hear --live`): microphone → hearing chain → headphones through PortAudio (JACK, ALSA or
/// PipeWire), with keyboard controls on standard input (one command per line). Announcements
/// are said in the ear through the chain's own output (`AnnouncementMixer`) and printed. When
/// the device goes away it is said, and the device is looked for again every second.
public struct LiveHearingAid {
    let settings: HearingAidSettings
    /// The programs the user may switch to, from the prescription.
    let prescribed: PrescribedHearing
    let debugging: LiveDebugging?
    let inputDevice: String?
    let outputDevice: String?
    let sampleRate: Double
    let bufferSize: Int
    let monitorFile: String?
    let durationSeconds: Double?
    /// The voice announcements are said in (the user's stored voice); without one they are only shown.
    let announcementVoiceSettings: SpeechVoiceSettings
    /// Where what the user reads goes (standard output, or standard error when it carries JSON).
    let show: @Sendable (String) -> Void

    public init(settings: HearingAidSettings, prescribed: PrescribedHearing, debugging: LiveDebugging?,
                inputDevice: String?, outputDevice: String?, sampleRate: Double, bufferSize: Int,
                monitorFile: String?, durationSeconds: Double?, announcementVoice: SpeechVoiceSettings,
                show: @escaping @Sendable (String) -> Void) {
        self.settings = settings
        self.prescribed = prescribed
        self.debugging = debugging
        self.inputDevice = inputDevice
        self.outputDevice = outputDevice
        self.sampleRate = sampleRate
        self.bufferSize = bufferSize
        self.monitorFile = monitorFile
        self.durationSeconds = durationSeconds
        announcementVoiceSettings = announcementVoice
        self.show = show
    }

    public static let deviceGoneSentence = "The sound device went away; trying again."
    /// "about 9.3 ms (chain 5.3 ms + devices)": the latency as the start line and its later
    /// correction say it.
    static func latencyWords(chainSeconds: Double, devicesSeconds: Double) -> String {
        String(format: "about %.1f ms (chain %.1f ms + devices)", (chainSeconds + devicesSeconds) * 1000, chainSeconds * 1000)
    }
    public static let deviceBackSentence = "The sound is back."

    /// One line per audio device, as `assist hear --list-devices` prints them.
    public static func deviceList() throws -> [String] {
        let audio = try AudioDuplexStream()
        let devices = audio.devices()
        guard !devices.isEmpty else { throw AudioDeviceError.noAudioDevice }
        return devices.map { d in
            "\(d.name) [\(d.hostAPI)]: \(d.inputChannels) in, \(d.outputChannels) out, \(Int(d.defaultSampleRate)) Hz"
                + (d.isProbablyBluetooth ? " (probably Bluetooth: too much delay for a hearing aid)" : "")
        }
    }

    private func tell(_ line: String) { show(line) }

    /// One running stream: through JACK directly, or a PortAudio session with its devices.
    private struct Connection {
        let stream: any LiveSoundStream
        let hostAPI: String
        let inputName: String
        let outputName: String
    }

    /// JACK directly when a JACK server runs and no device was named; PortAudio otherwise
    /// (ALSA, PipeWire, or a JACK device named by hand).
    private var jackFormat: (sampleRate: Double, blockFrames: Int)? { JackDuplexStream.serverFormat() }

    private func connect(inputChannels: Int, _ process: @escaping AudioDuplexStream.Process) throws -> Connection {
        if inputDevice == nil && outputDevice == nil, let jack = try? JackDuplexStream(inputChannels: inputChannels, process: process) {
            return Connection(stream: jack, hostAPI: "JACK", inputName: jack.captureName, outputName: jack.playbackName)
        }
        let audio = try AudioDuplexStream()
        let input = try audio.device(named: inputDevice, forInput: true)
        let output = try audio.device(named: outputDevice, forInput: false)
        _ = try audio.start(input: input, output: output, sampleRate: sampleRate, framesPerBuffer: bufferSize, process: process)
        return Connection(stream: audio, hostAPI: output.hostAPI, inputName: input.name, outputName: output.name)
    }

    /// Listens until `q`, the end of standard input or the duration (or, with a remote, until it
    /// is told to stop); `onStarted` runs once the sound is flowing. Returns how the sound ran.
    public func run(commands: LiveHearingCommandSource = .standardInput, onStarted: () -> Void) throws -> LiveHearingSummary {
        let remote: LiveHearingRemote? = if case .remote(let remote) = commands { remote } else { nil }
        // The input channel count is fixed by the first device found; a device that comes back
        // is opened the same way.
        // The format is fixed once: a running JACK server's own rate and period, or what was asked
        // of PortAudio (whose probe session ends before the stream's starts, so that after a loss
        // ending the stream's session really ends PortAudio and a new one sees the device again).
        var rate = sampleRate, block = bufferSize, inputChannels = 2
        if let jack = jackFormat, inputDevice == nil, outputDevice == nil {
            (rate, block) = jack
        } else {
            let (firstInput, firstOutput) = try { () throws -> (AudioDevice, AudioDevice) in
                let probe = try AudioDuplexStream()
                return (try probe.device(named: inputDevice, forInput: true), try probe.device(named: outputDevice, forInput: false))
            }()
            for device in [firstInput, firstOutput] where device.isProbablyBluetooth {
                FileHandle.standardError.write(Data(("Warning: \(device.name) looks like a Bluetooth device; Bluetooth adds 100–200 ms of delay, "
                    + "well over the 50 ms a hearing aid may add, so speech and lip movements will drift apart. Use a wired headset.\n").utf8))
            }
            inputChannels = min(2, firstInput.inputChannels)
        }
        let control = try HearingAidControl(settings: settings)
        let processor = HearingAidProcessor(control: control)
        try processor.prepare(try ProcessingFormat(sampleRate: rate, blockSize: block, inputChannels: inputChannels))

        let mixer = AnnouncementMixer(queue: UtteranceQueue(voice: announcementVoice(), sampleRateHz: rate,
                                                            settings: UtteranceQueueSettings(cooldownSeconds: 0, spatialAudio: false)),
                                      maximumFrames: block)
        let shared = LiveSharedState()
        let show = show
        let session = LiveHearingSession(
            control: control, prescribed: prescribed, expires: prescribed.expires, debugging: debugging,
            say: { sentence in
                shared.record(sentence)
                mixer.say(sentence, key: "hear live")
                show(sentence)
            },
            show: show)

        // The processor and the mixer's output side are used only on the audio thread from here
        // on. What runs there takes no lock, allocates nothing and makes no system call: peaks
        // and counters are atomics, settings arrive through the chain's mailbox, speech through
        // the mixer's ring.
        nonisolated(unsafe) let audioThreadProcessor = processor
        let process: AudioDuplexStream.Process = { inBuffer, outBuffer, frames in
            shared.noteInput(inBuffer, count: frames * inputChannels)
            audioThreadProcessor.process(input: inBuffer, output: outBuffer, frames: frames)
            mixer.mix(into: outBuffer, frames: frames, ceiling: audioThreadProcessor.outputCeiling)
            shared.noteOutput(outBuffer, count: frames * 2)
        }
        var connection: Connection? = try connect(inputChannels: inputChannels, process)
        onStarted()
        let started = Date()
        let reportedInput = connection!.stream.inputLatencySeconds, reportedOutput = connection!.stream.outputLatencySeconds
        let chain = Double(processor.latencyFrames + block) / rate
        let hostAPI = connection!.hostAPI, inputName = connection!.inputName, outputName = connection!.outputName
        let connectionName = "\(inputName) → \(outputName) [\(hostAPI)], \(Int(rate)) Hz, \(block)-frame buffers"
        remote?.attach(session, connection: connectionName)
        tell("Listening: \(connectionName); "
             + "latency " + Self.latencyWords(chainSeconds: chain, devicesSeconds: reportedInput + reportedOutput) + ".")
        let recorder = MonitorRecorder(monitors: control.monitors)
        if monitorFile != nil { recorder.start() }
        defer {
            let series = recorder.stop()
            if let monitorFile {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                if (try? encoder.encode(series).write(to: URL(fileURLWithPath: monitorFile))) == nil {
                    tell(OutputFileError(path: monitorFile).userMessage)
                }
            }
        }
        if remote == nil {
            tell("Program \(control.settings.program.rawValue). Type a program's number or name to switch (\(session.programList)); "
                 + "+ louder, - softer, m mute, s status, q quit.")
        } else {
            tell(LiveHearingSession.spokenName(control.settings.program))
        }

        // Typed commands on their own thread (a remote's come from its sender's); the loop below
        // watches time and the device.
        let stopsAtEndOfInput = durationSeconds == nil
        if remote == nil { Thread {
            while let line = readLine() {
                if !session.handle(LiveHearingCommand(line)) { shared.quit.store(true, ordering: .releasing); return }
            }
            // Without --duration, the end of standard input ends listening, as `q` does.
            if stopsAtEndOfInput { shared.quit.store(true, ordering: .releasing) }
        }.start() }

        var blocksBefore = 0, dropoutsBefore = 0, losses = 0, reconnections = 0
        // JACK may report its ports' latencies only after the first cycles: the start line's
        // figure is corrected once, a second in, when it moved by half a millisecond or more.
        var latencyChecked = false
        var lastCount = -1, lastProgress = Date(), lastTick = Date.distantPast, lastAttempt = Date.distantPast
        var releasing: StreamRelease?
        while !shared.quit.load(ordering: .acquiring), !(remote?.isStopping ?? false) {
            if let durationSeconds, Date().timeIntervalSince(started) >= durationSeconds { break }
            Thread.sleep(forTimeInterval: 0.05)
            // The announcements' speech is rendered here, ahead of the audio thread, which only
            // reads it from a lock-free ring (see `AnnouncementMixer`).
            mixer.feed()
            remote?.report(phase: connection == nil ? .deviceLost : .running,
                           blocks: blocksBefore + (connection?.stream.callbackCount ?? 0),
                           dropouts: dropoutsBefore + (connection?.stream.dropoutCount ?? 0))
            if Date().timeIntervalSince(lastTick) >= 1 { session.tick(); lastTick = Date() }
            if !latencyChecked, let current = connection, Date().timeIntervalSince(started) >= 1 {
                latencyChecked = true
                let settled = current.stream.inputLatencySeconds + current.stream.outputLatencySeconds
                if abs(settled - (reportedInput + reportedOutput)) >= 0.0005 {
                    tell("Latency now " + Self.latencyWords(chainSeconds: chain, devicesSeconds: settled)
                         + ", as the devices report it after starting.")
                }
            }
            if let current = connection {
                let count = current.stream.callbackCount
                if count != lastCount { lastCount = count; lastProgress = Date() }
                // A stream that stops asking for buffers for half a second has lost its device
                // (a JACK server that stopped ends no stream: its callbacks just stop).
                if !current.stream.isActive || Date().timeIntervalSince(lastProgress) > 0.5 {
                    // Published before it is shown, so whoever reads the sentence finds the state that goes with it.
                    remote?.report(phase: .deviceLost, blocks: blocksBefore + current.stream.callbackCount,
                                   dropouts: dropoutsBefore + current.stream.dropoutCount)
                    // Shown, not said in the ear: there is no device to say it through.
                    shared.record(Self.deviceGoneSentence)
                    tell(Self.deviceGoneSentence)
                    blocksBefore += current.stream.callbackCount
                    dropoutsBefore += current.stream.dropoutCount
                    losses += 1
                    connection = nil
                    // PortAudio's JACK host API can take many seconds to stop a stream whose
                    // server died; it is ended on its own thread, and PortAudio restarted (to see
                    // the device again) only once it is.
                    releasing = StreamRelease(current.stream)
                    lastAttempt = Date()
                }
            } else if releasing?.isDone ?? true, Date().timeIntervalSince(lastAttempt) >= 1 {
                lastAttempt = Date()
                if let again = try? connect(inputChannels: inputChannels, process) {
                    connection = again
                    lastCount = -1
                    lastProgress = Date()
                    reconnections += 1
                    remote?.report(phase: .running, blocks: blocksBefore, dropouts: dropoutsBefore)
                    session.announce(Self.deviceBackSentence)
                }
            }
        }
        let blocks = blocksBefore + (connection?.stream.callbackCount ?? 0)
        let dropouts = dropoutsBefore + (connection?.stream.dropoutCount ?? 0)
        // The devices' latencies as reported now, settled (at start JACK's may not be known yet).
        let (finalInput, finalOutput) = connection.map { ($0.stream.inputLatencySeconds, $0.stream.outputLatencySeconds) } ?? (reportedInput, reportedOutput)
        connection?.stream.stop()
        connection = nil
        let seconds = Date().timeIntervalSince(started)
        return LiveHearingSummary(
            hostAPI: hostAPI, inputDevice: inputName, outputDevice: outputName, sampleRateHz: rate, blockFrames: block,
            blocks: blocks, dropouts: dropouts,
            inputPeakDBFS: 20 * log10(max(Double(shared.inputPeak), 1e-10)), outputPeakDBFS: 20 * log10(max(Double(shared.outputPeak), 1e-10)),
            outputCeilingDBFS: 20 * log10(max(Double(processor.outputCeiling), 1e-10)),
            chainLatencyMilliseconds: chain * 1000, inputLatencyMilliseconds: finalInput * 1000,
            outputLatencyMilliseconds: finalOutput * 1000, totalLatencyMilliseconds: (chain + finalInput + finalOutput) * 1000,
            deviceLosses: losses, reconnections: reconnections, announcements: shared.announcements, seconds: seconds)
    }

    /// The user's voice settings; without a voice the announcements are only printed, said once.
    private func announcementVoice() -> (any TextToSpeech)? {
        do {
            // The natural voice too (its audio is mixed in as the fast voice's is); when it cannot start, the fast one speaks.
            let chosen = try VoiceCatalog.start(announcementVoiceSettings)
            if let notice = chosen.fallbackNotice { tell(notice) }
            return chosen.voice
        } catch {
            tell("Announcements cannot be said in the ear (\(userMessage(for: error))); they are printed.")
            return nil
        }
    }
}
