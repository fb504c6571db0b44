import Foundation
import GroupSimSimulation
import GroupSimScenario

/// How the simulation calls a controller on the main actor, as iOS does.
///
/// Each call runs synchronously on the main queue (`DispatchQueue.main.sync`; on Linux
/// the block runs on the calling thread while it holds the queue, on Apple platforms on
/// the main thread), so main-actor code of different runs never overlaps, and completion
/// handlers run inside the call that carries the system's answer, at the virtual time
/// the run's seed decides.
///
/// Inside the call, the Swift concurrency work the controller's code starts or resumes
/// (a `Task { }`, the code after `try await conversation.insert(message)` or after an
/// app's own `withCheckedContinuation` bridge, nonisolated `async` functions, actors) runs
/// before the call returns, each job to its next suspension (`SequencedJobs`); then what
/// the controller asked for is taken, in the same block. So the code after an `await`
/// belongs to the call that carried the answer, however many runs share the main queue.
enum MainActorCalls {
    /// Whether the caller runs on the main queue, so on the main actor.
    static var isOnMainQueue: Bool { DispatchQueue.getSpecific(key: onMainQueue) == true }

    /// Runs `body` on the main actor with the work it starts, then `result`, and returns
    /// what `result` gave.
    static func run(_ body: @MainActor () -> Void, then result: @MainActor () -> [AppAction]) -> [AppAction] {
        var actions: [AppAction] = []
        func call() {
            MainActor.assumeIsolated {
                SequencedJobs.run(body)
                actions = result()
            }
        }
        if isOnMainQueue { call() } else { syncOnMainQueue(call) }
        return actions
    }

    /// Runs `body` on the main actor, with the work it starts, and returns its value.
    static func run<T: Sendable>(_ body: @MainActor () -> T) -> T {
        func call() -> T { MainActor.assumeIsolated { SequencedJobs.run(body) } }
        if isOnMainQueue { return call() }
        return DispatchQueue.main.sync(execute: call)
    }

    /// Runs `block` on the main queue and waits for it: the plain block form of `sync`,
    /// not the generic one, which instantiated its result's metadata and wrapped the
    /// block twice on every call into a controller (a few percent of its runs).
    private static func syncOnMainQueue(_ block: () -> Void) {
        DispatchQueue.main.sync(execute: block)
    }

    /// Marks the main queue so that a call made on it does not wait for itself.
    private static let onMainQueue: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()
}
