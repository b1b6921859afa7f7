import AssistCore
import Foundation
import Media

/// `assist colour`: the colour in the centre of each picture, said in a sentence.
public struct PictureColours {
    /// One picture's outcome in `--json`.
    public struct Result: Encodable, Sendable {
        public var source: String
        public var sentence: String?
        public var colour: ColourReading?
        public var error: String?
    }

    public let phrases: ColourAndLightPhrases

    public init(phrases: ColourAndLightPhrases) { self.phrases = phrases }

    /// Names every picture's colour; `onResult` gets each as it is done; `voice` says it.
    public func describe(_ paths: [String], voice: (any AnswerVoice)?, onResult: (Result) -> Void) -> [Result] {
        var results: [Result] = []
        for (index, path) in paths.enumerated() {
            let url = URL(fileURLWithPath: path)
            var result = Result(source: url.lastPathComponent)
            do {
                let reading = ColourNamer().read(try ImageFile(url).decode())
                result.colour = reading
                result.sentence = phrases.sentence(for: reading)
            } catch {
                result.error = userMessage(for: error)
            }
            results.append(result)
            onResult(result)
            if let said = result.sentence ?? result.error {
                voice?.sayAnswer(paths.count > 1 ? ["\(result.source).", said] : [said], key: "colour#\(index)")
            }
        }
        return results
    }
}
