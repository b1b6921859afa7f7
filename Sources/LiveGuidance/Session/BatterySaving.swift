import Media

/// Whether the battery saver is on (half the frame rate, smaller frames): the user's choice, or the
/// battery running low, asked every `checkSeconds` of the session's clock, never more often.
struct BatterySaving {
    /// Turned on by the user (`--battery-saver`, the setting, "battery saver on").
    var byUser: Bool
    /// Turned on by the battery (below 15 %, off again from 20 % or charging: `BatteryMonitor`).
    private(set) var byBattery = false
    private var lastCheckSeconds: Double?

    init(byUser: Bool) {
        self.byUser = byUser
    }

    var isOn: Bool { byUser || byBattery }

    /// Asks `battery` when a check is due at `now` (the first check at once); true when its answer
    /// turned the battery's part on or off.
    mutating func check(_ battery: BatteryMonitor, atSeconds now: Double, everySeconds interval: Double) -> Bool {
        if let lastCheckSeconds, now - lastCheckSeconds < interval { return false }
        lastCheckSeconds = now
        let low = battery.shouldSaveBattery(wasSaving: byBattery)
        guard low != byBattery else { return false }
        byBattery = low
        return true
    }
}

/// How often a failing camera is opened again: `retries` times, given back in full once it has run
/// for a minute since its last failure, so one that keeps failing soon after each reopening uses
/// them up and the session ends instead of retrying forever.
struct CameraRetries {
    private(set) var left = 0
    private var lastFailureSeconds = -Double.infinity

    /// The camera failed at `now`.
    mutating func failed(atSeconds now: Double, retries: Int) {
        if now - lastFailureSeconds > 60 { left = retries }
        lastFailureSeconds = now
    }

    /// Takes one retry; false when none is left.
    mutating func take() -> Bool {
        guard left > 0 else { return false }
        left -= 1
        return true
    }
}
