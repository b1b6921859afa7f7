import Testing
@testable import Commands
