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
    ///
    /// The answer comes back through a pointer to the caller's variable, and each closure
    /// is written where it is passed: a local function that captured the variable, used
    /// both directly and through `sync`, put the variable and its own context on the heap,
    /// two allocations on every call into a controller.
    static func run(_ body: @MainActor () -> Void, then result: @MainActor () -> [AppAction]) -> [AppAction] {
        var actions: [AppAction] = []
        withUnsafeMutablePointer(to: &actions) { pointer in
            // The caller waits for the call: the main actor writes while nothing else reads.
            let answer = LentToMainActor(pointer)
            if isOnMainQueue {
                onMainActor { SequencedJobs.run(body); answer.value.pointee = result() }
            } else {
                syncOnMainQueue { onMainActor { SequencedJobs.run(body); answer.value.pointee = result() } }
            }
        }
        return actions
    }

    /// Runs `body` on the main actor, with the work it starts. Not generic: a generic
    /// result, here a controller's host of the app's type, was made and copied through
    /// its metadata on each activation.
    static func run(_ body: @MainActor () -> Void) {
        if isOnMainQueue {
            onMainActor { SequencedJobs.run(body) }
        } else {
            syncOnMainQueue { onMainActor { SequencedJobs.run(body) } }
        }
    }

    /// Runs `block` on the main queue and waits for it: the plain block form of `sync`,
    /// not the generic one, which instantiated its result's metadata and wrapped the
    /// block twice on every call into a controller (a few percent of its runs). The
    /// queue is the one object: on Linux `DispatchQueue.main` makes a new wrapper each
    /// time it is read.
    ///
    /// On Linux, where Swift does not see libdispatch's C functions, `sync` copies the
    /// closure into a heap block and frees it on every call (about half of what the call
    /// costs around the controller's code); the same queue is waited for through
    /// `dispatch_sync_f` instead, with the closure passed by address (`MainQueueSync`).
    private static func syncOnMainQueue(_ block: () -> Void) {
        #if canImport(Darwin)
        mainQueue.sync(execute: block)
        #else
        guard let direct = MainQueueSync.found else { return mainQueue.sync(execute: block) }
        withoutActuallyEscaping(block) { block in
            var block = block
            withUnsafeMutablePointer(to: &block) { pointer in
                direct.sync(direct.queue, pointer) { context in
                    context?.assumingMemoryBound(to: (() -> Void).self).pointee()
                }
            }
        }
        #endif
    }

    private static let mainQueue = DispatchQueue.main

    /// Runs `body` as the main actor's code, for a caller on the main queue (in `sync`,
    /// or on it already), which is the main actor's executor. `MainActor.assumeIsolated`
    /// would ask the runtime again, through the executor hooks, on every call into a
    /// controller and every completion handler (a few percent of a controller's runs). A
    /// synchronous main-actor function and a plain one are called alike: only the
    /// compiler's view of the isolation differs.
    static func onMainActor<T>(_ body: @MainActor () -> T) -> T {
        withoutActuallyEscaping(body) { body in
            unsafeBitCast(body, to: (() -> T).self)()
        }
    }

    /// Marks the main queue so that a call made on it does not wait for itself.
    fileprivate static let onMainQueue: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()
}

#if !canImport(Darwin)
/// libdispatch's `dispatch_sync_f` and its main queue, found by name in the process on
/// Linux. Used only when the queue found is the one `DispatchQueue.main` stands for: it
/// carries the mark `MainActorCalls` set on that queue.
private struct MainQueueSync: @unchecked Sendable {
    typealias Function = @convention(c) (UnsafeMutableRawPointer?) -> Void
    typealias Sync = @convention(c) (UnsafeMutableRawPointer, UnsafeMutableRawPointer?, Function) -> Void
    typealias GetSpecific = @convention(c) (UnsafeMutableRawPointer, UnsafeRawPointer) -> UnsafeMutableRawPointer?

    let sync: Sync
    let queue: UnsafeMutableRawPointer

    static let found: MainQueueSync? = {
        let handle = dlopen(nil, RTLD_NOW)
        guard let sync = dlsym(handle, "dispatch_sync_f"), let getSpecific = dlsym(handle, "dispatch_queue_get_specific"),
              let queue = dlsym(handle, "_dispatch_main_q") else { return nil }
        // The overlay keys a queue's specific by the key object's address.
        let key = Unmanaged.passUnretained(MainActorCalls.onMainQueue).toOpaque()
        guard unsafeBitCast(getSpecific, to: GetSpecific.self)(queue, key) != nil else { return nil }
        return MainQueueSync(sync: unsafeBitCast(sync, to: Sync.self), queue: queue)
    }()
}
#endif
