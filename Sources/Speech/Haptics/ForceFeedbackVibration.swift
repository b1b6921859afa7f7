import AssistCore
import CLinuxInput
import Foundation
import Synchronization

// The one place that touches Linux evdev force feedback (STYLE.md §2): owns the device's file
// descriptor and its uploaded rumble effect, and turns errno into `HapticError`.

/// Vibration through a Linux input device with FF_RUMBLE (game pads, some phones and wearables
/// that expose a vibrator as /dev/input/eventN).
public final class ForceFeedbackVibration: VibrationOutput {
    public let path: String
    public let name: String
    private let descriptor: Int32
    /// The kernel's id for our uploaded effect; -1 until the first upload.
    private let effectID = Mutex<Int16>(-1)

    /// Opens `path` (e.g. /dev/input/event5) and checks that it can rumble.
    public init(path: String) throws(HapticError) {
        self.path = path
        let fd = open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { throw .cannotOpen(path: path, reason: String(cString: strerror(errno))) }
        guard clinux_input_has_rumble(fd) == 1 else {
            close(fd)
            throw .noRumble(path: path)
        }
        var buffer = [CChar](repeating: 0, count: 256)
        _ = clinux_input_name(fd, &buffer, Int32(buffer.count - 1))
        name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        descriptor = fd
    }

    deinit {
        let id = effectID.withLock { $0 }
        if id >= 0 { _ = clinux_input_remove_effect(descriptor, Int32(id)) }
        close(descriptor)
    }

    /// The first input device under `/dev/input` that can rumble and that we may open, or nil.
    public static func findDevice(in folder: String = "/dev/input") -> ForceFeedbackVibration? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        let events = names.filter { $0.hasPrefix("event") }
            .sorted { (Int($0.dropFirst(5)) ?? 0) < (Int($1.dropFirst(5)) ?? 0) }
        for event in events {
            if let device = try? ForceFeedbackVibration(path: "\(folder)/\(event)") { return device }
        }
        return nil
    }

    public func vibrate(_ pattern: VibrationPattern) throws(HapticError) {
        try effectID.withLock { (id: inout Int16) throws(HapticError) in
            var effect = ff_effect()
            effect.type = UInt16(FF_RUMBLE)
            effect.id = id
            // ff-memless replays an effect `count` times, waiting `delay` before each play: the
            // delay is our gap (and a first pulse that starts `gap` late, too short to notice).
            effect.replay.length = UInt16(min(pattern.pulseSeconds * 1000, 65_000))
            effect.replay.delay = UInt16(min(pattern.gapSeconds * 1000, 65_000))
            let magnitude = UInt16(pattern.strength * Double(UInt16.max))
            effect.u.rumble.strong_magnitude = magnitude
            effect.u.rumble.weak_magnitude = magnitude / 2
            guard clinux_input_upload_effect(descriptor, &effect) == 0 else {
                throw .failed(path: path, reason: String(cString: strerror(errno)))
            }
            id = effect.id
            var event = input_event()
            event.type = UInt16(EV_FF)
            event.code = UInt16(bitPattern: effect.id)
            event.value = Int32(pattern.pulseCount)
            let written = withUnsafePointer(to: &event) { write(descriptor, $0, MemoryLayout<input_event>.size) }
            guard written == MemoryLayout<input_event>.size else {
                throw .failed(path: path, reason: String(cString: strerror(errno)))
            }
        }
    }
}
