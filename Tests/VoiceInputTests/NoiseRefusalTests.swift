import Foundation
import TestSupport
import Media
import Testing
@testable import VoiceInput

@Suite("Refusal notices")
struct RefusalNoticeTests {
    @Test("the full too-noisy sentence first, a short reminder while refusals keep coming, the full one again after a quiet spell")
    func reminders() {
        var notice = RefusalNotice(repeatWindowSeconds: 30)
        #expect(notice.tooNoisy(atSeconds: 5) == CommandListener<Never>.tooNoisy)
        #expect(notice.tooNoisy(atSeconds: 12) == RefusalNotice.tooNoisyReminder)
        #expect(notice.tooNoisy(atSeconds: 40) == RefusalNotice.tooNoisyReminder)  // 28 s after the last
        #expect(notice.tooNoisy(atSeconds: 71) == CommandListener<Never>.tooNoisy)
    }
}
