import AssistCore
import Testing
@testable import LiveGuidance

@Test func modeNamesAreTheCommandLineNames() {
    #expect(GuidanceMode.onDemand.name == "on-demand")
    #expect(GuidanceMode.find(FindTarget(categories: ["chair"], spokenName: "chair")).name == "find")
}

@Test("every mode has one stored name, one spoken name, and a guidance mode to start in unless it needs a target")
func oneModeType() {
    for mode in Mode.allCases {
        #expect(Mode(name: mode.name) == mode)
        #expect(Mode(name: " \(mode.name.uppercased()) ") == mode)
        #expect(!mode.spokenName.isEmpty)
        #expect((GuidanceMode(starting: mode) != nil) == mode.canStart)
        #expect(GuidanceMode(starting: mode).map(\.mode) ?? .find == mode)
    }
    #expect(Mode(name: "navigation") == .navigate)
    #expect(Mode(name: "sideways") == nil)
    #expect(GuidanceMode.find(FindTarget(categories: ["chair"], spokenName: "chair")).mode == .find)
}
