import AssistCore
import Foundation
import Media

/// Decodes a test image with our own FFmpeg-based reader (Media).
func decodeTestImage(_ url: URL) throws -> RGBImage {
    try ImageFile(url).decode()
}
