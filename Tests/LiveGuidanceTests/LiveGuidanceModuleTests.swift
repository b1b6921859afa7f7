import Testing
@testable import LiveGuidance

@Test func modeNamesAreTheCommandLineNames() {
    #expect(GuidanceMode.onDemand.name == "on-demand")
    #expect(GuidanceMode.find(FindTarget(categories: ["chair"], spokenName: "chair")).name == "find")
}
