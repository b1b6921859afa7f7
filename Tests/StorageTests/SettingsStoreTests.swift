import AssistCore
import Foundation
import GRDB
import Testing
@testable import Storage

@Suite("Settings")
struct SettingsStoreTests {
    @Test("a new database has the default settings and no changed values")
    func defaults() throws {
        let storage = try TemporaryStorage()
        defer { storage.remove() }
        let store = settingsStore(try storage.open())
        #expect(try store.current() == Settings.defaults)
        #expect(try store.changedValues().isEmpty)
    }

    @Test("a changed setting survives closing and reopening the database, as after a restart")
    func survivesRestart() throws {
        let storage = try TemporaryStorage()
        defer { storage.remove() }
        do {
            let database = try storage.open()
            try settingsStore(database).set("speech.rateWordsPerMinute", text: "220")
            try settingsStore(database).set("units", text: "Imperial")
            try database.close()
        }
        let settings = try settingsStore(try storage.open()).current()
        #expect(settings.speech.rateWordsPerMinute == 220)
        #expect(settings.units == .imperial)
    }

    @Test("a setting changed through one connection is read at once through another")
    func seenByAnotherConnection() throws {
        let storage = try TemporaryStorage()
        defer { storage.remove() }
        let first = settingsStore(try storage.open())
        let second = settingsStore(try storage.open())
        #expect(try second.current().detection.confidenceThreshold == 0.6)
        try first.set("detection.confidenceThreshold", text: "0.65")
        #expect(try second.current().detection.confidenceThreshold == 0.65)
    }

    @Test("an out-of-range number is refused with the field and its range named, and nothing is stored",
          arguments: [
            ("detection.confidenceThreshold", "1.5", "a number from 0.05 to 0.95"),
            ("detection.iouThreshold", "0", "a number from 0.1 to 0.9"),
            ("detection.maximumObjects", "21", "a whole number from 1 to 20"),
            ("detection.maximumObjects", "2.5", "a whole number from 1 to 20"),
            ("speech.rateWordsPerMinute", "501", "a whole number from 80 to 500 words per minute"),
            ("speech.volumePercent", "0", "a whole number from 10 to 100 percent"),
            ("scanning.intervalSeconds", "0.1", "a number from 0.2 to 10 seconds"),
            ("camera.fieldOfViewDegrees", "nan", "a number from 30 to 170 degrees"),
            ("historyRetentionHours", "0", "a number from 1 to 720 hours"),
          ])
    func outOfRange(key: String, text: String, allowed: String) throws {
        let storage = try TemporaryStorage()
        defer { storage.remove() }
        let store = settingsStore(try storage.open())
        let error = storageError { try store.set(key, text: text) }
        guard case .invalidSetting(let namedKey, let namedAllowed, _)? = error else {
            Issue.record("expected invalidSetting, got \(String(describing: error))")
            return
        }
        #expect(namedKey == key)
        #expect(namedAllowed == allowed)
        #expect(error!.userMessage.contains(key) && error!.userMessage.contains(allowed))
        #expect(try store.changedValues().isEmpty)
    }

    @Test("a value of the wrong type is refused with the field named",
          arguments: [
            ("detection.maximumObjects", JSONValue.string("many")),
            ("feedback.hapticsEnabled", JSONValue.string("maybe")),
            ("feedback.hapticsEnabled", JSONValue.number(1)),
            ("detection.confidenceThreshold", JSONValue.bool(true)),
            ("detection.ignoredCategories", JSONValue.number(3)),
            ("detection.hazards", JSONValue.string("car")),
            ("speech.language", JSONValue.string("english please")),
            ("speech.voice", JSONValue.string("")),
          ])
    func wrongType(key: String, value: JSONValue) throws {
        let storage = try TemporaryStorage()
        defer { storage.remove() }
        let store = settingsStore(try storage.open())
        let error = storageError { try store.set(key, value: value) }
        guard case .invalidSetting(let namedKey, _, _)? = error else {
            Issue.record("expected invalidSetting, got \(String(describing: error))")
            return
        }
        #expect(namedKey == key)
        #expect(try store.current() == Settings.defaults)
    }

    @Test("a language no sentences are written in is refused with the ones there are; a regional tag of one is kept")
    func languages() throws {
        let storage = try TemporaryStorage()
        defer { storage.remove() }
        let store = SettingsStore(database: try storage.open(),
                                  validator: SettingsValidator(knownCategories: SettingsValidator.cocoCategories, languages: ["en"]))
        let error = storageError { try store.set("speech.language", text: "fr") }
        guard case .invalidSetting("speech.language", let allowed, _)? = error else {
            Issue.record("expected invalidSetting, got \(String(describing: error))")
            return
        }
        #expect(allowed.hasPrefix("one of en"))
        // What the form and `assist settings show` say is allowed is what the refusal says, for a malformed tag too.
        let definition = try SettingsSchema.definition(for: "speech.language")
        #expect(definition.allowed(by: store.validator) == allowed)
        #expect(SettingEntry(definition, in: .defaults, validator: store.validator).allowed == allowed)
        guard case .invalidSetting(_, let malformed, _)? = storageError({ try store.set("speech.language", text: "english please") }) else {
            Issue.record("a malformed tag was not refused")
            return
        }
        #expect(malformed == allowed)
        #expect(try store.current().speech.language == Settings.defaults.speech.language)
        try store.set("speech.language", text: "en-GB")
        #expect(try store.current().speech.language == "en-GB")
        // Storage on its own (a backup read back) takes any well-formed tag.
        try settingsStore(try storage.open()).set("speech.language", text: "fr")
    }

    @Test("an unknown category is refused with the closest valid names suggested",
          arguments: [("persn", "person"), ("bycicle", "bicycle"), ("trafic light", "traffic light"), ("Vehicels", "vehicles")])
    func unknownCategory(typed: String, suggested: String) throws {
        let storage = try TemporaryStorage()
        defer { storage.remove() }
        let store = settingsStore(try storage.open())
        let error = storageError { try store.set("detection.prioritisedCategories", text: "dog, \(typed)") }
        guard case .unknownCategory(let key, let name, let suggestions)? = error else {
            Issue.record("expected unknownCategory, got \(String(describing: error))")
            return
        }
        #expect(key == "detection.prioritisedCategories")
        #expect(name == typed)
        #expect(suggestions.first == suggested)
        #expect(error!.userMessage.contains("did you mean \(suggested)"))
        #expect(try store.current().detection.prioritisedCategories == ["person"])
    }

    @Test("categories are accepted whatever their case, and a group expands to its members")
    func groupsExpand() throws {
        let storage = try TemporaryStorage()
        defer { storage.remove() }
        let store = settingsStore(try storage.open())
        let settings = try store.set("detection.ignoredCategories", text: "Bird, animals, KITE")
        #expect(settings.detection.ignoredCategories ==
                ["bird", "cat", "dog", "horse", "sheep", "cow", "elephant", "bear", "zebra", "giraffe", "kite"])
        let hazards = try store.set("detection.hazards", text: "vehicles:siren:0.9, stop sign:chirp:0.4")
        #expect(hazards.detection.hazards.map(\.category) == ["bicycle", "car", "motorcycle", "bus", "truck", "train", "stop sign"])
        #expect(hazards.detection.hazards.last == HazardRule(category: "stop sign", tone: .chirp, intensity: 0.4))
        #expect(try store.set("detection.ignoredCategories", text: "none").detection.ignoredCategories.isEmpty)
    }

    @Test("a detector with other classes accepts its own names and refuses COCO names it lacks")
    func customClasses() throws {
        let storage = try TemporaryStorage()
        defer { storage.remove() }
        let store = SettingsStore(database: try storage.open(),
                                  validator: SettingsValidator(knownCategories: ["door", "stairs", "person"]))
        #expect(try store.set("detection.prioritisedCategories", text: "stairs, door").detection.prioritisedCategories == ["stairs", "door"])
        guard case .unknownCategory(_, "car", _)? = storageError({ try store.set("detection.ignoredCategories", text: "car") }) else {
            Issue.record("car should be unknown to this detector")
            return
        }
    }

    @Test("a hazard with an unknown tone or an intensity above 1 is refused, naming the part that is wrong")
    func badHazard() throws {
        let storage = try TemporaryStorage()
        defer { storage.remove() }
        let store = settingsStore(try storage.open())
        let tone = storageError { try store.set("detection.hazards", text: "car:honk:0.5") }
        #expect(tone?.userMessage.contains("detection.hazards tone must be one of beep, chirp, pulse, siren") == true)
        let intensity = storageError { try store.set("detection.hazards", text: "car:beep:1.5") }
        #expect(intensity?.userMessage.contains("detection.hazards intensity must be a number from 0 to 1") == true)
        #expect(try store.current().detection.hazards == Settings.defaults.detection.hazards)
    }

    @Test("an unknown setting name is refused with the closest names suggested")
    func unknownKey() throws {
        let storage = try TemporaryStorage()
        defer { storage.remove() }
        let store = settingsStore(try storage.open())
        guard case .unknownSetting(_, let suggestions)? = storageError({ try store.set("speech.rate", text: "200") }) else {
            Issue.record("expected unknownSetting")
            return
        }
        #expect(suggestions.first == "speech.rateWordsPerMinute")
        guard case .unknownSetting(_, let typo)? = storageError({ try store.set("detection.confidenceTreshold", text: "0.5") }) else {
            Issue.record("expected unknownSetting")
            return
        }
        #expect(typo == ["detection.confidenceThreshold"])
    }

    @Test("a category cannot be both prioritised and ignored, and a hazard cannot be ignored")
    func conflicts() throws {
        let storage = try TemporaryStorage()
        defer { storage.remove() }
        let store = settingsStore(try storage.open())
        guard case .conflictingSettings(let keys, _)? = storageError({ try store.set("detection.ignoredCategories", text: "person") }) else {
            Issue.record("expected conflictingSettings")
            return
        }
        #expect(keys == ["detection.prioritisedCategories", "detection.ignoredCategories"])
        guard case .conflictingSettings(let hazardKeys, let reason)? = storageError({ try store.set("detection.ignoredCategories", text: "truck") }) else {
            Issue.record("expected conflictingSettings")
            return
        }
        #expect(hazardKeys == ["detection.hazards", "detection.ignoredCategories"])
        #expect(reason.contains("truck"))
        #expect(try store.changedValues().isEmpty)
    }

    @Test("reset returns one setting to its default, and resetAll every setting")
    func reset() throws {
        let storage = try TemporaryStorage()
        defer { storage.remove() }
        let store = settingsStore(try storage.open())
        try store.set("speech.pitch", text: "70")
        try store.set("batterySaver", text: "on")
        #expect(try store.reset("speech.pitch").speech.pitch == 50)
        #expect(try store.current().batterySaver)
        try store.resetAll()
        #expect(try store.current() == Settings.defaults)
    }

    @Test("changes() yields the current settings, then each change as it is made")
    func observation() async throws {
        let storage = try TemporaryStorage()
        defer { storage.remove() }
        let store = settingsStore(try storage.open())
        var iterator = store.changes(pollInterval: .milliseconds(20)).makeAsyncIterator()
        #expect(await iterator.next() == Settings.defaults)
        try settingsStore(try storage.open()).set("scanning.mode", text: "navigation")
        #expect(await iterator.next()?.scanning.mode == .navigate)
        try store.set("scanning.intervalSeconds", text: "2.5")
        let next = await iterator.next()
        #expect(next?.scanning.intervalSeconds == 2.5 && next?.scanning.mode == .navigate)
    }

    @Test("a stored value that no longer validates falls back to its default instead of failing")
    func staleRowFallsBack() throws {
        let storage = try TemporaryStorage()
        defer { storage.remove() }
        let database = try storage.open()
        try database.pool.write { db in
            try db.execute(sql: "INSERT INTO setting (key, value, updatedAt) VALUES ('speech.pitch', '500', 0), ('gone.key', '1', 0), ('units', '\"imperial\"', 0)")
        }
        let settings = try settingsStore(database).current()
        #expect(settings.speech.pitch == 50)
        #expect(settings.units == .imperial)
    }
}

@Suite("One name per setting value")
struct SettingNamesTests {
    @Test("mode names stored are the command line's and the session's: explore can be stored, navigation is read as navigate")
    func modeNames() throws {
        let definition = try SettingsSchema.definition(for: "scanning.mode")
        #expect(try definition.validate(.string("explore"), validator: nil) == .string("explore"))
        #expect(try definition.validate(.string("Navigation"), validator: nil) == .string("navigate"))
        #expect(try definition.validate(.string("on-demand"), validator: nil) == .string("on-demand"))
        #expect(throws: StorageError.self) { try definition.validate(.string("sideways"), validator: nil) }
        #expect(try definition.validate(.string("light"), validator: nil) == .string("light"))
        #expect(Mode.startable.map(\.name) == ["continuous", "on-demand", "explore", "navigate", "light"])
    }

    @Test("units are accepted by either name: feet or imperial, meters or metric")
    func unitNames() throws {
        let definition = try SettingsSchema.definition(for: "units")
        #expect(try definition.validate(.string("feet"), validator: nil) == .string("imperial"))
        #expect(try definition.validate(.string("meters"), validator: nil) == .string("metric"))
        #expect(try definition.validate(.string("imperial"), validator: nil) == .string("imperial"))
        #expect(MeasurementUnits(name: "Feet") == .imperial)
    }

    @Test("a category group means the same members in settings validation as everywhere else")
    func groups() throws {
        let validator = SettingsValidator(knownCategories: COCOClasses.names)
        #expect(try validator.categories(named: "vehicles", forKey: "detection.ignoredCategories") == CategoryGroups.members["vehicles"])
    }
}
