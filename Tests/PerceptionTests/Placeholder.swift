import Testing
@testable import Perception
