import ArgumentParser
import Media

/// `assist cameras`: the cameras `assist see --camera` can use.
struct CamerasCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cameras",
        abstract: "Lists the cameras on this computer (Video4Linux devices) with their names.",
        discussion: DocsPage.vision.reference
    )

    func run() throws {
        print(CameraList().description)
    }
}
