import Foundation
import Storage
import Testing

@Suite("History times and setting entries as the storage commands print them, in process")
struct HistoryTimeTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("30m, 2h and 1d count back from now; an ISO 8601 date is taken as it is")
    func durationsAndDates() throws {
        #expect(try HistoryTime.parse("30m", bound: .since, now: Self.now) == Self.now.addingTimeInterval(-1800))
        #expect(try HistoryTime.parse("2h", bound: .since, now: Self.now) == Self.now.addingTimeInterval(-7200))
        #expect(try HistoryTime.parse("1d", bound: .since, now: Self.now) == Self.now.addingTimeInterval(-86_400))
        #expect(try HistoryTime.parse("2026-11-22T10:00:00Z", bound: .since, now: Self.now)
                == Date(timeIntervalSince1970: 1_795_341_600))
    }

    @Test("a time that is neither is one sentence naming the bound and the text")
    func neither() {
        #expect(throws: HistoryTimeError(bound: .until, text: "yesterday")) {
            _ = try HistoryTime.parse("yesterday", bound: .until, now: Self.now)
        }
        #expect(HistoryTimeError(bound: .until, text: "-2h").userMessage
                == "The end of the period must be a duration such as 30m, 2h or 1d, or an ISO 8601 date such as 2026-11-22; \"-2h\" is neither.")
    }

    @Test("a changed setting shows its value, its default and what it accepts; names print without quotes")
    func settingEntry() throws {
        var settings = Settings.defaults
        settings.units = .imperial
        let entry = SettingEntry(try SettingsSchema.definition(for: "units"), in: settings)
        #expect(entry.changed)
        #expect(entry.value.displayText == "imperial")
        #expect(entry.description.hasPrefix("units = imperial  (changed; default metric)\n    "))
        #expect(entry.description.hasSuffix(" Allowed: \(entry.allowed)."))
        let unchanged = SettingEntry(try SettingsSchema.definition(for: "units"), in: .defaults)
        #expect(!unchanged.changed && unchanged.description.hasPrefix("units = metric\n"))
    }

    @Test("a value a setting does not allow is refused as the user's input; a storage fault is not")
    func settingRefusals() {
        #expect(StorageError.invalidSetting(key: "speech.pitch", allowed: "0 to 100", given: "1e19").refusesValue)
        #expect(StorageError.conflictingSettings(keys: ["a", "b"], reason: "they overlap").refusesValue)
        #expect(!StorageError.diskFull(path: "/data/assist.sqlite").refusesValue)
    }
}
