import Foundation

/// The thread a run of a controller app runs on: the executor of its `Simulation`.
///
/// A controller's callbacks run synchronously on the main actor while the simulation
/// waits, and the code after an `await` in a task the controller started comes back to
/// the main actor through Swift's shared thread pool. A run that waited on a thread of
/// that pool could take its last free thread, and then that code would run only when
/// another run finished, at a time no seed decides. A run of its own thread leaves the
/// pool free. The thread ends when the run stops it and its jobs are done; a later job
/// (a second `run()` call) starts it again.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
final class RunThread: SerialExecutor, @unchecked Sendable {
    // Everything below is guarded by `condition`: `jobs[next...]` wait, in order.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var next = 0
    private var serving = false
    private var stopping = false

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        let start = !serving
        serving = true
        condition.signal()
        condition.unlock()
        if start {
            let thread = Thread { [self] in
                Thread.current.threadDictionary[RunExecutor.threadKey] = true
                serve()
            }
            thread.name = "GroupSim run"
            thread.start()
        }
    }

    /// Lets the thread end once the jobs queued have run.
    func stop() {
        condition.lock()
        stopping = true
        condition.signal()
        condition.unlock()
    }

    private func serve() {
        while true {
            condition.lock()
            while next == jobs.count, !stopping { condition.wait() }
            guard next < jobs.count else {
                serving = false
                condition.unlock()
                return
            }
            let job = jobs[next]
            next += 1
            if next == jobs.count {
                jobs.removeAll(keepingCapacity: true)
                next = 0
            }
            condition.unlock()
            job.runSynchronously(on: asUnownedSerialExecutor())
        }
    }
}

/// The executor of an actor that runs an app (`Simulation`, `ExtensionHarness`): a
/// `RunThread` for an app that calls the main actor and waits for it, otherwise the
/// executor of a plain actor of its own, so the actor behaves as any plain actor.
package struct RunExecutor: Sendable {
    private let thread: (any AnyObject & Sendable)?
    private let plain = PlainActor()

    static let threadKey = "GroupSim.RunThread"

    /// Whether the caller runs on a run's own thread, where it may wait for the main
    /// actor without taking a thread the main actor's tasks need.
    package static var onRunThread: Bool { Thread.current.threadDictionary[threadKey] != nil }

    package init(callsMainActor: Bool) {
        if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *), callsMainActor {
            thread = RunThread()
        } else {
            thread = nil
        }
    }

    package var unownedExecutor: UnownedSerialExecutor {
        if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *), let thread = thread as? RunThread {
            return thread.asUnownedSerialExecutor()
        }
        return plain.unownedExecutor
    }

    /// Lets the thread, if any, end once its jobs have run; a later job starts it again.
    package func stop() {
        if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *) { (thread as? RunThread)?.stop() }
    }

    private actor PlainActor {}
}
