/// Names for several detector categories at once ("vehicles" → bicycle, car, …), in COCO's
/// terms: the one definition that the command language ("ignore vehicles"), settings validation
/// (`settings set detection.ignoredCategories vehicles`) and the live loop share, so the same
/// word means the same categories wherever it is said. A detector with other classes keeps the
/// members it has. The words for each group (its singular, other languages) are in the language
/// files; the members are here.
public enum CategoryGroups {
    public static let members: [String: [String]] = [
        "people": ["person"],
        // What a pedestrian shares the street with; boats and aeroplanes are not in the way.
        "vehicles": ["bicycle", "car", "motorcycle", "bus", "truck", "train"],
        "animals": ["bird", "cat", "dog", "horse", "sheep", "cow", "elephant", "bear", "zebra", "giraffe"],
        "furniture": ["chair", "couch", "bed", "dining table", "bench"],
        "seats": ["chair", "couch", "bench"],
        // "Where is my bag" is any of them: taking it for a handbag alone would never find a rucksack.
        "bags": ["handbag", "backpack", "suitcase"],
    ]

    /// Whether `category` belongs to the group `name`.
    public static func contains(_ name: String, _ category: String) -> Bool {
        members[name]?.contains(category) ?? false
    }
}
