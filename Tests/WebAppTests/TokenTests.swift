import Testing
@testable import WebApp
