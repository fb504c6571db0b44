import Dispatch
import Foundation

/// Ctrl-C (SIGINT) and SIGTERM during a long command: the first one cancels the work,
/// which stops between runs and reports what it found; a second one ends the process at
/// once. Signals are handled here, in the command line, never in the library: the work
/// only sees its task cancelled.
enum Interrupts {
    /// Set by `GroupSimProcess` for the real process. In-process callers (tests) leave it
    /// off, so running a command never changes how their process takes a signal.
    @TaskLocal static var enabled = false

    /// The signals that interrupt, in the order they are watched.
    static let signals: [Int32] = [SIGINT, SIGTERM]

    /// Runs `work` in a child task that is cancelled by the first SIGINT or SIGTERM.
    /// Returns what `work` returned and the signal that cancelled it, if one did.
    static func run<Value: Sendable>(_ work: @escaping @Sendable () async -> Value) async -> (Value, Int32?) {
        guard enabled else { return (await work(), nil) }
        let (arrivals, continuation) = AsyncStream.makeStream(of: Int32.self)
        let watcher = Watcher(continuation)
        defer { watcher.stop() }
        typealias Event = InterruptEvent<Value>
        return await withTaskGroup(of: Event.self) { group in
            group.addTask { .finished(await work()) }
            group.addTask {
                var iterator = arrivals.makeAsyncIterator()
                // Ends with nil when the stream finishes or this task is cancelled.
                return await iterator.next().map(Event.signal) ?? .signal(0)
            }
            var interruption: Int32?
            var value: Value?
            while let event = await group.next() {
                switch event {
                case .finished(let result):
                    value = result
                    // The watching child is done with: end it.
                    continuation.finish()
                case .signal(let number):
                    if number != 0 {
                        interruption = number
                        group.cancelAll()
                    }
                }
            }
            // Both children have ended, and the work's child always ends with `.finished`,
            // so `value` is set; were it not, the cancelled work returns at once.
            guard let value else { return (await work(), interruption) }
            return (value, interruption)
        }
    }

    /// What ends first: the work, or the wait for a signal (0: the wait was called off).
    private enum InterruptEvent<Value: Sendable>: Sendable {
        case finished(Value)
        case signal(Int32)
    }

    /// The dispatch sources for the watched signals, alive while the work runs.
    private final class Watcher {
        private let queue = DispatchQueue(label: "groupsim.interrupts")
        private let sources: [any DispatchSourceSignal]

        init(_ continuation: AsyncStream<Int32>.Continuation) {
            let queue = queue
            let count = Count()
            sources = Interrupts.signals.map { number in
                // A signal source sees the signal only when its default action is off.
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
                source.setEventHandler {
                    // On the serial queue: the first signal stops the work; a second one,
                    // while the partial report is still being made, ends the process now.
                    // Signals that come close together arrive as one event with a count.
                    if count.add(max(1, Int(source.data))) > 1 { _exit(128 + number) }
                    continuation.yield(number)
                }
                source.resume()
                return source
            }
        }

        /// Back to the default actions: a signal from now on ends the process at once,
        /// as it does for any program.
        func stop() {
            for source in sources { source.cancel() }
            for number in Interrupts.signals { signal(number, SIG_DFL) }
        }
    }

    /// Signals seen so far; read and changed only on the watcher's serial queue.
    private final class Count: @unchecked Sendable {
        private var seen = 0

        /// Adds `arrived` signals; returns how many have been seen in all.
        func add(_ arrived: Int) -> Int {
            seen += arrived
            return seen
        }
    }
}
