import AssistCore
import CLinuxInput
import Commands
import Foundation

/// Hands-free control where speech cannot work (noise, a quiet library): the play/pause, next
/// and previous keys of a headset, an earbud remote or a keyboard, read from a Linux evdev
/// device (`/dev/input/event*`) or from a recording of its events, each short or long press
/// turned into a command by a setting (`MediaKeyMap`).

/// A media key, by its evdev code.
public enum MediaKey: String, Sendable, CaseIterable, Codable {
    case playPause, next, previous

    /// The key for an evdev key code; headset buttons send play/pause or the phone "hook" key.
    init?(code: UInt16) {
        switch Int32(code) {
        case KEY_PLAYPAUSE, KEY_PLAYCD, KEY_PAUSECD, KEY_MEDIA: self = .playPause
        case KEY_NEXTSONG: self = .next
        case KEY_PREVIOUSSONG: self = .previous
        default: return nil
        }
    }
}

/// A key pressed and released: short, or held at least `MediaKeyReader.longPressSeconds`.
public struct MediaKeyPress: Sendable, Equatable, Hashable, Codable {
    public var key: MediaKey
    public var isLong: Bool

    public init(_ key: MediaKey, long: Bool = false) {
        self.key = key
        isLong = long
    }
}

/// Which command each press gives. The default follows what the keys mean elsewhere: play/pause
/// describes the view once, next explores, previous repeats, holding play/pause silences.
public struct MediaKeyMap: Sendable, Equatable {
    public var actions: [MediaKeyPress: CommandIntent]

    /// The intents a key may be given: the hands-free ones.
    public static let allowedIntents: [CommandIntent] = [.scanNow, .repeatLast, .exploreScene, .stopTalking]

    public static let standard = MediaKeyMap(actions: [
        MediaKeyPress(.playPause): .scanNow, MediaKeyPress(.next): .exploreScene,
        MediaKeyPress(.previous): .repeatLast, MediaKeyPress(.playPause, long: true): .stopTalking,
    ])

    public init(actions: [MediaKeyPress: CommandIntent]) { self.actions = actions }

    /// Reads a setting such as `playPause=scanNow, next=exploreScene, previous=repeatLast,
    /// long playPause=stopTalking`; throws naming the first bad entry.
    public init(setting: String) throws(MediaKeyError) {
        var actions: [MediaKeyPress: CommandIntent] = [:]
        for entry in setting.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !entry.isEmpty {
            let parts = entry.split(separator: "=").map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2 else { throw .badMapping(entry: entry) }
            var keyName = parts[0]
            var long = false
            if keyName.hasPrefix("long ") { long = true; keyName = String(keyName.dropFirst(5)).trimmingCharacters(in: .whitespaces) }
            guard let key = MediaKey(rawValue: keyName) else { throw .badMapping(entry: entry) }
            guard let intent = CommandIntent(rawValue: parts[1]), Self.allowedIntents.contains(intent) else {
                throw .badMapping(entry: entry)
            }
            actions[MediaKeyPress(key, long: long)] = intent
        }
        self.actions = actions
    }

    public func command(for press: MediaKeyPress) -> Command? { actions[press].map { Command($0) } }
}

public enum MediaKeyError: UserFacingError, Equatable {
    case badMapping(entry: String)
    case deviceUnavailable(path: String, reason: String)
    case truncatedEvent(bytes: Int)

    public var userMessage: String {
        switch self {
        case .badMapping(let entry):
            return "The media key setting \"\(entry)\" is not [long ]playPause|next|previous=scanNow|repeatLast|exploreScene|stopTalking."
        case .deviceUnavailable(let path, let reason):
            return "The key device \(path) cannot be read: \(reason)."
        case .truncatedEvent(let bytes):
            return "The key events end in the middle of an event (\(bytes) bytes left over)."
        }
    }
}

/// One `struct input_event` as the kernel writes it.
public struct InputEvent: Sendable, Equatable {
    public var seconds: Double
    public var type: UInt16
    public var code: UInt16
    public var value: Int32

    public init(seconds: Double, type: UInt16, code: UInt16, value: Int32) {
        self.seconds = seconds
        self.type = type
        self.code = code
        self.value = value
    }

    /// `struct input_event`'s size on this machine (24 bytes on 64-bit Linux).
    public static let size = MemoryLayout<input_event>.size

    /// Events from raw bytes, as read from a device or a recording; throws when bytes are left over.
    public static func events(from data: Data) throws(MediaKeyError) -> [InputEvent] {
        guard data.count % size == 0 else { throw .truncatedEvent(bytes: data.count % size) }
        return data.withUnsafeBytes { raw in
            stride(from: 0, to: raw.count, by: size).map { offset in
                let event = raw.loadUnaligned(fromByteOffset: offset, as: input_event.self)
                return InputEvent(seconds: Double(event.time.tv_sec) + Double(event.time.tv_usec) / 1e6,
                                  type: event.type, code: event.code, value: event.value)
            }
        }
    }

    /// The bytes the kernel would write for this event (for recordings made in tests).
    public var bytes: Data {
        var event = input_event()
        event.time.tv_sec = Int(seconds.rounded(.down))
        event.time.tv_usec = Int(((seconds - seconds.rounded(.down)) * 1e6).rounded())
        event.type = type
        event.code = code
        event.value = value
        return withUnsafeBytes(of: &event) { Data($0) }
    }
}

/// Turns key events into presses: a press ends when its key is released, and is long when held
/// for `longPressSeconds` or more, timed by the events' own timestamps (so a recording replays
/// exactly, whatever the machine is doing).
public struct MediaKeyReader: Sendable {
    /// Long enough not to be a tap, short enough to feel immediate (the usual 0.8 s of phone UIs).
    public static let longPressSeconds = 0.8
    private var pressedAt: [MediaKey: Double] = [:]

    public init() {}

    /// The presses completed by `event`: none, or one on release.
    public mutating func feed(_ event: InputEvent) -> MediaKeyPress? {
        guard Int32(event.type) == EV_KEY, let key = MediaKey(code: event.code) else { return nil }
        switch event.value {
        case 1:
            pressedAt[key] = event.seconds
            return nil
        case 0:
            guard let start = pressedAt.removeValue(forKey: key) else { return nil }
            return MediaKeyPress(key, long: event.seconds - start >= Self.longPressSeconds)
        default:
            return nil   // 2: auto-repeat while held; the release decides
        }
    }

    /// Every press in a recorded stream of events.
    public static func presses(in data: Data) throws(MediaKeyError) -> [MediaKeyPress] {
        var reader = MediaKeyReader()
        return try InputEvent.events(from: data).compactMap { reader.feed($0) }
    }

    /// Reads a device (or a recording) until it ends, handing each press to `onPress`.
    public static func read(path: String, onPress: (MediaKeyPress) -> Void) throws(MediaKeyError) {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path)
                ? "permission denied (add yourself to the input group)" : "no such device"
            throw .deviceUnavailable(path: path, reason: reason)
        }
        defer { try? handle.close() }
        var reader = MediaKeyReader()
        var pending = Data()
        while true {
            let chunk = handle.readData(ofLength: InputEvent.size * 16)
            if chunk.isEmpty { break }
            pending.append(chunk)
            let whole = pending.count - pending.count % InputEvent.size
            for event in try InputEvent.events(from: pending.prefix(whole)) {
                if let press = reader.feed(event) { onPress(press) }
            }
            pending = Data(pending.dropFirst(whole))
        }
        if !pending.isEmpty { throw .truncatedEvent(bytes: pending.count) }
    }
}
