import AssistCore
@testable import Commands

/// The default detector's classes, so the tests do not depend on a model being installed.
let cocoNames = COCOClasses.names

let english = try! CommandLanguage(language: "en", categories: cocoNames)

/// What a test expects: the intent and its slot, without the sentence forms.
struct Expected: CustomStringConvertible, Sendable {
    var intent: CommandIntent
    var categories: [String]?
    var number: Double?
    var language: String?

    init(_ intent: CommandIntent, _ categories: [String]? = nil, number: Double? = nil, language: String? = nil) {
        self.intent = intent
        self.categories = categories
        self.number = number
        self.language = language
    }

    func matches(_ command: Command?) -> Bool {
        guard let command, command.intent == intent else { return false }
        if command.categories?.categories != categories { return false }
        switch (command.number, number) {
        case (nil, nil): break
        case (let got?, let want?): if abs(got - want) > 1e-9 { return false }
        default: return false
        }
        return command.language?.code == language
    }

    var description: String {
        [intent.rawValue, categories?.joined(separator: ","), number.map { String($0) }, language]
            .compactMap { $0 }.joined(separator: " ")
    }
}

import Foundation
import TestSupport

/// ../shared/models beside the checkout, found the way the product finds it.
let sharedModelsLocator = ModelLocator(environment: [:], workingDirectory: SharedFiles.checkout, executableURL: nil)

/// The sentence model and the classifier over the language's examples, made once for all tests
/// (embedding the examples takes a second or two).
let understanding: CommandUnderstanding = {
    do { return try CommandUnderstanding.load(language: english, locator: sharedModelsLocator) } catch {
        fatalError("The sentence model must be in ../shared/models for these tests: \(error)")
    }
}()
