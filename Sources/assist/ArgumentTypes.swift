import ArgumentParser
import Guidance
import Media
import Perception

// Library enums made parsable on the command line. Parsing only: the values and their meaning
// live in the libraries.

extension InferenceDevice: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument.uppercased()) }
}
extension InferencePrecision: ExpressibleByArgument {}
extension DetectorInputShape: ExpressibleByArgument {}
extension DistanceUnit: ExpressibleByArgument {
    public init?(argument: String) { self.init(name: argument) }
}
extension SentenceStyle: ExpressibleByArgument {}
extension DirectionStyle: ExpressibleByArgument {}
extension DepthEstimator.OutputKind: ExpressibleByArgument {}
extension DepthEstimator.InputNormalization: ExpressibleByArgument {}

/// How a depth file's numbers are stored, by the names users type.
enum DepthFileFormat: String, ExpressibleByArgument, CaseIterable {
    case mm, tum, sun, nyu

    var encoding: DepthImageFile.Encoding {
        switch self {
        case .mm: return .millimeters16
        case .tum: return .tum
        case .sun: return .sunRotated
        case .nyu: return .nyuKinectDisparity
        }
    }
}

/// Which side of the picture the field of view is measured across.
enum FieldOfViewAxis: String, ExpressibleByArgument, CaseIterable {
    /// Across the picture's width, whatever its orientation.
    case horizontal
    /// Across the camera sensor's longer side, as specifications give it (right for phone photos).
    case longerSide = "longer-side"
}
