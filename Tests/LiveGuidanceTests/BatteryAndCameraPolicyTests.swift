import Foundation
@testable import LiveGuidance
import Media
import Testing
import TestSupport

/// The session's two small policies over its clock: when the battery is asked and what turns the
/// saver on or off, and how many times a failing camera is opened again.
@Suite("Battery saving and camera retries over the session's clock")
struct BatteryAndCameraPolicyTests {
    /// A battery in a fake sysfs tree whose level the test changes.
    final class FakeBattery {
        let root: URL
        var monitor: BatteryMonitor { BatteryMonitor(powerSupplyFolder: root) }

        init() throws {
            root = try TemporaryFolder.make("battery-policy")
            try FileManager.default.createDirectory(at: root.appendingPathComponent("BAT0"), withIntermediateDirectories: true)
            try set(percent: 50)
        }

        deinit { try? FileManager.default.removeItem(at: root) }

        func set(percent: Int, status: String = "Discharging") throws {
            for (name, value) in ["type": "Battery", "capacity": "\(percent)", "status": status] {
                try Data("\(value)\n".utf8).write(to: root.appendingPathComponent("BAT0").appendingPathComponent(name))
            }
        }
    }

    @Test("the battery is asked at once, then no more often than its interval; low turns the saver on, 20 % off again")
    func batteryChecks() throws {
        let battery = try FakeBattery()
        var saving = BatterySaving(byUser: false)
        var changed: Bool
        changed = saving.check(battery.monitor, atSeconds: 0, everySeconds: 30)
        #expect(!changed, "50 %: nothing changes")
        try battery.set(percent: 10)
        changed = saving.check(battery.monitor, atSeconds: 29, everySeconds: 30)
        #expect(!changed, "not asked again before 30 s")
        #expect(!saving.isOn)
        changed = saving.check(battery.monitor, atSeconds: 30, everySeconds: 30)
        #expect(changed, "10 % at the next check: on")
        #expect(saving.isOn && saving.byBattery)
        try battery.set(percent: 17)
        changed = saving.check(battery.monitor, atSeconds: 60, everySeconds: 30)
        #expect(!changed, "17 %: stays on (hysteresis)")
        try battery.set(percent: 20)
        changed = saving.check(battery.monitor, atSeconds: 90, everySeconds: 30)
        #expect(changed, "20 %: off again")
        #expect(!saving.isOn)
    }

    @Test("the user's choice keeps the saver on whatever the battery says")
    func userChoice() throws {
        let battery = try FakeBattery()
        try battery.set(percent: 90, status: "Charging")
        var saving = BatterySaving(byUser: true)
        var changed: Bool
        changed = saving.check(battery.monitor, atSeconds: 0, everySeconds: 30)
        #expect(!changed)
        #expect(saving.isOn)
        saving.byUser = false
        #expect(!saving.isOn)
    }

    @Test("a camera is retried as often as allowed; failures a minute apart get the retries back, failures in a row use them up")
    func cameraRetries() {
        var retries = CameraRetries()
        retries.failed(atSeconds: 10, retries: 3)
        let first = retries.take(), second = retries.take()
        #expect(first && second)
        // It ran for a while and failed again within the minute: one retry left.
        retries.failed(atSeconds: 40, retries: 3)
        #expect(retries.left == 1)
        let last = retries.take(), noneLeft = !retries.take()
        #expect(last)
        #expect(noneLeft, "none left")
        // More than a minute after the last failure: all three again.
        retries.failed(atSeconds: 101, retries: 3)
        #expect(retries.left == 3)
    }
}
