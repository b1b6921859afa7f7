import AssistCore
import Commands
import Perception
import SessionControl
import Storage
import Testing

/// A setting has one range: what the settings store accepts, `assist see` accepts and the stage
/// that uses it accepts, and what is refused is refused by all of them with the same words.
@Suite("One range per setting, from the settings to the stage that uses it")
struct SettingRangesTests {
    @Test("every field of view the settings accept, the camera model accepts; 180 degrees is refused by both")
    func fieldOfView() throws {
        let definition = SettingsSchema.fieldOfView
        guard case .number(let range, _) = definition.kind else {
            Issue.record("the field of view is not a number")
            return
        }
        for degrees in [range.lowerBound, 70, range.upperBound] {
            _ = try definition.validate(.number(degrees), validator: nil)
            _ = try Perception.CameraSettings(lens: .horizontalFieldOfView(degrees: degrees))
            _ = try CameraChoice(fieldOfViewDegrees: degrees).settings()
        }
        #expect(throws: StorageError.self) { try definition.validate(.number(180), validator: nil) }
        #expect(throws: CameraSettingsError.fieldOfViewOutOfRange(degrees: 180)) {
            try Perception.CameraSettings(lens: .horizontalFieldOfView(degrees: 180))
        }
    }

    @Test("a stored language no sentences are written in (French, stored before it was refused) is spoken over in English, and said so; English and en-GB are English without a word")
    func storedLanguageNotWritten() throws {
        let categories = SettingsValidator.cocoCategories
        let french = try SettingsStorageAccess.commandLanguage(stored: "fr", categories: categories)
        #expect(french.language.language == "en")
        #expect(french.note == "I cannot speak French yet, so I speak English.")
        // "change language to English", which mends the setting, is understood in the language spoken.
        let understanding = CommandUnderstanding(language: french.language, classifier: nil)
        guard case .act(let command) = understanding.decide("change language to English", channel: .typed) else {
            Issue.record("the advice is not understood as a command")
            return
        }
        #expect(command.language?.code == "en")
        for stored in ["en", "en-GB", "EN-us"] {
            let english = try SettingsStorageAccess.commandLanguage(stored: stored, categories: categories)
            #expect(english.language.language == "en")
            #expect(english.note == nil)
        }
    }

    @Test("--confidence and --iou take the stored settings' ranges, and say them in the settings' words")
    func wordingOptions() {
        #expect(DescriptionChoice(minimumConfidence: 0.05).problem == nil)
        #expect(DescriptionChoice(minimumConfidence: 0.95).problem == nil)
        #expect(DescriptionChoice(minimumConfidence: 0.01).problem?.requirement == "must be a number from 0.05 to 0.95, not 0.01.")
        #expect(DescriptionChoice(minimumConfidence: 1).problem?.requirement == "must be a number from 0.05 to 0.95, not 1.")
        #expect(DescriptionChoice(iouThreshold: 1).problem?.requirement == "must be a number from 0.1 to 0.9, not 1.")
    }

    @Test("the confidence threshold's default is one number: the stored setting's, the description's and the detector's")
    func confidenceDefault() throws {
        #expect(Storage.Settings.defaults.detection.confidenceThreshold == VisionLimits.defaultConfidenceThreshold)
        let described = try DescriptionChoice().settings(stored: nil)
        // The stages hold it as a Float.
        #expect(described.minimumConfidence == Float(VisionLimits.defaultConfidenceThreshold))
        #expect(DetectorSettings().confidenceThreshold == Float(VisionLimits.defaultConfidenceThreshold))
        #expect(DescriptionChoice().iouThreshold(stored: nil) == Float(VisionLimits.defaultIoUThreshold))
    }

    @Test("every setting's default is allowed by its own definition")
    func defaultsAllowed() throws {
        for definition in SettingsSchema.definitions {
            _ = try definition.validate(definition.value(in: .defaults), validator: nil)
        }
    }
}
