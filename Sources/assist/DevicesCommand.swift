import ArgumentParser
import AssistCore
import Foundation
import Speech

struct Devices: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "Lists the audio output devices (by index and name) and the vibration devices.",
        discussion: """
        Give a device to a speaking command with --audio-device, by its index or part of its name:
          assist say "Hello." --audio-device 3
          assist say "Hello." --audio-device USB
        """ + DocsPage.vision.seeAlso)

    func run() async throws {
        do { try OutputDeviceList.lines().forEach { print($0) } } catch {
            throw CommandFailure(userMessage(for: error), status: .failed)
        }
    }
}
