import Testing
@testable import Hearing
