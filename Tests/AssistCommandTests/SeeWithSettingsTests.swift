import Foundation
import TestSupport
import Testing

@Suite("assist see with the user's stored settings and history", .serialized)
struct SeeWithSettingsTests {
    func objects(_ output: AssistBinary.Output) throws -> [[String: Any]] {
        let results = try #require(try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [[String: Any]])
        return try #require((results.first?["report"] as? [String: Any])?["objects"] as? [[String: Any]])
    }

    @Test("a stored confidence threshold and ignored category apply; an option on the command line wins over them")
    func storedSettingsApply() throws {
        let user = AssistBinary.userFolders()
        defer { user.remove() }
        let bus = AssistBinary.image("bus.jpg")
        let before = try objects(try AssistBinary.run(["see", "--quiet", bus, "--json"], environment: user.environment))
        #expect(before.contains { $0["label"] as? String == "person" })

        #expect(try AssistBinary.run(["settings", "set", "detection.confidenceThreshold", "0.9"], environment: user.environment).status == 0)
        let strict = try objects(try AssistBinary.run(["see", "--quiet", bus, "--json"], environment: user.environment))
        #expect(!strict.isEmpty && strict.allSatisfy { ($0["confidence"] as? Double ?? 0) >= 0.9 })
        #expect(strict.count < before.count)

        let overridden = try objects(try AssistBinary.run(["see", "--quiet", bus, "--json", "--confidence", "0.6"], environment: user.environment))
        #expect(overridden.count == before.count)

        #expect(try AssistBinary.run(["settings", "set", "detection.confidenceThreshold", "0.6"], environment: user.environment).status == 0)
        // "person" is prioritised by default, and a category cannot be both; hazards (bus) cannot be ignored.
        #expect(try AssistBinary.run(["settings", "set", "detection.prioritisedCategories", "none"], environment: user.environment).status == 0)
        #expect(try AssistBinary.run(["settings", "set", "detection.ignoredCategories", "person"], environment: user.environment).status == 0)
        let ignoring = try AssistBinary.run(["see", "--quiet", bus], environment: user.environment)
        #expect(ignoring.standardOutput.contains("Bus, "))
        #expect(!ignoring.standardOutput.contains("erson") && !ignoring.standardOutput.contains("people"))
    }

    @Test("a stored prioritised category is announced first, before closer objects; by default the closest come first")
    func prioritisedCategoryFirst() throws {
        let user = AssistBinary.userFolders()
        defer { user.remove() }
        let bus = AssistBinary.image("bus.jpg")
        let closestFirst = try AssistBinary.run(["see", "--quiet", bus], environment: user.environment)
        #expect(closestFirst.standardOutput.split(separator: "\n").last?.hasPrefix("Bus, ") == true, "\(closestFirst.standardOutput)")
        #expect(try AssistBinary.run(["settings", "set", "detection.prioritisedCategories", "bus"], environment: user.environment).status == 0)
        let busFirst = try AssistBinary.run(["see", "--quiet", bus], environment: user.environment)
        #expect(busFirst.standardOutput.split(separator: "\n").first?.hasPrefix("Bus, ") == true, "\(busFirst.standardOutput)")
    }

    @Test("what see announces is in the history, and --no-history leaves the history untouched")
    func historyRecorded() throws {
        let user = AssistBinary.userFolders()
        defer { user.remove() }
        #expect(try AssistBinary.run(["see", "--quiet", AssistBinary.image("bus.jpg")], environment: user.environment).status == 0)
        let listed = try AssistBinary.run(["history", "list", "--json"], environment: user.environment)
        #expect(listed.status == 0)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(listed.standardOutput.utf8)) as? [[String: Any]])
        #expect(rows.contains { $0["label"] as? String == "bus" })
        #expect(rows.filter { $0["label"] as? String == "person" }.count >= 3)

        #expect(try AssistBinary.run(["see", "--quiet", AssistBinary.image("zidane.jpg"), "--no-history"], environment: user.environment).status == 0)
        let after = try AssistBinary.run(["history", "list", "--json"], environment: user.environment)
        let rowsAfter = try #require(try JSONSerialization.jsonObject(with: Data(after.standardOutput.utf8)) as? [[String: Any]])
        #expect(rowsAfter.count == rows.count)

        let recent = try AssistBinary.run(["history", "recent"], environment: user.environment)
        #expect(recent.standardOutput.lowercased().contains("bus"))
    }
}
