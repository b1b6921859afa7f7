import Testing
@testable import AssistCore
