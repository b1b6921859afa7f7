import Foundation

/// Keeping the process's freed memory from staying resident (glibc's allocator). glibc keeps what
/// is freed in the heaps of the threads that freed it, so a model released or the buffers of a
/// sentence made stay resident otherwise (BENCHMARKS.md, "Issue 37 (twenty-second session)" and
/// "(twenty-third session)").
public enum FreedMemory {
    /// Gives the heaps' free pages back to the system (`malloc_trim`). Costs a walk over the
    /// heaps: call it after loading or releasing a model, never on the way to a sentence being heard.
    public static func returnToSystem() {
        #if canImport(Glibc)
        // malloc.h is not in Swift's Glibc module; the function is glibc's own.
        typealias MallocTrim = @convention(c) (Int) -> Int32
        guard let trim = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
        _ = unsafeBitCast(trim, to: MallocTrim.self)(0)
        #endif
    }

    /// The size from which a block is given its own pages, unmapped when freed.
    public static let separatelyMappedBytes: Int32 = 128 * 1024

    /// Makes every block of `separatelyMappedBytes` or more its own mapping, given back to the
    /// system the moment it is freed (`mallopt(M_MMAP_THRESHOLD)`, for the whole process). glibc's
    /// own threshold rises with every large block freed, up to 32 MB, after which a model's
    /// per-run buffers come from the heaps and their pages stay resident between runs. Costs a
    /// system call and fresh pages per large block. Safe to call more than once.
    public static func mapLargeBlocksSeparately() {
        #if canImport(Glibc)
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard let mallopt = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        let mmapThreshold: Int32 = -3   // M_MMAP_THRESHOLD in malloc.h
        _ = unsafeBitCast(mallopt, to: Mallopt.self)(mmapThreshold, separatelyMappedBytes)
        #endif
    }
}
