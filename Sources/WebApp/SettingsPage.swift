import AssistCore
import Foundation
import Storage

/// The Settings page: every setting of `SettingsSchema` with its label, help, allowed values and a
/// form that stores through `SettingsStore.set(_:text:)`, the path `assist settings set` takes,
/// so the same value is accepted or refused with the same sentence.
struct SettingsPage: Sendable {
    let store: SettingsStore

    /// What a change did: the sentence to show, and the key it was about.
    struct Outcome: Sendable, Equatable {
        var message: PageMessage
        var key: String?
        /// The text the user sent, shown again in a refused field so it can be corrected.
        var refusedText: String?
        var accepted: Bool
    }

    /// Stores `text` for `key`, as `assist settings set KEY TEXT` does.
    func change(key: String, text: String) -> Outcome {
        do {
            let definition = try SettingsSchema.definition(for: key)
            let settings = try store.set(definition.key, text: text)
            return Outcome(message: PageMessage(text: definition.changedSentence(in: settings), isWarning: false),
                           key: definition.key, refusedText: nil, accepted: true)
        } catch {
            let known = SettingsSchema.definitions.first { $0.key == key }
            return Outcome(message: PageMessage(text: userMessage(for: error), isWarning: true,
                                                fieldID: known.map { Self.fieldID($0.key) }, fieldName: known?.label),
                           key: key, refusedText: text, accepted: false)
        }
    }

    /// The id of a setting's control: "speech.pitch" → "setting-speech-pitch".
    static func fieldID(_ key: String) -> String {
        "setting-" + key.replacingOccurrences(of: ".", with: "-")
    }

    /// Returns `key` to its default, as `assist settings reset KEY` does.
    func reset(key: String) -> Outcome {
        do {
            let definition = try SettingsSchema.definition(for: key)
            let settings = try store.reset(definition.key)
            let sentence = "\(definition.key) is back to its default, \(definition.value(in: settings).displayText)."
            return Outcome(message: PageMessage(text: sentence, isWarning: false), key: definition.key, refusedText: nil, accepted: true)
        } catch {
            return Outcome(message: PageMessage(text: userMessage(for: error), isWarning: true),
                           key: key, refusedText: nil, accepted: false)
        }
    }

    func render(formToken: String, outcome: Outcome? = nil) -> String {
        let settings: Settings
        do { settings = try store.current() } catch {
            return pageDocument(.settings, body: "", message: PageMessage(text: userMessage(for: error), isWarning: true))
        }
        var body = """
        <p class="lead">Each setting is checked before it is stored, exactly as <code>assist settings set</code> checks it; \
        a running <code>assist see</code> follows the change at once.</p>
        """
        // The page is long (every setting): links to each group first, so nobody scrolls through all of it.
        var groups: [String] = []
        for definition in SettingsSchema.definitions where !groups.contains(Self.group(of: definition.key)) {
            groups.append(Self.group(of: definition.key))
        }
        body += "<nav aria-label=\"Setting groups\" class=\"groups\"><ul>" + groups.map { (group: String) -> String in
            "<li><a href=\"#group-\(group)\">\(escaped(Self.groupTitle(group)))</a></li>"
        }.joined(separator: "") + "</ul></nav>"
        var currentGroup = ""
        for definition in SettingsSchema.definitions {
            let group = Self.group(of: definition.key)
            if group != currentGroup {
                if !currentGroup.isEmpty { body += "</section>" }
                currentGroup = group
                body += "<section aria-labelledby=\"group-\(group)\"><h2 id=\"group-\(group)\">\(escaped(Self.groupTitle(group)))</h2>"
            }
            body += field(definition, settings: settings, formToken: formToken, outcome: outcome?.key == definition.key ? outcome : nil)
        }
        if !currentGroup.isEmpty { body += "</section>" }
        return pageDocument(.settings, body: body, message: outcome?.message)
    }

    /// "speech.pitch" → "speech"; a key without a dot is in "general".
    static func group(of key: String) -> String {
        key.contains(".") ? String(key.split(separator: ".")[0]) : "general"
    }

    static func groupTitle(_ group: String) -> String {
        switch group {
        case "detection": return "Detection"
        case "speech": return "Speech"
        case "feedback": return "Feedback"
        case "scanning": return "Scanning"
        case "camera": return "Camera"
        default: return "General"
        }
    }

    /// One setting: a labelled control, its help and allowed values tied to it by
    /// aria-describedby, a Save button, and a Reset button when it differs from the default.
    private func field(_ definition: SettingDefinition, settings: Settings, formToken: String, outcome: Outcome?) -> String {
        let id = Self.fieldID(definition.key)
        let value = definition.value(in: settings)
        let defaultValue = definition.value(in: .defaults)
        let shown = outcome?.refusedText ?? definition.typedText(for: value)
        let refused = outcome.map { !$0.accepted } ?? false
        let describedBy = "\(id)-help" + (refused ? " \(id)-error" : "")
        let invalid = refused ? " aria-invalid=\"true\"" : ""
        let control: String
        switch definition.kind {
        case .onOff:
            control = select(id: id, options: ["on", "off"], chosen: shown, describedBy: describedBy, invalid: invalid)
        case .choice(let options, _):
            control = select(id: id, options: options, chosen: shown, describedBy: describedBy, invalid: invalid)
        case .number, .wholeNumber:
            // Text, not type=number: the browser would refuse an out-of-range number itself, with
            // its own words, and the user would never see the sentence the command line gives.
            control = "<input id=\"\(id)\" name=\"value\" type=\"text\" inputmode=\"decimal\" value=\"\(escaped(shown))\" aria-describedby=\"\(describedBy)\"\(invalid)>"
        default:
            control = "<input id=\"\(id)\" name=\"value\" type=\"text\" value=\"\(escaped(shown))\" aria-describedby=\"\(describedBy)\"\(invalid)>"
        }
        let defaultNote = value == defaultValue ? "This is the default."
            : "Changed; the default is \(definition.typedText(for: defaultValue).isEmpty ? "none" : definition.typedText(for: defaultValue))."
        let error = refused ? "<p id=\"\(id)-error\" class=\"field-error\">\(escaped(outcome?.message.text ?? ""))</p>" : ""
        let reset = value == defaultValue ? "" : """
            <form method="post" action="/settings/reset" class="reset">
            <input type="hidden" name="\(AccessGuard.formField)" value="\(formToken)">
            <input type="hidden" name="key" value="\(escaped(definition.key))">
            <button type="submit" aria-label="Reset \(escaped(definition.label)) to its default">Reset</button>
            </form>
            """
        return """
        <div class="setting" id="\(id)-block">
        <form method="post" action="/settings">
        <input type="hidden" name="\(AccessGuard.formField)" value="\(formToken)">
        <input type="hidden" name="key" value="\(escaped(definition.key))">
        <label for="\(id)">\(escaped(definition.label))</label>
        <p id="\(id)-help" class="help">\(escaped(definition.help)) Allowed: \(escaped(definition.allowed(by: store.validator))). \(escaped(defaultNote)) \
        Its name for <code>assist settings</code>: <code>\(escaped(definition.key))</code>.</p>
        \(error)
        <div class="row">\(control)
        <button type="submit" aria-label="Save \(escaped(definition.label))">Save</button></div>
        </form>
        \(reset)
        </div>
        """
    }

    private func select(id: String, options: [String], chosen: String, describedBy: String, invalid: String) -> String {
        let items = options.map { option -> String in
            "<option value=\"\(escaped(option))\"\(option == chosen ? " selected" : "")>\(escaped(option))</option>"
        }.joined(separator: "")
        return "<select id=\"\(id)\" name=\"value\" aria-describedby=\"\(describedBy)\"\(invalid)>\(items)</select>"
    }
}
