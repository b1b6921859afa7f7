/// What the user (by voice, typed text or another program) can ask the running session to do.
/// Settings (confidence, ignored categories, hazards, volume, speech rate, …) are not here: they
/// are changed in the settings store, which the session follows.
public enum SessionRequest: Sendable, Equatable {
    /// "Scan now" / "what's in front of me": one full description of the newest frame, in any mode.
    case scanNow
    /// "Explore scene": a structured summary of the newest frame.
    case explore
    /// "Read the text", "what colour is this", …: answered from the newest frame (see `PictureQuestions`).
    case ask(PictureQuestion)
    /// "Are there any obstacles?": one answer about the walking corridor.
    case checkObstacles
    /// "Enable continuous scanning", "switch to on-demand", "enable scene navigation".
    case setMode(GuidanceMode)
    /// "Find a chair", "is there a person ahead?".
    case find(FindTarget)
    /// "Stop detection" / "start detection": the camera stays open, nothing is analysed or said.
    case pause
    case resume
    case switchCamera
    case setBatterySaver(Bool)
    /// "Repeat": the last thing said, again.
    case repeatLast
    /// "Stop" / "stop talking": silence what is being said now, within 5 ms of audio time (hazards
    /// still get through later; the rest of a long answer waits for "more").
    case stopTalking
    /// "More" / "next": the next part of a long answer (help, a summary, a list), also after "stop".
    case more
    /// "Exit": says goodbye, frees camera and models, ends the run.
    case quit
    /// Says a sentence as an answer: the confirmation of a settings change, or a report the user
    /// asked for ("what did you detect recently?"), spoken in turn with everything else.
    case say(String)
}
