import Foundation
import GroupSim

/// Shows an exploration's progress on a `ProgressSink`: runs done, runs per second,
/// failures so far and the estimated time left; for an exhaustive search, which cannot
/// know its total, the orders found, failures, schedules simulated and the time elapsed.
/// On a terminal it redraws one line (`\r`)
/// at most five times a second and clears it at the end; elsewhere (`--progress` into a
/// file or pipe) it writes a line at most once a second, and a last line when done.
final class ProgressLine: @unchecked Sendable {
    private let sink: ProgressSink
    private let label: String
    private let lock = NSLock()
    private let started: Double
    private var lastShown: Double?
    private var wroteSomething = false

    init(sink: ProgressSink, label: String) {
        self.sink = sink
        self.label = label
        self.started = sink.seconds()
    }

    /// Records progress; shows it when enough time has passed since the last showing.
    func update(_ progress: ExplorationProgress) {
        show(finished: progress.runsDone >= progress.runs) { Self.describe(progress, elapsed: $0, label: $1) }
    }

    /// Records an exhaustive search's progress; shows it as `update(_:)` does.
    func update(_ progress: SearchProgress) {
        show(finished: progress.finished) { Self.describe(progress, elapsed: $0, label: $1) }
    }

    /// Shows the text `describe` makes of the seconds elapsed and the label, unless it is
    /// too soon after the last showing and not the last line.
    private func show(finished: Bool, _ describe: (Double, String) -> String) {
        lock.lock()
        defer { lock.unlock() }
        let now = sink.seconds()
        let interval = sink.isTerminal ? 0.2 : 1.0
        if !finished, let lastShown, now - lastShown < interval { return }
        lastShown = now
        let text = describe(now - started, label)
        if sink.isTerminal {
            sink.write("\r\u{1B}[K" + text)
        } else {
            sink.write(text + "\n")
        }
        wroteSomething = true
    }

    /// Clears the terminal line, so the report starts on a clean screen.
    func finish() {
        lock.lock()
        defer { lock.unlock() }
        if sink.isTerminal, wroteSomething { sink.write("\r\u{1B}[K") }
    }

    /// `explore pickles-race-window: 4200 of 100000 runs (4.2%), 2310 runs/s, 1050 failed, about 41s left`.
    static func describe(_ progress: ExplorationProgress, elapsed: Double, label: String) -> String {
        var text = "\(label): \(progress.runsDone) of \(Plural.count(progress.runs, "run")) "
        text += "(\(ExplorationReport.percent(progress.runsDone, of: progress.runs)))"
        let rate = elapsed > 0 ? Double(progress.runsDone) / elapsed : 0
        if rate > 0 { text += ", \(Int(rate.rounded())) runs/s" }
        text += ", \(progress.failedRuns) failed"
        if progress.runsDone >= progress.runs {
            text += ", done"
        } else if rate > 0 {
            let left = Double(progress.runs - progress.runsDone) / rate
            text += ", about \(duration(left)) left"
        }
        return text
    }

    /// `explore pickles-race: 48 orders found, 46 failed, 6 schedules simulated, 0s elapsed, done`.
    static func describe(_ progress: SearchProgress, elapsed: Double, label: String) -> String {
        let orders = progress.orders == .one ? "1 order" : "\(progress.orders.readable) orders"
        var text = "\(label): \(orders) found, \(progress.failedOrders.readable) failed, "
            + "\(Plural.count(progress.schedules, "schedule")) simulated, \(duration(elapsed.rounded(.down))) elapsed"
        if progress.finished { text += ", done" }
        return text
    }

    /// `41s`, `3m 05s`, `2h 10m`.
    static func duration(_ seconds: Double) -> String {
        let whole = Int(min(seconds.rounded(.up), 359_999))
        if whole < 60 { return "\(whole)s" }
        if whole < 3600 { return "\(whole / 60)m \(String(format: "%02d", whole % 60))s" }
        return "\(whole / 3600)h \(String(format: "%02d", whole % 3600 / 60))m"
    }
}
