import Foundation

/// Where `explore` writes its progress lines while it runs: standard error for the
/// program, a buffer in tests. Progress is for the person waiting, so it may read the wall
/// clock; it never reaches a report, a digest or standard output.
public struct ProgressSink: Sendable {
    /// Whether the sink is a terminal: progress is shown by default only then.
    public var isTerminal: Bool
    /// Writes text as it is (no newline added).
    public var write: @Sendable (String) -> Void
    /// Seconds since some fixed point, for runs per second and the time left.
    public var seconds: @Sendable () -> Double

    public init(isTerminal: Bool, write: @escaping @Sendable (String) -> Void, seconds: @escaping @Sendable () -> Double) {
        self.isTerminal = isTerminal
        self.write = write
        self.seconds = seconds
    }

    /// The process's standard error, a terminal when `isatty(2)` says so.
    public static var standardError: ProgressSink {
        ProgressSink(
            isTerminal: isatty(STDERR_FILENO) == 1,
            // Every byte, retrying interrupted writes: `FileHandle.write` stops the process on
            // an error, and a terminal's resize interrupts a write with a signal.
            write: { _ = OutputFile.writeAll(Array($0.utf8), to: STDERR_FILENO) },
            seconds: { ProcessInfo.processInfo.systemUptime }
        )
    }

    /// Shows nothing.
    public static let silent = ProgressSink(isTerminal: false, write: { _ in }, seconds: { 0 })
}
