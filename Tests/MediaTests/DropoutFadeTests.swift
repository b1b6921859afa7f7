import Testing
@testable import Media

@Suite("A dropout fades in instead of clicking")
struct DropoutFadeTests {
    @Test("the block after a dropout rises from silence to full level over at most 5 ms, every channel alike")
    func fadeIn() {
        var block = [Float](repeating: 0.5, count: 64 * 2)
        block.withUnsafeMutableBufferPointer { AudioDuplexStream.fadeIn($0.baseAddress!, frames: 64, channels: 2) }
        #expect(block[0] == 0 && block[1] == 0)
        for frame in 1..<64 {
            #expect(block[2 * frame] == block[2 * frame + 1])
            #expect(block[2 * frame] > block[2 * (frame - 1)])
        }
        #expect(block[126] < 0.5 && block[126] > 0.49)
        // A long block: the fade lasts 240 frames (5 ms at 48 kHz) and the rest is untouched.
        var long = [Float](repeating: 1, count: 1024)
        long.withUnsafeMutableBufferPointer { AudioDuplexStream.fadeIn($0.baseAddress!, frames: 1024, channels: 1) }
        #expect(long[239] < 1 && long[240...].allSatisfy { $0 == 1 })
    }
}
