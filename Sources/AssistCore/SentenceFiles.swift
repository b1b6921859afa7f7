import Foundation

/// The one way every library reads the files of what it says (`Templates/en.json`,
/// `Templates/en.modes.json`, `Languages/en.json` …) and fills their `{placeholders}`.
///
/// One rule for a language without a file: it is refused with a sentence naming the languages
/// there are. Nothing falls back to English on its own, because a user who chose a language and
/// hears another has been given something they did not ask for; the settings only offer the
/// languages that have files, so the refusal is met only in a damaged installation.
public enum SentenceFiles {
    /// The file `<folder>/<language>[.<kind>].json` in `bundle`, decoded as `T`.
    /// - Parameters:
    ///   - what: the sentences in the user's words, for the error ("the guidance modes' sentences").
    ///   - kind: the part of a language's sentences when a folder holds several ("modes", "session").
    public static func load<T: Decodable>(_ type: T.Type, what: String, language: String, kind: String? = nil,
                                          folder: String, in bundle: Bundle) throws(SentenceFileError) -> T {
        let name = kind.map { "\(language).\($0)" } ?? language
        guard let url = bundle.url(forResource: name, withExtension: "json", subdirectory: folder) else {
            throw .languageNotAvailable(what: what, language: language,
                                        available: languages(kind: kind, folder: folder, in: bundle))
        }
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw .damaged(what: what, language: language, detail: error.localizedDescription)
        }
        do { return try JSONDecoder().decode(T.self, from: data) } catch {
            throw .damaged(what: what, language: language, detail: String(describing: error))
        }
    }

    /// The languages with a file of `kind` in `folder`, sorted ("en").
    public static func languages(kind: String? = nil, folder: String, in bundle: Bundle) -> [String] {
        guard let url = bundle.url(forResource: folder, withExtension: nil),
              let files = try? FileManager.default.contentsOfDirectory(atPath: url.path) else { return [] }
        let suffix = (kind.map { ".\($0)" } ?? "") + ".json"
        return files.filter { $0.hasSuffix(suffix) }
            .map { String($0.dropLast(suffix.count)) }
            // `en.json` must not count `en.modes.json` as a language "en.modes".
            .filter { !$0.contains(".") }
            .sorted()
    }

    /// `template` with each `{name}` replaced by its value in one pass, so braces inside a
    /// filled-in value stay as they are; a placeholder without a value stays visible rather than
    /// being silently dropped. The one template filler of every sentence file.
    public static func fill(_ template: String, _ values: [String: String]) -> String {
        var result = ""
        var rest = template[...]
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            // An unclosed brace is left with the rest of the text, once (it used to be doubled).
            result += rest[..<open]
            let name = String(rest[rest.index(after: open)..<close])
            result += values[name] ?? "{\(name)}"
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }

    /// The first letter upper-cased: a filled-in sentence may begin with an object's name.
    public static func capitalized(_ sentence: String) -> String {
        guard let first = sentence.first else { return sentence }
        return first.uppercased() + sentence.dropFirst()
    }
}

public enum SentenceFileError: UserFacingError, Equatable {
    case languageNotAvailable(what: String, language: String, available: [String])
    case damaged(what: String, language: String, detail: String)

    public var userMessage: String {
        switch self {
        case .languageNotAvailable(let what, let language, let available):
            let choices = available.isEmpty ? "none is installed; reinstall assist" : "there are \(available.joined(separator: ", "))"
            return "There are no \(what) in the language '\(language)'; \(choices)."
        case .damaged(let what, let language, let detail):
            return "The \(what) in '\(language)' are damaged (\(detail)); reinstall assist."
        }
    }
}
