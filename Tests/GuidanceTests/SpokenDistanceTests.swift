import Testing
@testable import Guidance

@Suite("Spoken distances")
struct SpokenDistanceTests {
    let english: SceneDescriber = {
        do { return try SceneDescriber(language: "en") } catch { fatalError("\(error)") }
    }()

    func phrase(_ meters: Double?, _ unit: DistanceUnit = .meters) -> String {
        english.distancePhrase(SpokenDistance(meters: meters, unit: unit))
    }

    @Test("meters: under 1 m 'less than 1 meter', whole meters to 10, then steps of 5",
          arguments: [(0.2, "less than 1 meter"), (0.99, "less than 1 meter"), (1.0, "1 meter"), (1.49, "1 meter"),
                      (1.5, "2 meters"), (4.4, "4 meters"), (9.4, "9 meters"), (9.6, "10 meters"), (12.4, "10 meters"),
                      (12.6, "15 meters"), (31, "30 meters")])
    func meters(value: Double, expected: String) {
        #expect(phrase(value) == expected)
    }

    @Test("feet: under 3 ft 'less than 3 feet', whole feet to 30, then steps of 10",
          arguments: [(0.5, "less than 3 feet"), (0.3048, "less than 3 feet"), (0.9144, "3 feet"), (2.0, "7 feet"),
                      (8.0, "26 feet"), (12.0, "40 feet")])
    func feet(value: Double, expected: String) {
        #expect(phrase(value, .feet) == expected)
    }

    @Test("no estimate is 'distance unknown', never a number")
    func unknown() {
        #expect(phrase(nil) == "distance unknown")
        #expect(phrase(.nan) == "distance unknown")
        #expect(SpokenDistance(meters: nil, unit: .feet) == .unknown)
    }
}
