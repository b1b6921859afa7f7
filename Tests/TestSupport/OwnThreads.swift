import Foundation

/// A task executor with threads of its own, outside Swift's cooperative pool.
///
/// Why: a test process runs hundreds of tests side by side, and a synchronous test that waits for
/// a child process (the `assist` binary, ffmpeg) holds one of the pool's few threads (two on two
/// cores) until the child ends, which on a busy machine can be minutes. A live session driven in
/// process on the wall clock would then not run at all for that long, and its answers would come
/// late through no fault of its own. Run under `OwnThreads.run`, its code runs here instead.
public final class OwnThreads: TaskExecutor, @unchecked Sendable {
    /// One for the whole test process: its threads wait for work and cost nothing idle.
    public static let shared = OwnThreads(threads: 4)

    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    init(threads: Int) {
        for index in 0..<threads {
            let thread = Thread { [self] in work() }
            thread.name = "test executor \(index)"
            thread.start()
        }
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func work() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }

    /// Runs `body`, and the tasks of the task groups it starts, on these threads.
    public static func run<Value>(_ body: () async throws -> Value) async rethrows -> Value {
        try await withTaskExecutorPreference(shared, operation: body)
    }
}
