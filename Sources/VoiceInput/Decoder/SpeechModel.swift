import Foundation

/// Where a pocketsphinx model's files lie: acoustic model folder, pronunciation dictionary and
/// the general language model (for free speech, not commands).
public struct SpeechModel: Sendable, Equatable {
    public let acousticModel: URL
    public let dictionary: URL
    public let languageModel: URL

    public init(acousticModel: URL, dictionary: URL, languageModel: URL) {
        self.acousticModel = acousticModel
        self.dictionary = dictionary
        self.languageModel = languageModel
    }

    /// Debian's pocketsphinx-en-us (the CMU US English continuous model, 16 kHz).
    public static let englishUS: SpeechModel = {
        let root = URL(fileURLWithPath: "/usr/share/pocketsphinx/model/en-us")
        return SpeechModel(acousticModel: root.appendingPathComponent("en-us"),
                           dictionary: root.appendingPathComponent("cmudict-en-us.dict"),
                           languageModel: root.appendingPathComponent("en-us.lm.bin"))
    }()

    func checkInstalled() throws {
        for url in [acousticModel.appendingPathComponent("mdef"), dictionary] where !FileManager.default.fileExists(atPath: url.path) {
            throw PocketSphinxError.modelMissing(path: url.path)
        }
    }
}
