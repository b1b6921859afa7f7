import Foundation
import TestSupport
import Guidance
import LiveGuidance
import Media
import Speech
import Testing

// docs/architecture.md example begins
/// Guides through `input`, rendering what is said into `speechFile` on the input's own clock,
/// while `commands` (typed, spoken or sent by another program) drive the session.
func guide(_ input: FrameInput, analyzer: any SceneAnalyzing, speechFile: URL,
           commands: AsyncStream<SessionRequest>) async throws -> [TranscriptEntry] {
    let queue = UtteranceQueue(voice: try SpeechSynthesizer())
    let wav = try WAVFileOutput(url: speechFile, sampleRateHz: queue.sampleRateHz)
    defer { wav.close() }
    let session = GuidanceSession(
        configuration: SessionConfiguration(input: input, clock: .input(audio: wav, frameCostSeconds: 0.1)),
        analyzers: AnalyzerSupply(make: { _ in analyzer }),
        requirements: AnalyzerRequirements(description: .standard),
        policy: GuidancePolicy(mode: .continuous, describer: try SceneDescriber()),
        feedback: Feedback(queue: queue, vibration: nil),
        sentences: try SessionSentences.bundled(),
        onEvent: { event in if case .said(let line) = event { print(line.printedText) } })
    _ = try await session.run(requests: commands)
    return session.transcript()
}
// docs/architecture.md example ends

@Suite("The embedding example of docs/architecture.md")
struct EmbeddingExampleTests {
    @Test("docs/architecture.md shows this file's example word for word, and it runs a guided session to its end")
    func example() async throws {
        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        let begin = try #require(source.range(of: "// docs/architecture.md example begins\n"))
        let end = try #require(source.range(of: "// docs/architecture.md example ends"))
        let example = String(source[begin.upperBound..<end.lowerBound])
        let page = SharedFiles.checkout.appendingPathComponent("docs/architecture.md")
        #expect(try String(contentsOf: page, encoding: .utf8).contains(example), "docs/architecture.md and this example differ")

        let speech = TemporaryFolder.path("embedding.wav")
        defer { try? FileManager.default.removeItem(at: speech) }
        let input = FrameInput(name: "scripted.mp4", kind: .recording) { _ in ScriptedFrameSource(frameCount: 20) }
        let (commands, continuation) = AsyncStream.makeStream(of: SessionRequest.self)
        continuation.yield(.scanNow)
        let transcript = try await guide(input, analyzer: ScriptedAnalyzer(), speechFile: speech, commands: commands)
        continuation.finish()
        #expect(transcript.first?.text.hasSuffix("Assistive Vision activated.") == true)
        #expect(transcript.last?.text.hasSuffix("End of video.") == true)
        #expect(FileManager.default.fileExists(atPath: speech.path))
    }
}
