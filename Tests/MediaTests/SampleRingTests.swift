import Media
import Testing

@Suite("The lock-free sample ring between a writer and an audio thread")
struct SampleRingTests {
    @Test("samples come out in order across the wrap-around; a full ring takes no more, an empty one gives none")
    func orderAndLimits() {
        let ring = SampleRing(minimumCapacity: 6)
        #expect(ring.capacity == 8)
        var next: Float = 0, expected: Float = 0
        var out = [Float](repeating: -1, count: 8)
        for round in 0..<50 {
            let chunk = (0..<(round % 7 + 1)).map { i in next + Float(i) }
            let taken = chunk.withUnsafeBufferPointer { ring.write($0) }
            #expect(taken == min(chunk.count, 8 - (ring.count - taken)))
            next += Float(taken)
            let wanted = round % 5 + 1
            let got = out.withUnsafeMutableBufferPointer { ring.read(into: $0.baseAddress!, count: wanted) }
            #expect(got <= wanted)
            for i in 0..<got {
                #expect(out[i] == expected)
                expected += 1
            }
        }
        let got = out.withUnsafeMutableBufferPointer { ring.read(into: $0.baseAddress!, count: 8) }
        #expect(Float(got) == next - expected)
        #expect(ring.count == 0)
        #expect(out.withUnsafeMutableBufferPointer { ring.read(into: $0.baseAddress!, count: 8) } == 0)
        let full = [Float](repeating: 1, count: 20)
        #expect(full.withUnsafeBufferPointer { ring.write($0) } == 8)
        #expect(full.withUnsafeBufferPointer { ring.write($0) } == 0)
    }

    @Test("a writer and a reader on two threads: every sample arrives once, in order")
    func twoThreads() async {
        let ring = SampleRing(minimumCapacity: 64)
        let total = 200_000
        let writer = Task.detached {
            var next = 0
            var chunk = [Float](repeating: 0, count: 48)
            while next < total {
                let n = min(48, total - next)
                for i in 0..<n { chunk[i] = Float(next + i) }
                next += chunk.withUnsafeBufferPointer { ring.write(UnsafeBufferPointer(rebasing: $0[0..<n])) }
                await Task.yield()
            }
        }
        var expected = 0, outOfOrder = 0
        var out = [Float](repeating: 0, count: 40)
        while expected < total {
            let got = out.withUnsafeMutableBufferPointer { ring.read(into: $0.baseAddress!, count: 40) }
            for i in 0..<got where out[i] != Float(expected + i) { outOfOrder += 1 }
            expected += got
            if got == 0 { await Task.yield() }
        }
        await writer.value
        #expect(outOfOrder == 0)
        #expect(ring.count == 0)
    }
}
