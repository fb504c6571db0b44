import Foundation

/// How the simulation calls a controller on the main actor, as iOS does.
///
/// Each call runs synchronously on the main queue (`DispatchQueue.main.sync`; on Linux
/// the block runs on the calling thread while it holds the queue, on Apple platforms on
/// the main thread), so main-actor code of different runs never overlaps, and completion
/// handlers run inside the call that carries the system's answer, at the virtual time
/// the run's seed decides. What the controller asked for is taken in a second block on
/// the (serial) main queue, after the main-actor tasks the call queued before it.
///
/// The code after an `await` of an async form runs when the main queue next runs the
/// resumed task: soon after the answer, not at a point the seed fixes. Keep what the
/// simulation must see in order (inserts, sends, state a later callback reads) in
/// completion handlers or before the first `await`.
enum MainActorCalls {
    /// Whether the caller runs on the main queue, so on the main actor.
    static var isOnMainQueue: Bool { DispatchQueue.getSpecific(key: onMainQueue) == true }

    /// Runs `body` on the main actor, then `result` there, and returns its value.
    static func run<T: Sendable>(_ body: @MainActor () -> Void, then result: @MainActor () -> T) -> T {
        if isOnMainQueue {
            // A caller already on the main actor: tasks it started run after it returns.
            MainActor.assumeIsolated(body)
            return MainActor.assumeIsolated(result)
        }
        DispatchQueue.main.sync { MainActor.assumeIsolated(body) }
        return DispatchQueue.main.sync { MainActor.assumeIsolated(result) }
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
