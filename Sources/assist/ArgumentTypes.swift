import ArgumentParser
import Guidance
import Media
import Perception
import SessionControl

// Library enums made parsable on the command line. Parsing only: the values and their meaning
// live in the libraries.

extension InferenceDevice: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument.uppercased()) }
}
extension InferencePrecision: ExpressibleByArgument {}
extension PrecisionRequest: ExpressibleByArgument {}
extension DetectorInputShape: ExpressibleByArgument {}
extension DistanceUnit: ExpressibleByArgument {
    public init?(argument: String) { self.init(name: argument) }
}
extension SentenceStyle: ExpressibleByArgument {}
extension DirectionStyle: ExpressibleByArgument {}
extension DepthEstimator.OutputKind: ExpressibleByArgument {}
extension DepthEstimator.InputNormalization: ExpressibleByArgument {}

extension DepthFileFormat: ExpressibleByArgument {}
extension FieldOfViewAxis: ExpressibleByArgument {}
