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
/// What the controller asked for is taken by a main-actor task queued after the call,
/// so after the tasks the call started; and only once every caller of an async form
/// that the call's answers resumed is back on the main actor and has run to its next
/// suspension (it comes back through Swift's shared thread pool, which is why a run of a
/// controller app has a thread of its own: `RunThread`). So the code after
/// `try await conversation.insert(message)` belongs to the call that carried the answer,
/// at the virtual time the seed decides, whatever other runs share the main queue.
enum MainActorCalls {
    /// Whether the caller runs on the main queue, so on the main actor.
    static var isOnMainQueue: Bool { DispatchQueue.getSpecific(key: onMainQueue) == true }

    /// Runs `body` on the main actor, then `result` there once `ready` holds, and returns its value.
    ///
    /// `ready` and `result` run in a main-actor task, queued behind the tasks `body`
    /// started and the callers its answers resumed; while `ready` says one of those is
    /// still on its way back to the main actor, they are asked again, behind it.
    static func run<T: Sendable>(_ body: @MainActor () -> Void, when ready: @escaping @MainActor @Sendable () -> Bool,
                                 then result: @escaping @MainActor @Sendable () -> T) -> T {
        if isOnMainQueue {
            // A caller already on the main actor: tasks it started run after it returns.
            MainActor.assumeIsolated(body)
            return MainActor.assumeIsolated(result)
        }
        DispatchQueue.main.sync { MainActor.assumeIsolated(body) }
        // Off a run's own thread (an `ExtensionHarness`, a Swift version without task
        // executors) waiting could take the thread a resumed caller needs: do not wait.
        guard RunExecutor.onRunThread else {
            let answer = Answer<T>()
            Task { @MainActor in answer.give(result()) }
            return answer.take()
        }
        while true {
            let answer = Answer<T?>()
            Task { @MainActor in answer.give(ready() ? result() : nil) }
            if let value = answer.take() { return value }
            // A resumed caller is still on its way through the shared pool: let it pass.
            Thread.sleep(forTimeInterval: 0.000_02)
        }
    }

    /// Runs `body` on the main actor and returns its value.
    static func run<T: Sendable>(_ body: @MainActor () -> T) -> T {
        if isOnMainQueue { return MainActor.assumeIsolated(body) }
        return DispatchQueue.main.sync { MainActor.assumeIsolated(body) }
    }

    /// Marks the main queue so that a call made on it does not wait for itself.
    private static let onMainQueue: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()
}

/// One value handed from a main-actor job to the thread that waits for it.
private final class Answer<T: Sendable>: @unchecked Sendable {
    private let ready = DispatchSemaphore(value: 0)
    // Written once before `ready` is signalled and read once after it.
    private var value: T?

    func give(_ value: T) {
        self.value = value
        ready.signal()
    }

    func take() -> T {
        ready.wait()
        guard let value else { preconditionFailure("a main-actor answer was signalled without a value") }
        return value
    }
}
