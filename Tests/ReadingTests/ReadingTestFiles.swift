import AssistCore
import Foundation
import TestSupport
import Media
@testable import Reading

/// The shared text pictures (`../shared/data/text`), decoded.
enum ReadingTestFiles {
    static func picture(_ name: String) throws -> RGBImage { try ImageFile(SharedFiles.text(name)).decode() }

}

extension RGBImage {
    /// A grey picture as RGB (for turning test pages with GrayImage's own operations).
    init(gray: GrayImage) {
        self.init(width: gray.width, height: gray.height, pixels: gray.pixels.flatMap { [$0, $0, $0] })
    }
}

/// A word at a place, for reading-order and policy tests.
func word(_ text: String, x: Float, y: Float, width: Float? = nil, height: Float = 20, confidence: Float = 0.9) -> ReadWord {
    ReadWord(text: text, confidence: confidence,
             box: .init(x0: x, y0: y, x1: x + (width ?? Float(text.count) * height * 0.6), y1: y + height))
}
