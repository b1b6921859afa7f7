import Synchronization

/// A lock-free ring of samples between exactly one writing thread and one reading thread (an
/// audio callback): neither ever waits for the other, takes a lock, allocates or makes a system
/// call. The indices only grow (an `Int` of samples outlasts any session); each side stores its
/// own with release ordering after touching the samples, and loads the other's with acquire
/// ordering before, so the reader never sees a sample before it was written.
public final class SampleRing: @unchecked Sendable {
    // `storage` is shared, but a sample is written only before `written` passes it and read
    // only before `read` passes it: the two threads never touch the same sample at once.
    private let storage: UnsafeMutablePointer<Float>
    public let capacity: Int
    private let mask: Int
    private let written = Atomic<Int>(0)
    private let read = Atomic<Int>(0)

    /// Holds at least `minimumCapacity` samples (rounded up to a power of two).
    public init(minimumCapacity: Int) {
        var size = 1
        while size < max(minimumCapacity, 1) { size <<= 1 }
        capacity = size
        mask = size - 1
        storage = .allocate(capacity: size)
        storage.initialize(repeating: 0, count: size)
    }

    deinit { storage.deallocate() }

    /// Samples written and not yet read (either thread; exact on the writer's for free space,
    /// on the reader's for what is there).
    public var count: Int { written.load(ordering: .acquiring) - read.load(ordering: .acquiring) }

    /// Writer only: appends as many of `samples` as fit and returns how many did.
    @discardableResult
    public func write(_ samples: UnsafeBufferPointer<Float>) -> Int {
        let end = written.load(ordering: .relaxed)
        let n = min(samples.count, capacity - (end - read.load(ordering: .acquiring)))
        for i in 0..<n { storage[(end + i) & mask] = samples[i] }
        written.store(end + n, ordering: .releasing)
        return n
    }

    /// Reader only: moves up to `count` samples into `target` and returns how many there were;
    /// the caller decides what the rest of its block is (silence, for speech not yet rendered).
    @discardableResult
    public func read(into target: UnsafeMutablePointer<Float>, count wanted: Int) -> Int {
        let start = read.load(ordering: .relaxed)
        let n = min(wanted, written.load(ordering: .acquiring) - start)
        for i in 0..<n { target[i] = storage[(start + i) & mask] }
        read.store(start + n, ordering: .releasing)
        return n
    }
}
