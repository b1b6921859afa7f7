import Testing
@testable import Guidance
