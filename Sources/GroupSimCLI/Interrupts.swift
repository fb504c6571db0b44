import Dispatch
import Foundation

/// Ctrl-C (SIGINT) and SIGTERM during a long command: the first one cancels the work,
/// which stops starting runs on every worker at once and reports what it found; a second
/// one ends the process at once. Signals are handled here, in the command line, never in
/// the library: the work only sees its task cancelled.
///
/// A signal that comes within a second of the first, while the work is still stopping, is
/// taken as a copy of it, not as a second Ctrl-C: GNU `timeout` signals the process and
/// then its process group, so the process receives two signals less than a millisecond
/// apart. Once the report is being made, a second signal ends the process (after a
/// tenth of a second, which still takes such a copy for what it is).
enum Interrupts {
    /// Set by `GroupSimProcess` for the real process. In-process callers (tests) leave it
    /// off, so running a command never changes how their process takes a signal.
    @TaskLocal static var enabled = false

    /// The signals that interrupt, in the order they are watched.
    static let signals: [Int32] = [SIGINT, SIGTERM]

    /// How long after the first signal another one is taken as a copy of it, while the
    /// work is stopping, and once the report is being made: in nanoseconds.
    static let copyWindow: UInt64 = 1_000_000_000
    static let reportCopyWindow: UInt64 = 100_000_000

    /// The watcher of an interrupted command, kept until the process exits so that a
    /// copy of the signal that comes late is still taken for one.
    private static let kept = Kept()

    /// Runs `work` in a task that the first SIGINT or SIGTERM cancels, from the thread
    /// that sees the signal: the cancellation reaches every worker even while all the
    /// threads of the shared pool are busy with runs. Returns what `work` returned and the
    /// signal that cancelled it, if one did.
    static func run<Value: Sendable>(_ work: @escaping @Sendable () async -> Value) async -> (Value, Int32?) {
        guard enabled else { return (await work(), nil) }
        let watcher = Watcher()
        // A task of its own (not a child) so that the signal's thread can cancel it.
        let task = Task { await work() }
        watcher.watch { task.cancel() }
        let value = await withTaskCancellationHandler { await task.value } onCancel: { task.cancel() }
        guard let number = watcher.reportStarted() else {
            watcher.stop()
            return (value, watcher.signal)
        }
        kept.keep(watcher)
        return (value, number)
    }

    /// The dispatch sources for the watched signals and what they have seen.
    private final class Watcher: @unchecked Sendable {
        private let queue = DispatchQueue(label: "groupsim.interrupts")
        private let lock = NSLock()
        private var sources: [any DispatchSourceSignal] = []
        /// The first signal and when it came (monotonic nanoseconds).
        private var first: (number: Int32, time: UInt64)?
        private var reporting = false
        private var cancel: (@Sendable () -> Void)?

        /// Starts watching; `cancel` stops the work (now, if a signal came already).
        func watch(_ cancel: @escaping @Sendable () -> Void) {
            sources = Interrupts.signals.map { number in
                // A signal source sees the signal only when its default action is off.
                Foundation.signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
                source.setEventHandler { self.arrived(number) }
                source.resume()
                return source
            }
            lock.lock()
            self.cancel = cancel
            let seen = first != nil
            lock.unlock()
            if seen { cancel() }
        }

        /// On the serial queue: the first signal stops the work; a later one, outside the
        /// window in which it counts as a copy, ends the process now. Signals that come
        /// close together arrive as one event with a count: copies of one.
        private func arrived(_ number: Int32) {
            let now = DispatchTime.now().uptimeNanoseconds
            lock.lock()
            guard let first else {
                first = (number, now)
                let cancel = cancel
                lock.unlock()
                cancel?()
                return
            }
            let window = reporting ? Interrupts.reportCopyWindow : Interrupts.copyWindow
            let ends = now &- first.time >= window
            lock.unlock()
            if ends { _exit(ExitStatus.interrupted(signal: number).code) }
        }

        /// The signal that interrupted the work, if one did.
        var signal: Int32? {
            lock.lock()
            defer { lock.unlock() }
            return first?.number
        }

        /// Notes that the work has ended and the report is being made; the signal that
        /// interrupted the work, if one did.
        func reportStarted() -> Int32? {
            lock.lock()
            defer { lock.unlock() }
            reporting = true
            return first?.number
        }

        /// Back to the default actions: a signal from now on ends the process at once,
        /// as it does for any program.
        func stop() {
            for source in sources { source.cancel() }
            for number in Interrupts.signals { Foundation.signal(number, SIG_DFL) }
        }
    }

    /// Watchers kept alive for the rest of the process.
    private final class Kept: @unchecked Sendable {
        private let lock = NSLock()
        private var watchers: [Watcher] = []

        func keep(_ watcher: Watcher) {
            lock.lock()
            watchers.append(watcher)
            lock.unlock()
        }
    }
}
