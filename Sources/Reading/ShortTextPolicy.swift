import Foundation

/// Short-text mode (as in Seeing AI): live frames are read quickly, and text is said as soon as it is
/// steady in view; the same text is not said again while it stays in view (nor when it comes back
/// soon after), and `stop()` ends the mode at once.
///
/// A plain value driven by the caller: each reading comes with the time it was taken (the frame's
/// clock), so a session, a test or a video file drives it alike, and no timer runs inside.
public struct ShortTextPolicy: Sendable {
    public struct Settings: Sendable, Equatable {
        /// Text must be read alike for this long (and in at least `steadyReadings` frames) before it
        /// is said: a glimpse while the camera sweeps past is often half a sign.
        public var steadySeconds: Double
        public var steadyReadings: Int
        /// Two readings count as the same text when at least this share of their words match
        /// (a frame often drops or misreads one word of a sign).
        public var sameTextWordShare: Double
        /// Text already said is said again only after it has been out of view this long.
        public var forgetAfterSeconds: Double

        public init(steadySeconds: Double = 0.5, steadyReadings: Int = 2, sameTextWordShare: Double = 0.6,
                    forgetAfterSeconds: Double = 30) {
            self.steadySeconds = steadySeconds
            self.steadyReadings = steadyReadings
            self.sameTextWordShare = sameTextWordShare
            self.forgetAfterSeconds = forgetAfterSeconds
        }
    }

    public let settings: Settings
    public private(set) var isStopped = false
    /// The text being watched for steadiness: its words, when first seen, how many readings agreed.
    private var candidate: (words: [String], since: Double, readings: Int)?
    /// Texts said, with the last time each was in view.
    private var said: [(words: [String], lastSeen: Double)] = []

    public init(settings: Settings = Settings()) {
        self.settings = settings
    }

    /// The text to say for this reading, or nil (nothing steady yet, already said, or stopped).
    public mutating func observe(_ reading: TextReading, atSeconds time: Double) -> String? {
        guard !isStopped else { return nil }
        let words = Self.comparableWords(reading)
        said.removeAll { time - $0.lastSeen > settings.forgetAfterSeconds }
        guard !words.isEmpty else {
            candidate = nil
            return nil
        }
        if let index = said.firstIndex(where: { isSame($0.words, words) }) {
            said[index].lastSeen = time
            candidate = nil
            return nil
        }
        if let current = candidate, isSame(current.words, words) {
            candidate = (words, current.since, current.readings + 1)
        } else {
            candidate = (words, time, 1)
        }
        guard let steady = candidate, steady.readings >= settings.steadyReadings,
              time - steady.since >= settings.steadySeconds else { return nil }
        said.append((words, time))
        candidate = nil
        return reading.lines.map(\.text).joined(separator: " ")
    }

    /// Ends the mode: nothing more is said until a new policy starts.
    public mutating func stop() {
        isStopped = true
        candidate = nil
    }

    /// Lower-case letters and digits of each word, so "EXIT." and "Exit" are the same word.
    static func comparableWords(_ reading: TextReading) -> [String] {
        reading.lines.flatMap(\.words).map { word in
            String(word.text.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }.map(Character.init))
        }.filter { !$0.isEmpty }
    }

    private func isSame(_ a: [String], _ b: [String]) -> Bool {
        let shared = Set(a).intersection(Set(b)).count
        return Double(shared) >= settings.sameTextWordShare * Double(max(Set(a).count, Set(b).count))
    }
}

/// "Read the page": a page read whole, said in parts of at most 3 s; it can be paused (stop) and
/// continued where it left off, and says when the page ends.
public struct PageReading: Sendable, Equatable {
    public let parts: [String]
    public private(set) var nextPart = 0
    public private(set) var isPaused = false

    /// `wordsPerMinute`: the voice's rate, so each part fits in `SpokenParts.defaultMaximumSeconds`.
    public init(_ reading: TextReading, wordsPerMinute: Int, maximumSeconds: Double = SpokenParts.defaultMaximumSeconds) {
        parts = SpokenParts.parts(of: reading, maximumWords: SpokenParts.wordsFitting(seconds: maximumSeconds,
                                                                                       wordsPerMinute: wordsPerMinute))
    }

    public var isFinished: Bool { nextPart >= parts.count }

    /// The next part to say (the session asks when the previous one has been heard); nil when paused or finished.
    public mutating func next() -> String? {
        guard !isPaused, nextPart < parts.count else { return nil }
        defer { nextPart += 1 }
        return parts[nextPart]
    }

    /// "Stop": the part being said is the last one until `resume()`.
    public mutating func pause() { isPaused = true }

    /// "Continue": carries on with the part after the last one said.
    public mutating func resume() { isPaused = false }
}
