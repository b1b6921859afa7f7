import AssistCore
import Commands
import Foundation
import Media
@testable import VoiceInput

/// The default detector's classes, so the tests do not depend on a model being installed.
let cocoNames = COCOClasses.names

let englishVocabulary = VoiceCommandVocabulary(language: try! CommandLanguage(language: "en", categories: cocoNames))

/// Debian's recordings of human speech (the pocketsphinx-testdata package).
let testData = URL(fileURLWithPath: "/usr/share/pocketsphinx/test/data")

/// The package's raw files: 16 kHz mono little-endian 16-bit, no header.
func rawSamples(_ name: String) throws -> [Int16] {
    let data = try Data(contentsOf: testData.appendingPathComponent(name))
    return data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }.map { Int16(littleEndian: $0) }
}

/// `text` said by festival's voice, as the recogniser hears it: mono at `sampleRateHz`.
func spokenSamples(_ text: String, in folder: URL, sampleRateHz: Double) throws -> [Float] {
    let said = folder.appendingPathComponent("said.wav")
    try FestivalVoice().synthesize([SynthesisRequest(text: text, speakingRate: 1, output: said)])
    let recorded = try AudioFile.read(said)
    return RecognizerAudio.resample(RecognizerAudio.mixToMono(recorded.samples, channelCount: recorded.channelCount),
                                    from: recorded.sampleRate, to: sampleRateHz)
}
