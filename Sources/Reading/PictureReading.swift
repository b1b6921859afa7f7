import AssistCore
import Foundation
import Media
import Perception

/// One picture's outcome in `assist read --json`.
public struct ReadResult: Encodable, Sendable {
    public var source: String
    public var reading: TextReading?
    public var milliseconds: Double?
    public var error: String?
}

/// `assist read`: each picture's text read in reading order, printed as it is done, and said in
/// parts short enough to be interrupted ("No text found." when there is none).
public struct PictureReading {
    public let reader: TextReader
    public let phrases: ReadingPhrases
    public let effort: ReadingEffort
    /// Words per spoken part at the user's rate.
    public let wordsPerPart: Int

    public init(reader: TextReader, phrases: ReadingPhrases, effort: ReadingEffort, wordsPerMinute: Int) {
        self.reader = reader
        self.phrases = phrases
        self.effort = effort
        wordsPerPart = SpokenParts.wordsFitting(seconds: SpokenParts.defaultMaximumSeconds, wordsPerMinute: wordsPerMinute)
    }

    /// Reads every picture; `onResult` gets each as it is done; `voice` says it (nil: not said).
    public func read(_ paths: [String], voice: (any AnswerVoice)?, onResult: (ReadResult) -> Void) -> [ReadResult] {
        var results: [ReadResult] = []
        for (index, path) in paths.enumerated() {
            let url = URL(fileURLWithPath: path)
            let clock = ContinuousClock()
            let start = clock.now
            var result = ReadResult(source: url.lastPathComponent)
            do {
                let image = try ImageFile(url).decode(fittingWithin: TextReader.largestPictureSidePixels)
                result.reading = try reader.read(image, effort: effort, startedAt: start)
                result.milliseconds = (clock.now - start).milliseconds
            } catch {
                result.error = userMessage(for: error)
            }
            results.append(result)
            onResult(result)
            if let voice {
                let parts = result.reading.map { $0.isEmpty ? [phrases.noText] : SpokenParts.parts(of: $0, maximumWords: wordsPerPart) }
                var sentences = parts ?? result.error.map { [$0] } ?? []
                if paths.count > 1 { sentences.insert("\(result.source).", at: 0) }
                for (number, sentence) in sentences.enumerated() {
                    voice.sayAnswer([sentence], key: "\(index)#\(number)")
                }
            }
        }
        return results
    }
}

extension PictureReading {
    /// `assist read`: reads every picture in order, printing its text as it is done (with `json`, all
    /// results as JSON at the end instead) and saying it on the output `makeSpoken` opens once the
    /// recogniser is ready. Returns whether any picture failed; an error for one picture is one
    /// sentence on standard error. A recogniser that cannot start is `ReadingError.cannotStart`.
    public static func printReadings(of images: [String], language: String, minimumConfidence: Float, effort: ReadingEffort,
                                     wordsPerMinute: Int, json: Bool, makeSpoken: () throws -> (any AnswerVoice)?) throws -> Bool {
        let reader: TextReader
        let phrases: ReadingPhrases
        do {
            reader = try TextReader(language: language, filter: PlausibleText(minimumConfidence: minimumConfidence))
            phrases = try ReadingPhrases.bundled()
        } catch {
            throw ReadingError.cannotStart(reason: userMessage(for: error))
        }
        let spoken = try makeSpoken()
        let reading = PictureReading(reader: reader, phrases: phrases, effort: effort, wordsPerMinute: wordsPerMinute)
        let results = reading.read(images, voice: spoken) { result in
            guard !json else { return }
            if let error = result.error {
                FileHandle.standardError.write(Data("\(error)\n".utf8))
            } else if let text = result.reading {
                if images.count > 1 { print("\(result.source):") }
                print(text.isEmpty ? phrases.noText : text.text)
                if images.count > 1 { print("") }
            }
        }
        if json {
            print(try JSONReport.text(results))
        }
        try spoken?.finish()
        return results.contains(where: { $0.error != nil })
    }
}

/// Why `assist read` read nothing.
public enum ReadingError: UserFacingError, Equatable {
    /// The text recogniser or the reading sentences could not be loaded (`reason`: their own sentence).
    case cannotStart(reason: String)

    public var userMessage: String {
        switch self {
        case .cannotStart(let reason): return reason
        }
    }
}
