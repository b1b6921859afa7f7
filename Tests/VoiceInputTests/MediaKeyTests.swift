import CLinuxInput
import Commands
import Foundation
import TestSupport
import Testing
@testable import VoiceInput

/// A recorded evdev stream: each key pressed at `at` seconds and released `held` seconds later,
/// with the auto-repeat and sync events a real device sends in between.
private func recording(_ presses: [(code: Int32, at: Double, held: Double)]) -> Data {
    var data = Data()
    for press in presses {
        data.append(InputEvent(seconds: press.at, type: UInt16(EV_MSC), code: UInt16(MSC_SCAN), value: 0xC00CD).bytes)
        data.append(InputEvent(seconds: press.at, type: UInt16(EV_KEY), code: UInt16(press.code), value: 1).bytes)
        data.append(InputEvent(seconds: press.at, type: UInt16(EV_SYN), code: UInt16(SYN_REPORT), value: 0).bytes)
        if press.held > 0.5 {
            data.append(InputEvent(seconds: press.at + 0.5, type: UInt16(EV_KEY), code: UInt16(press.code), value: 2).bytes)
        }
        data.append(InputEvent(seconds: press.at + press.held, type: UInt16(EV_KEY), code: UInt16(press.code), value: 0).bytes)
        data.append(InputEvent(seconds: press.at + press.held, type: UInt16(EV_SYN), code: UInt16(SYN_REPORT), value: 0).bytes)
    }
    return data
}

@Suite("Media keys: headset and keyboard keys become commands, from an evdev event stream")
struct MediaKeyTests {
    @Test("an event is 24 bytes and survives being written and read back")
    func eventBytes() throws {
        #expect(InputEvent.size == 24)
        let event = InputEvent(seconds: 1700000000.25, type: UInt16(EV_KEY), code: UInt16(KEY_PLAYPAUSE), value: 1)
        #expect(try InputEvent.events(from: event.bytes) == [event])
    }

    @Test("play/pause, next, previous and a long play/pause give scan, explore, repeat and stop talking")
    func standardMap() throws {
        let stream = recording([(KEY_PLAYPAUSE, 10, 0.1), (KEY_NEXTSONG, 12, 0.2), (KEY_PREVIOUSSONG, 13, 0.1),
                                (KEY_PLAYPAUSE, 15, 1.2), (KEY_VOLUMEUP, 16, 0.1)])
        let presses = try MediaKeyReader.presses(in: stream)
        #expect(presses == [MediaKeyPress(.playPause), MediaKeyPress(.next), MediaKeyPress(.previous), MediaKeyPress(.playPause, long: true)])
        #expect(presses.compactMap { MediaKeyMap.standard.command(for: $0)?.intent } == [.scanNow, .exploreScene, .repeatLast, .stopTalking])
    }

    @Test("the setting remaps keys, and refuses a command a key may not give")
    func setting() throws {
        let map = try MediaKeyMap(setting: "playPause=repeatLast, next=scanNow, long next=stopTalking")
        #expect(map.command(for: MediaKeyPress(.playPause))?.intent == .repeatLast)
        #expect(map.command(for: MediaKeyPress(.next, long: true))?.intent == .stopTalking)
        #expect(map.command(for: MediaKeyPress(.previous)) == nil)
        #expect(throws: MediaKeyError.badMapping(entry: "next=ignore")) { try MediaKeyMap(setting: "next=ignore") }
    }

    @Test("a recording read as a device gives the same presses; a cut-off event is reported, not guessed")
    func readFile() throws {
        let file = TemporaryFolder.path("keys.evdev")
        defer { try? FileManager.default.removeItem(at: file) }
        try recording([(KEY_PLAYPAUSE, 1, 0.1), (KEY_NEXTSONG, 2, 0.9)]).write(to: file)
        var presses: [MediaKeyPress] = []
        try MediaKeyReader.read(path: file.path) { presses.append($0) }
        #expect(presses == [MediaKeyPress(.playPause), MediaKeyPress(.next, long: true)])
        #expect(throws: MediaKeyError.truncatedEvent(bytes: 10)) { try InputEvent.events(from: Data(count: 34)) }
        #expect(throws: MediaKeyError.self) { try MediaKeyReader.read(path: "/dev/input/no-such-event") { _ in } }
    }

    @Test("in noise the refusal names the keys as the alternative")
    func refusalNamesKeys() {
        #expect(CommandListener<Never>.tooNoisy.contains("headset keys"))
    }
}
