/// Where an analysis module's answers are said, without knowing how: the output stage (Speech's
/// `SpokenOutput`) conforms, so reading, colour and prescription code hand their sentences on
/// instead of importing the stage after them.
public protocol AnswerVoice: AnyObject {
    /// Says `parts` as one answer (each part at most one short sentence); `key` tells answers apart.
    func sayAnswer(_ parts: [String], key: String)
    /// Waits until everything said was heard (or rendered); throws when it could not be.
    func finish() throws
}
