import AssistCore
import Foundation
import Testing
@testable import Storage

@Suite("Usage statistics")
struct UsageStatisticsTests {
    @Test("45 minutes of continuous detection with 52 objects is reported in one spoken sentence")
    func todaySentence() throws {
        let storage = try TemporaryStorage()
        defer { storage.remove() }
        let statistics = UsageStatistics(database: try storage.open())
        let start = referenceNow
        let first = try statistics.start(mode: "continuous", at: start)
        try statistics.recordProgress(session: first, addingFrames: 900, objectsAnnounced: 30, at: start.addingTimeInterval(900))
        try statistics.finish(session: first, at: start.addingTimeInterval(1800), batteryUsedPercent: 4)
        let second = try statistics.start(mode: "continuous", at: start.addingTimeInterval(3600))
        try statistics.recordProgress(session: second, addingFrames: 450, objectsAnnounced: 22, at: start.addingTimeInterval(4500))
        try statistics.finish(session: second, at: start.addingTimeInterval(4500))

        let summary = try statistics.summary(from: start, to: start.addingTimeInterval(86_400))
        #expect(summary.modes == [ModeUsage(mode: "continuous", sessions: 2, durationSeconds: 2700, frames: 1350,
                                            objectsAnnounced: 52, batteryUsedPercent: 4)])
        #expect(SpokenReport.usage(summary) == "Today you used continuous detection for 45 minutes and 52 objects were announced.")
    }

    @Test("several modes are listed most used first, and an unfinished session counts until its last report")
    func severalModes() throws {
        let storage = try TemporaryStorage()
        defer { storage.remove() }
        let statistics = UsageStatistics(database: try storage.open())
        let navigation = try statistics.start(mode: "navigation", at: referenceNow)
        try statistics.finish(session: navigation, at: referenceNow.addingTimeInterval(3900))
        let crashed = try statistics.start(mode: "on-demand", at: referenceNow.addingTimeInterval(4000))
        try statistics.recordProgress(session: crashed, addingFrames: 3, objectsAnnounced: 1, at: referenceNow.addingTimeInterval(4600))
        // Outside the period: not counted.
        _ = try statistics.start(mode: "continuous", at: referenceNow.addingTimeInterval(-10))

        let summary = try statistics.summary(from: referenceNow, to: referenceNow.addingTimeInterval(86_400))
        #expect(summary.modes.map(\.mode) == ["navigate", "on-demand"])
        #expect(summary.modes[1].durationSeconds == 600)
        #expect(SpokenReport.usage(summary, period: "Today") ==
                "Today you used navigation for 1 hour 5 minutes and on-demand detection for 10 minutes, and 1 object was announced.")
        #expect(SpokenReport.usage(UsageSummary(from: referenceNow, to: referenceNow, modes: []), period: "Yesterday") ==
                "Yesterday you have not used AssistiveKit.")
    }

    @Test("what a live session records is said by its spoken name, also when recorded by older versions as \"live continuous\"")
    func recordedModeNames() throws {
        let storage = try TemporaryStorage()
        defer { storage.remove() }
        let statistics = UsageStatistics(database: try storage.open())
        let old = try statistics.start(mode: "live continuous", at: referenceNow)
        try statistics.finish(session: old, at: referenceNow.addingTimeInterval(600))
        let new = try statistics.start(mode: Mode.continuous.name, at: referenceNow.addingTimeInterval(1000))
        try statistics.finish(session: new, at: referenceNow.addingTimeInterval(1600))
        let light = try statistics.start(mode: Mode.light.name, at: referenceNow.addingTimeInterval(2000))
        try statistics.finish(session: light, at: referenceNow.addingTimeInterval(2060))
        let pictures = try statistics.start(mode: "picture description", at: referenceNow.addingTimeInterval(3000))
        try statistics.finish(session: pictures, at: referenceNow.addingTimeInterval(3020))

        let summary = try statistics.summary(from: referenceNow, to: referenceNow.addingTimeInterval(86_400))
        #expect(summary.modes.map(\.mode) == ["continuous", "light", "picture description"])
        #expect(SpokenReport.usage(summary) == "Today you used continuous detection for 20 minutes, the light detector for 1 minute "
                + "and picture description for less than a minute, and 0 objects were announced.")
    }

    @Test("impossible usage values are refused with the field named")
    func invalidValues() throws {
        let storage = try TemporaryStorage()
        defer { storage.remove() }
        let statistics = UsageStatistics(database: try storage.open())
        let session = try statistics.start(mode: "continuous", at: referenceNow)
        guard case .invalidRecord("frames", _, _)? = storageError({
            try statistics.recordProgress(session: session, addingFrames: -1, objectsAnnounced: 0)
        }) else { Issue.record("expected invalidRecord(frames)"); return }
        guard case .invalidRecord("batteryUsedPercent", _, _)? = storageError({
            try statistics.finish(session: session, batteryUsedPercent: 140)
        }) else { Issue.record("expected invalidRecord(batteryUsedPercent)"); return }
        #expect(try statistics.sessions(from: referenceNow, to: referenceNow.addingTimeInterval(1)).first?.endedAt == nil)
    }
}
