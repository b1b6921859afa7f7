import Foundation
import LiveGuidance

/// The few typed commands `--at` understands until the command language (issue #5) takes over.
enum BuiltInSessionCommands {
    static func parse(_ text: String) -> SessionCommand? {
        let words = text.lowercased()
            .trimmingCharacters(in: .whitespacesAndNewlines.union(.punctuationCharacters))
            .split(whereSeparator: \.isWhitespace).map(String.init)
        let phrase = words.joined(separator: " ")
        switch phrase {
        case "scan now", "scan", "what's in front of me", "what is in front of me": return .scanNow
        case "explore", "explore scene": return .explore
        case "are there any obstacles", "any obstacles", "check obstacles": return .checkObstacles
        case "pause", "stop detection": return .pause
        case "resume", "start detection": return .resume
        case "exit", "quit": return .quit
        case "switch camera": return .switchCamera
        case "battery saver on": return .setBatterySaver(true)
        case "battery saver off": return .setBatterySaver(false)
        case "repeat": return .repeatLast
        case "stop talking": return .stopTalking
        default: break
        }
        if words.first == "mode", words.count == 2, let mode = LiveMode(rawValue: words[1] == "navigation" ? "navigate" : words[1]) {
            return .setMode(mode.guidanceMode)
        }
        if words.first == "find", words.count >= 2 {
            var name = Array(words.dropFirst())
            if ["a", "an", "the", "my"].contains(name[0]), name.count > 1 { name.removeFirst() }
            let category = name.joined(separator: " ")
            return .find(FindTarget(categories: [category], spokenName: category))
        }
        return nil
    }
}
