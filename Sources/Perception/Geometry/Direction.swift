import AssistCore
import Foundation

/// Where an object is, left to right, in the words spoken to the user.
public enum HorizontalDirection: String, Sendable, Equatable, Codable, CaseIterable {
    case left
    case slightlyLeft = "slightly left"
    case ahead
    case slightlyRight = "slightly right"
    case right
}

/// Whether an object is well above or below the horizon, or near it.
public enum VerticalPosition: String, Sendable, Equatable, Codable, CaseIterable {
    case highUp = "high up"
    case level
    case lowDown = "low down"
}

/// The angle limits that turn angles into words.
///
/// Why these defaults: ±10° "ahead" is the walking path. At 3 m, 10° is 0.53 m to the side, about
/// the half-width of a walking person plus a margin, so an object announced "ahead" is one the
/// user would walk into. Beyond ±25° (1.4 m to the side at 3 m) an object is clearly off the path,
/// so "left"/"right"; in between "slightly". A 70° camera sees ±35°, so "left"/"right" covers its
/// outer 10° on each side. ±20° from the horizon for "high up"/"low down" leaves things at head
/// or waist height unqualified: a person of 1.7 m at 3 m, seen from 1.3 m, has a box centre 8°
/// below the horizon; a traffic light 4 m up at 8 m is 19° above; a step at 2 m is 33° below.
public struct DirectionBands: Sendable, Equatable {
    /// |angle| below this is "ahead".
    public let aheadWithinDegrees: Double
    /// |angle| below this (and not ahead) is "slightly left/right"; beyond it "left/right".
    public let slightlyWithinDegrees: Double
    /// Elevation of the box centre beyond ± this is "high up" / "low down".
    public let verticalBeyondDegrees: Double

    public static let standard = DirectionBands(checkedAhead: 10, slightly: 25, vertical: 20)

    public init(aheadWithinDegrees: Double = 10, slightlyWithinDegrees: Double = 25,
                verticalBeyondDegrees: Double = 20) throws {
        guard aheadWithinDegrees > 0, aheadWithinDegrees < slightlyWithinDegrees, slightlyWithinDegrees <= 90 else {
            throw DirectionBandsError.bandsOutOfOrder(ahead: aheadWithinDegrees, slightly: slightlyWithinDegrees)
        }
        guard verticalBeyondDegrees > 0, verticalBeyondDegrees <= 90 else {
            throw DirectionBandsError.verticalOutOfRange(degrees: verticalBeyondDegrees)
        }
        self.init(checkedAhead: aheadWithinDegrees, slightly: slightlyWithinDegrees, vertical: verticalBeyondDegrees)
    }

    private init(checkedAhead: Double, slightly: Double, vertical: Double) {
        aheadWithinDegrees = checkedAhead
        slightlyWithinDegrees = slightly
        verticalBeyondDegrees = vertical
    }

    /// The word for a horizontal angle (negative = left). Band edges belong to the outer band:
    /// exactly 10° is "slightly", exactly 25° is "left"/"right".
    public func horizontal(angleDegrees: Double) -> HorizontalDirection {
        let size = abs(angleDegrees)
        if size < aheadWithinDegrees { return .ahead }
        if size < slightlyWithinDegrees { return angleDegrees < 0 ? .slightlyLeft : .slightlyRight }
        return angleDegrees < 0 ? .left : .right
    }

    /// The position for an elevation above the horizon (negative = below).
    public func vertical(elevationDegrees: Double) -> VerticalPosition {
        if elevationDegrees > verticalBeyondDegrees { return .highUp }
        if elevationDegrees < -verticalBeyondDegrees { return .lowDown }
        return .level
    }
}

public enum DirectionBandsError: UserFacingError, Equatable {
    case bandsOutOfOrder(ahead: Double, slightly: Double)
    case verticalOutOfRange(degrees: Double)

    public var userMessage: String {
        switch self {
        case .bandsOutOfOrder(let ahead, let slightly):
            return "The 'ahead' band (\(ahead) degrees) must be more than 0 and narrower than the 'slightly' band (\(slightly) degrees), which must be at most 90."
        case .verticalOutOfRange(let degrees):
            return "The 'high up / low down' limit must be more than 0 and at most 90 degrees, not \(degrees)."
        }
    }
}

/// The direction of an object's box centre as seen from the camera.
public struct Direction: Sendable, Equatable {
    /// Degrees right of straight ahead (negative = left): atan((u − cx) / fx) at the box centre.
    public let angleDegrees: Double
    /// Degrees above the horizon (negative = below), with the camera's pitch taken out.
    public let elevationDegrees: Double
    public let horizontal: HorizontalDirection
    public let vertical: VerticalPosition
    /// Clock position: 12 ahead, 30° per hour, clamped to 9 (left) … 3 (right).
    public let clockHour: Int

    public init(angleDegrees: Double, elevationDegrees: Double, bands: DirectionBands = .standard) {
        self.angleDegrees = angleDegrees
        self.elevationDegrees = elevationDegrees
        horizontal = bands.horizontal(angleDegrees: angleDegrees)
        vertical = bands.vertical(elevationDegrees: elevationDegrees)
        clockHour = Self.clockHour(angleDegrees: angleDegrees)
    }

    /// Rebuilds a direction whose words were decided elsewhere (decoding JSON).
    public init(angleDegrees: Double, elevationDegrees: Double, horizontal: HorizontalDirection,
                vertical: VerticalPosition, clockHour: Int) {
        self.angleDegrees = angleDegrees
        self.elevationDegrees = elevationDegrees
        self.horizontal = horizontal
        self.vertical = vertical
        self.clockHour = clockHour
    }

    /// 12 o'clock ahead, 30° per hour, rounded to the nearest hour and clamped to 9…3 (behind the
    /// user is never in view): −45° → 10 o'clock (−1.5 h rounds away from zero), +20° → 1 o'clock.
    public static func clockHour(angleDegrees: Double) -> Int {
        let hours = max(-3, min(3, Int((angleDegrees / 30).rounded())))
        return hours <= 0 ? 12 + hours : hours
    }
}
