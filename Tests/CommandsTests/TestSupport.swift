@testable import Commands

/// The default detector's classes (COCO, in class-index order), written out here so the tests
/// do not depend on a model being installed.
let cocoNames = [
    "person", "bicycle", "car", "motorcycle", "airplane", "bus", "train", "truck", "boat", "traffic light",
    "fire hydrant", "stop sign", "parking meter", "bench", "bird", "cat", "dog", "horse", "sheep", "cow",
    "elephant", "bear", "zebra", "giraffe", "backpack", "umbrella", "handbag", "tie", "suitcase", "frisbee",
    "skis", "snowboard", "sports ball", "kite", "baseball bat", "baseball glove", "skateboard", "surfboard",
    "tennis racket", "bottle", "wine glass", "cup", "fork", "knife", "spoon", "bowl", "banana", "apple",
    "sandwich", "orange", "broccoli", "carrot", "hot dog", "pizza", "donut", "cake", "chair", "couch",
    "potted plant", "bed", "dining table", "toilet", "tv", "laptop", "mouse", "remote", "keyboard",
    "cell phone", "microwave", "oven", "toaster", "sink", "refrigerator", "book", "clock", "vase",
    "scissors", "teddy bear", "hair drier", "toothbrush",
]

let english = try! CommandLanguage(language: "en", categories: cocoNames)

/// What a test expects: the intent and its slot, without the sentence forms.
struct Expected: CustomStringConvertible, Sendable {
    var intent: CommandIntent
    var categories: [String]?
    var number: Double?
    var language: String?

    init(_ intent: CommandIntent, _ categories: [String]? = nil, number: Double? = nil, language: String? = nil) {
        self.intent = intent
        self.categories = categories
        self.number = number
        self.language = language
    }

    func matches(_ command: Command?) -> Bool {
        guard let command, command.intent == intent else { return false }
        if command.categories?.categories != categories { return false }
        switch (command.number, number) {
        case (nil, nil): break
        case (let got?, let want?): if abs(got - want) > 1e-9 { return false }
        default: return false
        }
        return command.language?.code == language
    }

    var description: String {
        [intent.rawValue, categories?.joined(separator: ","), number.map { String($0) }, language]
            .compactMap { $0 }.joined(separator: " ")
    }
}
