import AssistCore
import Commands
import Foundation
import Hummingbird
import SessionControl
import Storage
import Testing
@testable import WebApp

@Suite("The pages do what the command line does")
struct PagesTests {
    @Test("a setting changed in the form is stored, and the page says so in the command line's sentence")
    func settingChanged() async throws {
        let web = try WebTestApp()
        defer { web.remove() }
        let reply = try await web.request(.post, "/settings", form: ["key": "speech.pitch", "value": "62", "form_token": "form-secret"])
        #expect(reply.status == .ok)
        #expect(try web.store.current().speech.pitch == 62)
        #expect(reply.body.contains("role=\"status\" tabindex=\"-1\">speech.pitch is now 62.</p>"))
        #expect(reply.body.contains("Reset Pitch to its default"))
    }

    @Test("a list setting is typed as on the command line and read back the same way")
    func listSetting() async throws {
        let web = try WebTestApp()
        defer { web.remove() }
        let reply = try await web.request(.post, "/settings", form: ["key": "detection.ignoredCategories", "value": "bird, kite", "form_token": "form-secret"])
        #expect(reply.status == .ok)
        #expect(try web.store.current().detection.ignoredCategories == ["bird", "kite"])
        #expect(reply.body.contains("value=\"bird, kite\""))
    }

    @Test("a value out of range is refused with the same sentence as assist settings set, and nothing is stored")
    func settingRefused() async throws {
        let web = try WebTestApp()
        defer { web.remove() }
        var expected = ""
        do { try web.store.set("speech.volumePercent", text: "5") } catch { expected = userMessage(for: error) }
        #expect(expected.hasPrefix("The setting speech.volumePercent must be"))
        let reply = try await web.request(.post, "/settings", form: ["key": "speech.volumePercent", "value": "5", "form_token": "form-secret"])
        #expect(reply.status == .unprocessableContent)
        #expect(reply.body.contains("role=\"alert\" tabindex=\"-1\">\(escaped(expected))</p>"))
        #expect(reply.body.contains("<a href=\"#setting-speech-volumePercent\">Go to Speech volume to correct it</a>"))
        // The field is marked and keeps what was typed, so it can be corrected.
        #expect(reply.body.contains("value=\"5\" aria-describedby=\"setting-speech-volumePercent-help setting-speech-volumePercent-error\" aria-invalid=\"true\""))
        #expect(try web.store.current().speech.volumePercent == Storage.Settings.defaults.speech.volumePercent)
    }

    @Test("an unknown category and an unknown setting are refused with the storage's sentences")
    func unknownNames() async throws {
        let web = try WebTestApp()
        defer { web.remove() }
        let category = try await web.request(.post, "/settings", form: ["key": "detection.ignoredCategories", "value": "unicorn", "form_token": "form-secret"])
        #expect(category.status == .unprocessableContent)
        #expect(category.body.contains("does not accept &quot;unicorn&quot;"))
        let setting = try await web.request(.post, "/settings", form: ["key": "speech.pitchh", "value": "3", "form_token": "form-secret"])
        #expect(setting.status == .unprocessableContent)
        #expect(setting.body.contains("There is no setting called speech.pitchh"))
    }

    @Test("saving any setting as the form shows it changes nothing (the shown text reads back as the stored value)")
    func roundTrip() async throws {
        let web = try WebTestApp()
        defer { web.remove() }
        for definition in SettingsSchema.definitions {
            let shown = definition.typedText(for: definition.value(in: .defaults))
            let reply = try await web.request(.post, "/settings", form: ["key": definition.key, "value": shown, "form_token": "form-secret"])
            #expect(reply.status == .ok, "\(definition.key): \(shown)")
            #expect(definition.value(in: try web.store.current()) == definition.value(in: .defaults), "\(definition.key)")
        }
    }

    @Test("reset returns a setting to its default")
    func reset() async throws {
        let web = try WebTestApp()
        defer { web.remove() }
        try web.store.set("speech.pitch", text: "70")
        let reply = try await web.request(.post, "/settings/reset", form: ["key": "speech.pitch", "form_token": "form-secret"])
        #expect(reply.status == .ok)
        #expect(try web.store.current().speech.pitch == Storage.Settings.defaults.speech.pitch)
        #expect(reply.body.contains("speech.pitch is back to its default"))
    }

    @Test("every setting of the schema has a labelled control on the page")
    func everySetting() async throws {
        let web = try WebTestApp()
        defer { web.remove() }
        let page = try await web.request(.get, "/settings").body
        #expect(page.contains("<nav aria-label=\"Setting groups\" class=\"groups\"><ul><li><a href=\"#group-detection\">Detection</a></li>"))
        for definition in SettingsSchema.definitions {
            let id = "setting-" + definition.key.replacingOccurrences(of: ".", with: "-")
            #expect(page.contains("<label for=\"\(id)\">\(escaped(definition.label))</label>"), "\(definition.key)")
            #expect(page.contains("<code>\(escaped(definition.key))</code>"), "\(definition.key)")
            #expect(page.contains(escaped(definition.allowed)), "\(definition.key)")
        }
    }

    @Test("history lists what was announced, filters by label and counts each label")
    func history() async throws {
        let web = try WebTestApp()
        defer { web.remove() }
        let now = Date()
        try web.history.record([
            AnnouncedDetection(label: "person", confidence: 0.9, direction: "ahead", distanceMeters: 2.04, mode: "continuous", announcedAt: now.addingTimeInterval(-60)),
            AnnouncedDetection(label: "chair", confidence: 0.7, direction: "on your left", distanceMeters: nil, mode: "find", announcedAt: now.addingTimeInterval(-30)),
            AnnouncedDetection(label: "person", confidence: 0.8, direction: "on your right", distanceMeters: 4.5, mode: "continuous", announcedAt: now.addingTimeInterval(-10)),
        ], now: now)
        let all = try await web.request(.get, "/history").body
        #expect(all.contains("<tr><th scope=\"row\">person</th><td>2</td></tr>"))
        #expect(all.contains("<tr><th scope=\"row\">chair</th><td>1</td></tr>"))
        #expect(all.contains("<td>chair</td><td>on your left</td><td>unknown</td><td>find</td>"))
        #expect(all.contains("<td>person</td><td>ahead</td><td>2.0 m</td><td>continuous</td>"))
        let people = try await web.request(.get, "/history?label=person").body
        #expect(people.contains("Detections of person, oldest first (2)"))
        #expect(!people.contains("<td>chair</td>"))
    }

    @Test("help shows the tutorial and a phrase for every command, from the command language")
    func help() async throws {
        let web = try WebTestApp()
        defer { web.remove() }
        let language = try CommandLanguage(language: "en", categories: SettingsValidator.cocoCategories)
        let page = try await web.request(.get, "/help").body
        #expect(!language.tutorial.isEmpty)
        for sentence in language.tutorial { #expect(page.contains(escaped(sentence))) }
        for intent in CommandIntent.allCases { #expect(page.contains("<td>\(escaped(language.example(for: intent)))</td>")) }
        #expect(page.contains(escaped(language.help(mode: "continuous"))))
        #expect(page.contains("value=\"\(escaped(language.example(for: .tutorial)))\">Play the tutorial in the running session</button>"))
    }

    @Test("a Live button sends the command language's phrase to the session and its answer goes to every open page")
    func liveCommand() async throws {
        let web = try WebTestApp()
        defer { web.remove() }
        let listening = web.app.sentences.listen()
        let reply = try await web.request(.post, "/live/command", form: ["command": "scan now", "form_token": "form-secret"])
        #expect(reply.status == .ok)
        #expect(web.sent.all == ["scan now"])
        var iterator = listening.makeAsyncIterator()
        #expect(await iterator.next()?.text == "Scanning for scan now.")
        let find = try await web.request(.post, "/live/command", form: ["find": " a chair ", "form_token": "form-secret"])
        #expect(find.body.contains("Scanning for find a chair."))
        #expect(web.sent.all == ["scan now", "find a chair"])
        let page = try await web.request(.get, "/live").body
        #expect(page.contains("<li>Scanning for find a chair.</li>"))
        let language = try CommandLanguage(language: "en", categories: SettingsValidator.cocoCategories)
        #expect(page.contains("value=\"\(escaped(language.example(for: .scanNow)))\">Scan now</button>"))
    }

    @Test("every page has the skip link, the navigation with the current page marked, and one main region")
    func frame() async throws {
        let web = try WebTestApp()
        defer { web.remove() }
        for page in WebPage.allCases {
            let body = try await web.request(.get, page.path).body
            #expect(body.contains("<a class=\"skip\" href=\"#main\">Skip to the main content</a>"))
            #expect(body.contains("<nav aria-label=\"Pages\"><ul><li><a href=\"\(page.assistantPages[0].path)\""), "\(page)")
            #expect(body.contains("<li><a href=\"\(page.path)\" aria-current=\"page\">\(page.navigationTitle)</a></li>"), "\(page)")
            #expect(body.contains("<li><a href=\"\(page.otherAssistant.page.path)\">\(page.otherAssistant.name)</a></li>"), "\(page)")
            #expect(body.components(separatedBy: "<main").count == 2)
        }
    }

    @Test("a sentence is one server-sent event, stamped with when it reached the web app, even with a line break")
    func eventFormat() {
        let at = Date(timeIntervalSince1970: 1_790_000_000.25)
        #expect(WebApp.event(SpokenSentence(text: "A chair ahead.", publishedAt: at)) == "id: 1790000000250\ndata: A chair ahead.\n\n")
        #expect(WebApp.event(SpokenSentence(text: "one\ntwo", publishedAt: at)) == "id: 1790000000250\ndata: one\ndata: two\n\n")
    }
}
