import Foundation
import GroupSimSimulation

/// How the simulation calls a controller on the main actor, as iOS does.
///
/// Each call runs synchronously on the main queue (`DispatchQueue.main.sync`; on Linux
/// the block runs on the calling thread while it holds the queue, on Apple platforms on
/// the main thread), so main-actor code of different runs never overlaps, and completion
/// handlers run inside the call that carries the system's answer, at the virtual time
/// the run's seed decides.
///
/// What the controller asked for is taken in a second block on the main queue, behind
/// what the first block queued there (a `Task` the controller started runs to its first
/// suspension, as on iOS before the next event), and only once every caller of an async
/// form that the call's answers resumed is back on the main actor and has run to its
/// next suspension. Such a caller comes back through
/// Swift's shared thread pool, which is why a run of a controller app waits on a thread
/// of its own (`RunThread`). So the code after `try await conversation.insert(message)`
/// belongs to the call that carried the answer, at the virtual time the seed decides,
/// however many runs share the main queue.
enum MainActorCalls {
    /// Whether the caller runs on the main queue, so on the main actor.
    static var isOnMainQueue: Bool { DispatchQueue.getSpecific(key: onMainQueue) == true }

    /// Runs `body` on the main actor, then `result` there once `ready` holds, and returns its value.
    ///
    /// While `ready` says a caller that `body`'s answers resumed is still on its way back
    /// to the main actor, it is asked again; then `result` runs, in the same block.
    static func run<T: Sendable>(_ body: @MainActor () -> Void, when ready: @MainActor () -> Bool,
                                 then result: @MainActor () -> T) -> T {
        if isOnMainQueue {
            // A caller already on the main actor: tasks it started run after it returns.
            MainActor.assumeIsolated(body)
            return MainActor.assumeIsolated(result)
        }
        syncOnMainQueue { MainActor.assumeIsolated(body) }
        // Off a run's own thread (an `ExtensionHarness`, a system without custom
        // executors) waiting could take the very thread a resumed caller needs: no wait.
        let mayWait = RunExecutor.onRunThread
        while true {
            var value: T?
            syncOnMainQueue { value = MainActor.assumeIsolated { ready() || !mayWait ? result() : nil } }
            if let value { return value }
            // A resumed caller is still on its way back to the main actor: let it pass.
            Thread.sleep(forTimeInterval: 0.000_02)
        }
    }

    /// Runs `body` on the main actor and returns its value.
    static func run<T: Sendable>(_ body: @MainActor () -> T) -> T {
        if isOnMainQueue { return MainActor.assumeIsolated(body) }
        return DispatchQueue.main.sync { MainActor.assumeIsolated(body) }
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
