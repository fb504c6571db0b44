import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How the simulation calls a controller on the main actor, as iOS does, and keeps it
/// deterministic.
///
/// Each call runs synchronously on the main queue (`DispatchQueue.main.sync`; on Linux
/// the block runs on the calling thread while it holds the queue, on Apple platforms on
/// the main thread), so main-actor code of different runs never overlaps. Work the
/// controller hands to the main actor during the call, such as a `Task { ... }` that
/// awaits `conversation.insert(_:)`, or the rest of such a task once the system answers,
/// is collected instead of queued and run before the call returns, in the order it was
/// scheduled. Nothing the app does on the main actor is left to the thread scheduler.
enum MainActorCalls {
    /// Whether the caller runs on the main queue, so on the main actor.
    static var isOnMainQueue: Bool { DispatchQueue.getSpecific(key: onMainQueue) == true }

    /// Runs `body` on the main actor, then every main-actor job it scheduled.
    static func run<T: Sendable>(_ body: @MainActor () -> T) -> T {
        if isOnMainQueue {
            // Already on the main queue (a caller on the main actor): no hop.
            return drained(body)
        }
        return DispatchQueue.main.sync { drained(body) }
    }

    private static func drained<T: Sendable>(_ body: @MainActor () -> T) -> T {
        let outer = JobCollector.shared.begin()
        let result = MainActor.assumeIsolated(body)
        while let job = JobCollector.shared.next() {
            if #available(macOS 14, iOS 17, *) {
                job.runSynchronously(on: MainActor.sharedUnownedExecutor)
            } else {
                MainActor.shared.enqueue(job)
            }
        }
        JobCollector.shared.end(restoring: outer)
        return result
    }

    /// Marks the main queue so that a call made on it does not wait for itself.
    private static let onMainQueue: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()
}

/// Collects the jobs scheduled on the main actor by the thread that is running a
/// controller call, through the concurrency runtime's main-executor hook; jobs from any
/// other thread go to the main queue as usual.
final class JobCollector: @unchecked Sendable {
    typealias Original = @convention(thin) (UnownedJob) -> Void
    typealias Hook = @convention(thin) (UnownedJob, Original) -> Void

    static let shared = JobCollector()

    private let lock = NSLock()
    private var collecting: pthread_t?
    private var jobs: [UnownedJob] = []
    private var start = 0
    /// Whether the runtime's hook could be installed; without it, tasks run on the main
    /// queue as on iOS, only not at a deterministic moment.
    let installed: Bool

    private init() {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "swift_task_enqueueMainExecutor_hook") else {
            installed = false
            return
        }
        installed = true
        let hook = symbol.assumingMemoryBound(to: Hook?.self)
        hook.pointee = { job, original in
            if !JobCollector.shared.collect(job) { original(job) }
        }
    }

    /// Keeps `job` if the calling thread is the one running a controller call.
    private func collect(_ job: UnownedJob) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard let thread = collecting, pthread_equal(thread, pthread_self()) != 0 else { return false }
        jobs.append(job)
        return true
    }

    /// Starts collecting for this thread; returns what to restore when the call ends.
    func begin() -> pthread_t? {
        lock.lock()
        defer { lock.unlock() }
        let outer = collecting
        collecting = pthread_self()
        return outer
    }

    /// The oldest collected job not run yet.
    func next() -> UnownedJob? {
        lock.lock()
        defer { lock.unlock() }
        guard start < jobs.count else {
            jobs.removeAll(keepingCapacity: true)
            start = 0
            return nil
        }
        start += 1
        return jobs[start - 1]
    }

    func end(restoring outer: pthread_t?) {
        lock.lock()
        collecting = outer
        lock.unlock()
    }
}
