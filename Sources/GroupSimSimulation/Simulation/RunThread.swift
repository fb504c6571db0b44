import Foundation

/// The serial executor a run of a controller app runs on: the executor of its `Simulation`.
///
/// A controller's callbacks run synchronously on the main queue while the simulation
/// blocks in `DispatchQueue.main.sync`. A run that blocked a thread of Swift's shared pool
/// there could take its last free thread from everything else the process awaits (the
/// other workers, the command's own tasks). A run served by a thread of its own leaves
/// the pool free. The thread comes from `RunThreads`, which keeps threads for the
/// next run, and goes back there whenever no job is left; a later job takes one again.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
final class RunThread: SerialExecutor, @unchecked Sendable {
    // Everything below is guarded by `condition`: `jobs[next...]` wait, in order.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var next = 0
    private var serving = false

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        let start = !serving
        serving = true
        condition.unlock()
        if start { RunThreads.shared.serve(self) }
    }

    /// Runs the jobs, in order, until none is left.
    fileprivate func serve() {
        while true {
            condition.lock()
            guard next < jobs.count else {
                jobs.removeAll(keepingCapacity: true)
                next = 0
                serving = false
                condition.unlock()
                return
            }
            let job = jobs[next]
            next += 1
            condition.unlock()
            job.runSynchronously(on: asUnownedSerialExecutor())
        }
    }
}

/// The threads that serve `RunThread`s: a thread that finished serving one run waits for
/// the next for a few seconds before it ends, so a run does not pay for starting a thread.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
private final class RunThreads: @unchecked Sendable {
    static let shared = RunThreads()

    // Guarded by `condition`.
    private let condition = NSCondition()
    private var waiting: [RunThread] = []
    private var idle = 0

    /// How long an idle thread waits for a run before it ends.
    private static let idleLifetime: TimeInterval = 5

    /// Has a thread serve `executor`: an idle one if there is one, otherwise a new one.
    func serve(_ executor: RunThread) {
        condition.lock()
        waiting.append(executor)
        let needsThread = idle < waiting.count
        if needsThread { idle += 1 }
        condition.signal()
        condition.unlock()
        if needsThread {
            let thread = Thread { [self] in work() }
            thread.name = "GroupSim run"
            thread.start()
        }
    }

    /// Serves executors until none has come for `idleLifetime` (counted in `idle` while it is not serving).
    private func work() {
        condition.lock()
        while true {
            let deadline = Date(timeIntervalSinceNow: Self.idleLifetime)
            while waiting.isEmpty {
                if !condition.wait(until: deadline), waiting.isEmpty {
                    idle -= 1
                    condition.unlock()
                    return
                }
            }
            let executor = waiting.removeFirst()
            idle -= 1
            condition.unlock()
            executor.serve()
            condition.lock()
            idle += 1
        }
    }
}

/// The executor of an actor that runs an app (`Simulation`, `ExtensionHarness`): a
/// `RunThread` for an app that calls the main actor and waits for it, otherwise the
/// executor of a plain actor of its own, so the actor behaves as any plain actor.
package struct RunExecutor: Sendable {
    /// What keeps the executor alive: the `RunThread` or the plain actor.
    private let owner: any AnyObject & Sendable
    /// The executor of `owner`, taken once: the runtime asks for it at every hop.
    package let unownedExecutor: UnownedSerialExecutor

    package init(callsMainActor: Bool) {
        if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *), callsMainActor {
            let thread = RunThread()
            owner = thread
            unownedExecutor = thread.asUnownedSerialExecutor()
        } else {
            let plain = PlainActor()
            owner = plain
            unownedExecutor = plain.unownedExecutor
        }
    }

    private actor PlainActor {}
}
