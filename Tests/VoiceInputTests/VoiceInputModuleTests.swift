import Testing
@testable import VoiceInput
