import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs the Swift concurrency work a controller call starts inside that call, in the order
/// it was started, so that an extension's `async` code is sequenced by the simulation
/// like its completion handlers are.
///
/// While a call into a controller runs, every job that Swift's runtime is asked to start
/// from that call's thread is kept here instead of going to the main queue or the shared
/// pool of threads: a `Task { }` the controller starts, the code after an `await` whose
/// continuation the call resumed (GroupSim's own async forms, or an app's own bridge
/// written with `withCheckedContinuation` over a GroupSim completion handler), a
/// nonisolated `async` function it calls, an actor it hops to, `async let` and task-group
/// children. When the call's own code returns, the kept jobs run one after the other on
/// the call's thread, which holds the main queue, each job's new jobs behind it, until
/// none is left. So by the time the simulation takes the call's requests, every task the
/// call woke has run to its next suspension, at the virtual time the seed decides, on
/// every run and with any number of workers.
///
/// Two of the runtime's hooks make it so. `swift_task_enqueueGlobal_hook` hands this type
/// the jobs bound for the shared pool. `swift_task_getMainExecutor_hook` names, on the
/// call's thread only, `CallExecutor` as the main actor's executor: main-actor jobs
/// started there are enqueued on it, and a main-actor task that suspends there resumes on
/// it. `CallExecutor` keeps what a call enqueues and sends anything enqueued outside a
/// call to the main queue, where the main actor's code always runs. A job enqueued on
/// another thread goes where the runtime would send it.
///
/// What stays outside: work started from a thread of the app's own (`DispatchQueue`,
/// `Thread`), a timer or `Task.sleep` (real time), a custom executor, and a task resumed
/// outside any call. Such work runs when the machine gets to it, which no seed decides:
/// the determinism check of `run`, `explore` and `test` reports it.
enum SequencedJobs {
    /// How many jobs one call may run before the rest are handed back to the runtime: a
    /// task that yields forever would otherwise hold the simulation.
    static let limitPerCall = 1_000_000

    /// Runs `body`, then every job it and those jobs started, on the call's thread, and
    /// returns what `body` returned. Past `limitPerCall` jobs, the rest go to the runtime.
    @MainActor
    static func run<T>(_ body: () -> T) -> T {
        guard installed else { return body() }
        // A call's queue is empty again once drained: every call made outside another
        // takes the one queue kept for them (calls on the main queue never overlap), and a
        // call made from a job takes a new one. Keeping the last queue in a variable to
        // take and put back checked the variable's exclusive access twice a call.
        let outer = JobQueue.current
        let queue = outer == nil ? JobQueue.outermost : JobQueue()
        JobQueue.current = queue
        defer {
            JobQueue.current = outer
            queue.empty()
        }
        let value = body()
        queue.drain()
        return value
    }

    /// Whether the hooks are in place: set once, the first time a call runs.
    @MainActor private static let installed: Bool = {
        guard let global = slot("swift_task_enqueueGlobal_hook", as: EnqueueHook?.self),
              let main = slot("swift_task_getMainExecutor_hook", as: MainExecutorHook?.self) else { return false }
        global.pointee = { job, original in
            if let queue = JobQueue.current { queue.append(job, original) } else { original(job) }
        }
        main.pointee = { original in
            JobQueue.current == nil ? original() : CallExecutor.shared.asUnownedSerialExecutor()
        }
        return true
    }()

    typealias Original = @convention(thin) (UnownedJob) -> Void
    typealias EnqueueHook = @convention(thin) (UnownedJob, Original) -> Void
    typealias MainExecutorOriginal = @convention(thin) () -> UnownedSerialExecutor
    typealias MainExecutorHook = @convention(thin) (MainExecutorOriginal) -> UnownedSerialExecutor

    /// The runtime's variable that holds the hook named `name`, if this runtime has it.
    private static func slot<Hook>(_ name: String, as type: Hook.Type) -> UnsafeMutablePointer<Hook>? {
        #if canImport(Darwin)
        let handle = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
        #else
        let handle = dlopen(nil, RTLD_NOW)
        #endif
        return dlsym(handle, name)?.assumingMemoryBound(to: Hook.self)
    }
}

/// The main actor's executor on a call's thread while the call runs: keeps the jobs the
/// call enqueues, and sends a job enqueued outside any call (a task resumed later from a
/// thread of the app's own) to the main queue, where main-actor code runs.
private final class CallExecutor: SerialExecutor, @unchecked Sendable {
    static let shared = CallExecutor()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        if let queue = JobQueue.current {
            queue.append(job, nil)
        } else {
            DispatchQueue.main.async { job.runSynchronously(on: CallExecutor.shared.asUnownedSerialExecutor()) }
        }
    }

    /// Its jobs run on the main queue, so it isolates what the main actor does.
    func checkIsolated() {
        dispatchPrecondition(condition: .onQueue(.main))
    }
}

/// The jobs one call started, in order, with where the runtime would have sent each (nil:
/// the main actor's).
private final class JobQueue {
    @exclusivity(unchecked) private var jobs: [(job: UnownedJob, original: SequencedJobs.Original?)] = []
    @exclusivity(unchecked) private var next = 0

    func append(_ job: UnownedJob, _ original: SequencedJobs.Original?) {
        jobs.append((job, original))
    }

    /// Forgets the jobs run, keeping the room they took.
    func empty() {
        guard !jobs.isEmpty else { return }
        jobs.removeAll(keepingCapacity: true)
        next = 0
    }

    /// Runs the jobs in order, new ones behind them, until none is left or the limit.
    func drain() {
        // Most calls start no job: the executor is not even asked for then.
        guard next < jobs.count else { return }
        let executor = CallExecutor.shared.asUnownedSerialExecutor()
        while next < jobs.count {
            guard next < SequencedJobs.limitPerCall else {
                // Hand the rest back: their order is lost, which the determinism check sees.
                let rest = jobs[next...]
                next = jobs.count
                JobQueue.current = nil
                for entry in rest {
                    if let original = entry.original {
                        original(entry.job)
                    } else {
                        let job = entry.job
                        DispatchQueue.main.async { job.runSynchronously(on: executor) }
                    }
                }
                return
            }
            let job = jobs[next].job
            next += 1
            job.runSynchronously(on: executor)
        }
    }

    /// The queue of every call made outside another call.
    /// Only a call holding the main queue touches it.
    nonisolated(unsafe) static let outermost = JobQueue()

    /// The queue of the call running on this thread, if any.
    static var current: JobQueue? {
        get {
            guard let pointer = pthread_getspecific(key) else { return nil }
            return Unmanaged<JobQueue>.fromOpaque(pointer).takeUnretainedValue()
        }
        set {
            // The call that set a queue keeps it alive until it puts the outer one back.
            pthread_setspecific(key, newValue.map { Unmanaged.passUnretained($0).toOpaque() })
        }
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()
}
