import ArgumentParser
import AssistCore
import Foundation
import SessionControl
import Speech

/// `assist see` on pictures: each one described once (`PictureDescription`), printed as it is done.
extension See {
    func describePictures() async throws {
        var pictures = PictureDescription(detector: detector.choice, depthModel: depth.modelChoice, measuredDepth: depth.measuredChoice,
                                          camera: camera.choice, description: wording.choice)
        pictures.findsFaces = faces
        pictures.keepsHistory = !noHistory
        let results = try pictures.describe(images, spokenOutput: { try SpokenOutput.forDescription(speech.choice, json: json) }) { result in
            if !json { printHuman(result, showName: images.count > 1) }
        }
        if json {
            print(try JSONReport.text(results))
        }
        let status = PictureDescription.status(of: results)
        if status != .done { throw ExitCode(status.rawValue) }
    }

    private func printHuman(_ result: PictureResult, showName: Bool) {
        if let error = result.error {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            return
        }
        guard let report = result.report else { return }
        if showName { print("\(report.source):") }
        report.sentences.forEach { print($0) }
        if showName { print("") }
    }
}
