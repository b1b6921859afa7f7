import Foundation
import Guidance

/// What reaches the session, and in what order: items scheduled on the session clock (`--at`
/// requests and lines, a recording's spoken commands) at their own moments, then whatever was
/// sent through `controls` meanwhile, with "exit" before everything sent with it.
///
/// It only orders and delivers; what each request does is the session's (`GuidanceSession.handle`).
/// Used from the session's task only.
final class RequestInbox {
    /// One thing for the session to act on: a request (with whom to answer), or settings.
    typealias Arrival = SessionControls.Item

    let controls: SessionControls
    /// Carries out a scheduled typed line (the command language), which sends what it means
    /// through `controls`. Without it, scheduled lines are ignored.
    var carryOutLine: ((String) -> Void)?
    /// Said to whatever was sent together with an "exit" (it is never carried out).
    private let goodbye: String
    private var scheduled: [ScheduledItem]

    init(controls: SessionControls, requests: [ScheduledRequest], lines: [ScheduledLine], goodbye: String) {
        self.controls = controls
        self.goodbye = goodbye
        let items = requests.map { ScheduledItem(atSeconds: $0.atSeconds, action: .request($0.request)) }
            + lines.map { ScheduledItem(atSeconds: $0.atSeconds, action: .line($0.text)) }
        // Stable: items given for the same moment keep their order.
        scheduled = items.enumerated().sorted { ($0.element.atSeconds, $0.offset) < ($1.element.atSeconds, $1.offset) }.map(\.element)
    }

    /// Calls `action` at `seconds` on the session clock; what it sends through `controls` is
    /// handled at that moment. After what is already due at the same moment.
    func schedule(atSeconds seconds: Double, _ action: @escaping () -> Void) {
        let item = ScheduledItem(atSeconds: seconds, action: .call(action))
        scheduled.insert(item, at: scheduled.firstIndex { $0.atSeconds > seconds } ?? scheduled.endIndex)
    }

    /// When the next scheduled item is due, on the session clock.
    var nextScheduledSeconds: Double? { scheduled.first?.atSeconds }

    /// Whether anything waits: sent through the controls, or scheduled by `seconds`.
    func hasArrivals(by seconds: Double) -> Bool {
        controls.hasWaitingItems || (nextScheduledSeconds.map { $0 <= seconds } ?? false)
    }

    /// Hands `act` everything due by `seconds`, in order: each scheduled item at its own moment
    /// (`moment` is told it first and gives the time to act at: offline, the speech is rendered
    /// up to there), then what was sent meanwhile, at `seconds`. Stops taking scheduled items once
    /// `ended` says so.
    func deliver(upTo seconds: Double, ended: () -> Bool, moment: (Double) -> Double, act: (Arrival, Double) -> Void) {
        while let next = scheduled.first, next.atSeconds <= seconds, !ended() {
            scheduled.removeFirst()
            let time = moment(next.atSeconds)
            switch next.action {
            case .request(let request): act(.request(request, answer: nil), time)
            case .line(let text):
                // What the line sends (commands, settings) is handled now, at the line's moment.
                carryOutLine?(text)
                deliverSent(at: time, act: act)
            case .call(let action):
                action()
                deliverSent(at: time, act: act)
            }
        }
        deliverSent(at: seconds, act: act)
    }

    private func deliverSent(at time: Double, act: (Arrival, Double) -> Void) {
        var items = controls.takeAll()
        // "Exit" goes before everything sent with it: what they would say is never heard anyway.
        if let quit = items.firstIndex(where: { if case .request(.quit, _) = $0 { return true } else { return false } }) {
            for case .request(let request, let answer?) in items where request != .quit { answer(.notCarriedOut(goodbye)) }
            items = [items[quit]]
        }
        for item in items { act(item, time) }
    }
}
