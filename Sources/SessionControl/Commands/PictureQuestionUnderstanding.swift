import AssistCore
import Commands
import LiveGuidance

/// A question asked about a picture (`assist see PHOTO --ask`), understood as a typed command is:
/// carried out only when understood as a question about the picture; a line understood only
/// nearly, or as something else, is refused with its sentence, never answered as another question.
public enum PictureQuestionNotUnderstood: UserFacingError, Equatable {
    case notAQuestion(String)
    case unsure(sentence: String)
    case refused(sentence: String)

    public var userMessage: String {
        switch self {
        case .notAQuestion(let line): return "\"\(line)\" is not a question about the picture; ask, for example, what colour is the bus."
        case .unsure(let sentence): return "Not sure what was asked. \(sentence) Ask again in those words."
        case .refused(let sentence): return sentence
        }
    }
}

extension CommandUnderstanding {
    /// `line` as a question about a picture, by the same rule as every typed command.
    public func pictureQuestion(_ line: String) throws(PictureQuestionNotUnderstood) -> PictureQuestion {
        switch decide(line, channel: .typed) {
        case .act(let command):
            guard let meaning = CommandController.pictureQuestion(for: command) else { throw .notAQuestion(line) }
            return meaning
        case .confirm(let sentence, _): throw .unsure(sentence: sentence)
        case .refuse(let sentence): throw .refused(sentence: sentence)
        }
    }
}
