import Testing
@testable import Media
