import Foundation

/// The laptop's or handheld's battery, read from sysfs (`/sys/class/power_supply/*/capacity` and
/// `status`). A desktop has no battery there, so its saver never turns on.
public struct BatteryMonitor: Sendable {
    public struct Reading: Sendable, Equatable {
        /// 0…100, averaged over the system's batteries.
        public let capacityPercent: Int
        /// Whether any battery reports "Discharging" (running on battery).
        public let isDischarging: Bool

        public init(capacityPercent: Int, isDischarging: Bool) {
            self.capacityPercent = capacityPercent
            self.isDischarging = isDischarging
        }
    }

    public static let defaultPowerSupplyFolder = URL(fileURLWithPath: "/sys/class/power_supply")
    /// Below this the battery saver turns on (the level where phones and laptops offer theirs).
    public static let saverOnBelowPercent = 15
    /// At or above this, or once charging, it turns off again: 5 points of hysteresis so the rate
    /// does not flip back and forth at 15 %.
    public static let saverOffFromPercent = 20

    public let powerSupplyFolder: URL

    /// `powerSupplyFolder` is injectable so tests can give a fake sysfs tree.
    public init(powerSupplyFolder: URL = BatteryMonitor.defaultPowerSupplyFolder) {
        self.powerSupplyFolder = powerSupplyFolder
    }

    /// The batteries' state now; nil when there is no system battery (a desktop, a container).
    /// Entries whose `type` is not "Battery" (the mains adapter, USB ports) and batteries with
    /// `scope` "Device" (a wireless mouse's) are passed over.
    public func reading() -> Reading? {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: powerSupplyFolder.path)) ?? []
        var capacities: [Int] = []
        var discharging = false
        for entry in entries.sorted() {
            let folder = powerSupplyFolder.appendingPathComponent(entry)
            func attribute(_ name: String) -> String? {
                (try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8))?
                    .trimmingCharacters(in: .whitespacesAndNewlines)
            }
            guard attribute("type") == "Battery", attribute("scope") != "Device",
                  let capacity = attribute("capacity").flatMap(Int.init) else { continue }
            capacities.append(min(100, max(0, capacity)))
            if attribute("status") == "Discharging" { discharging = true }
        }
        guard !capacities.isEmpty else { return nil }
        return Reading(capacityPercent: capacities.reduce(0, +) / capacities.count, isDischarging: discharging)
    }

    /// Whether the saver should be on now, given whether it was on: on when discharging below 15 %,
    /// off again when charging or at 20 % or more.
    public func shouldSaveBattery(wasSaving: Bool) -> Bool {
        guard let reading = reading(), reading.isDischarging else { return false }
        return reading.capacityPercent < (wasSaving ? Self.saverOffFromPercent : Self.saverOnBelowPercent)
    }
}
