import ArgumentParser
import AssistCore
import Commands
import Foundation
import LiveGuidance
import SessionControl
import Speech

/// `assist see` on pictures: each one described once (`PictureDescription`), printed as it is done.
extension See {
    func describePictures() async throws {
        var pictures = PictureDescription(detector: detector.choice, depthModel: depth.modelChoice, measuredDepth: depth.measuredChoice,
                                          camera: camera.choice, description: wording.choice)
        pictures.findsFaces = faces
        if let ask { pictures.question = (ask, try understood(ask)) }
        pictures.keepsHistory = !noHistory
        let results = try pictures.describe(images, spokenOutput: { try SpokenOutput.forDescription(speech.choice, json: json) }) { result in
            if !json { printHuman(result, showName: images.count > 1) }
        }
        if json {
            print(try JSONReport.text(results))
        }
        let status = FailureReport.status(of: PictureDescription.outcome(of: results))
        if status != .done { throw ExitCode(status.rawValue) }
    }

    /// The question `--ask` asks, understood as a typed command is (act, ask, refuse): a line that is
    /// not understood, only nearly, or is no question about a picture, is refused with its sentence.
    private func understood(_ question: String) throws -> PictureQuestion {
        let language: CommandLanguage
        do { language = try CommandLanguage(language: "en", categories: COCOClasses.names) } catch {
            throw CommandFailure(userMessage(for: error), status: .startupFailed)
        }
        let understanding = CommandUnderstanding.loadOrPhrasesOnly(language: language, warn: UserData.warn)
        do { return try understanding.pictureQuestion(question) } catch {
            throw CommandFailure(error.userMessage, status: .badUsage)
        }
    }

    private func printHuman(_ result: PictureResult, showName: Bool) {
        if let error = result.error {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            return
        }
        guard let report = result.report else { return }
        if showName { print("\(report.source):") }
        (result.answer?.sentences ?? report.sentences).forEach { print($0) }
        if showName { print("") }
    }
}
