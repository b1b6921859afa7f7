import Foundation
import TestSupport
import Testing
@testable import Hearing

/// Issue 16's crashing audiograms: numbers far outside any audiometer's range, as values and as
/// frequency keys. Each must be refused in one sentence; before the fix the sentence itself trapped.
@Suite("Audiograms with absurd numbers")
struct AudiogramHostileInputTests {
    static let absurd = ["1e308", "-1e308", "1e300", "1e400", "-1e400", "9223372036854775808", "\"Infinity\"", "\"NaN\""]

    private func document(_ text: String) throws -> URL {
        let url = TemporaryFolder.path("audiogram.json")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    private func refusal(_ text: String) throws -> HearingError? {
        let url = try document(text)
        defer { try? FileManager.default.removeItem(at: url) }
        do {
            _ = try AudiogramDocument.load(from: url).prescription()
            return nil
        } catch let error as HearingError {
            return error
        }
    }

    private static let goodRight = #""right": {"thresholds": {"500": 30, "1000": 40, "2000": 50}}"#

    @Test("an absurd threshold value is refused in one sentence", arguments: absurd)
    func absurdValue(value: String) throws {
        let error = try refusal(#"{"left": {"thresholds": {"500": 30, "1000": \#(value), "2000": 50}}, \#(Self.goodRight)}"#)
        let message = try #require(error?.userMessage)
        #expect(message.hasSuffix(".") && !message.contains("\n"), "\(message)")
    }

    @Test("an absurd uncomfortable level is refused in one sentence", arguments: absurd)
    func absurdUncomfortableLevel(value: String) throws {
        let error = try refusal(#"{"left": {"thresholds": {"500": 30, "1000": 40, "2000": 50}, "uncomfortable": {"1000": \#(value)}}, \#(Self.goodRight)}"#)
        #expect(error != nil)
    }

    @Test("an absurd frequency key is refused as not an audiometric frequency", arguments: ["1e308", "-1e308", "1e300", "Infinity", "inf", "nan", "1e400"])
    func absurdFrequency(key: String) throws {
        let error = try refusal(#"{"left": {"thresholds": {"500": 30, "\#(key)": 40, "2000": 50}}, \#(Self.goodRight)}"#)
        let message = try #require(error?.userMessage)
        #expect(message.contains("is not a standard audiometric frequency") || message.contains("is not a frequency"), "\(message)")
    }

    @Test("an absurd maximum output or calibration is refused", arguments: ["1e308", "-1e308"])
    func absurdLimits(value: String) throws {
        let good = #""left": {"thresholds": {"500": 30, "1000": 40, "2000": 50}}, \#(Self.goodRight)"#
        #expect(try refusal(#"{"maximumOutputSPL": \#(value), \#(good)}"#) != nil)
    }

    @Test("the message for 1e308 names the value without trapping")
    func wording() {
        #expect(HearingError.thresholdOutOfRange(ear: .left, frequencyHz: 1000, decibelsHL: 1e308).userMessage
                == "The left ear's threshold at 1000 Hz is 1e+308 dB HL, outside the allowed range −10 to 120 dB HL.")
        #expect(HearingError.notAnAudiometricFrequency(.infinity).userMessage.hasPrefix("infinity Hz is not"))
        #expect(HearingError.sampleRateTooLow(.nan).userMessage.contains("not a number"))
    }
}
