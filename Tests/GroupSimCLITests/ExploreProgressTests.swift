import Foundation
import Testing
@testable import GroupSimCLI
import GroupSim
import GroupSimTesting

/// Exploration a person can follow: progress on standard error, a warning when nothing is
/// random, and an HTML page.
@Suite struct ExploreProgressTests {
    /// What a command wrote as progress, and a clock that moves half a second per reading.
    final class Recorder: @unchecked Sendable {
        private let lock = NSLock()
        private var written: [String] = []
        private var now = 0.0

        var text: String { lock.withLock { written.joined() } }

        func sink(terminal: Bool) -> ProgressSink {
            ProgressSink(
                isTerminal: terminal,
                write: { text in self.lock.withLock { self.written.append(text) } },
                seconds: { self.lock.withLock { self.now += 0.5; return self.now } }
            )
        }
    }

    static let window = CLI.path("Scenarios/pickles-race-window.yaml")

    @Test func progressOnATerminal() async {
        let recorder = Recorder()
        let result = await GroupSimCommand(progress: recorder.sink(terminal: true)).run(["explore", Self.window, "--runs", "400",
            "--workers", "2"])
        #expect(result.status == 1)
        let text = recorder.text
        #expect(text.hasPrefix("\r\u{1B}[Kexplore pickles-race-window: "))
        #expect(text.contains(" of 400 runs ("))
        #expect(text.contains(" runs/s, "))
        #expect(text.contains(" failed, about "))
        #expect(text.contains("s left"))
        #expect(text.contains("400 of 400 runs (100.0%)"))
        #expect(text.contains(" failed, done"))
        #expect(text.hasSuffix("\r\u{1B}[K"), "the line is cleared before the report")
        #expect(!result.output.contains("runs/s"), "progress never reaches standard output")
        let plain = await GroupSimCommand(progress: recorder.sink(terminal: true)).run(["explore", Self.window, "--runs", "400"])
        #expect(plain.output == result.output, "progress does not change the report")
    }

    @Test func progressIsOffWhenNotATerminalUnlessForced() async {
        let quietRecorder = Recorder()
        _ = await GroupSimCommand(progress: quietRecorder.sink(terminal: false)).run(["explore", Self.window, "--runs", "100"])
        #expect(quietRecorder.text.isEmpty)

        let forced = Recorder()
        _ = await GroupSimCommand(progress: forced.sink(terminal: false)).run(["explore", Self.window, "--runs", "100", "--progress"])
        let lines = forced.text.split(separator: "\n")
        #expect(!lines.isEmpty && !forced.text.contains("\r"))
        #expect(lines.last?.hasPrefix("explore pickles-race-window: 100 of 100 runs (100.0%), ") == true)
        #expect(lines.last?.hasSuffix("failed, done") == true)

        let silenced = Recorder()
        _ = await GroupSimCommand(progress: silenced.sink(terminal: true)).run(["explore", Self.window, "--runs", "100", "--quiet"])
        #expect(silenced.text.isEmpty)
        #expect(await CLI.run(["explore", Self.window, "--progress", "--quiet"]).status == 2)
    }

    @Test func progressLineReadsWell() {
        #expect(ProgressLine.describe(ExplorationProgress(runsDone: 4200, runs: 100_000, failedRuns: 1050), elapsed: 2, label: "explore x")
            == "explore x: 4200 of 100000 runs (4.2%), 2100 runs/s, 1050 failed, about 46s left")
        #expect(ProgressLine.duration(185) == "3m 05s")
        #expect(ProgressLine.duration(7800) == "2h 10m")
    }

    /// `--exhaustive --progress` in a process: the search's progress (orders found, failed,
    /// schedules simulated, time elapsed) on standard error, the report on standard output
    /// the same as without it.
    @Test func exhaustiveProgressGoesToStandardErrorOnly() async throws {
        let folder = try TemporaryFolder.create("exhaustive-progress")
        defer { TemporaryFolder.remove(folder) }
        let race = CLI.path("Scenarios/pickles-race.yaml")
        let shown = try await BuiltTool.run(["explore", race, "--exhaustive", "--progress"], in: folder)
        let plain = try await BuiltTool.run(["explore", race, "--exhaustive"], in: folder)
        #expect(shown.status == 1 && plain.status == 1)
        #expect(shown.output == plain.output, "progress does not change the report")
        #expect(shown.output.hasPrefix("pickles-race: 48 distinct delivery orders (seed 7; up-front estimate 6; 6 schedules simulated;"))
        #expect(plain.error.isEmpty, "no progress without --progress when standard error is not a terminal: \(plain.error)")
        let lines = shown.error.split(separator: "\n")
        #expect(!shown.error.contains("\r"))
        let last = try #require(lines.last)
        #expect(last.hasPrefix("explore pickles-race: 48 orders found, 46 failed, 6 schedules simulated, "), "\(shown.error)")
        #expect(last.hasSuffix("s elapsed, done"), "\(shown.error)")
        #expect(!shown.output.contains("orders found"), "progress never reaches standard output")
    }

    /// On a terminal the search's line is redrawn and cleared, also before a refusal that
    /// comes after progress was shown.
    @Test func exhaustiveProgressOnATerminalIsClearedBeforeAnError() async {
        let recorder = Recorder()
        let refused = await GroupSimCommand(progress: recorder.sink(terminal: true)).run(["explore",
            CLI.path("Scenarios/pickles-race.yaml"), "--exhaustive", "--no-factor", "--limit", "10"])
        #expect(refused.status == 2)
        #expect(refused.error.contains("an estimated 48, over the limit of 10"))
        #expect(recorder.text.hasPrefix("\r\u{1B}[Kexplore pickles-race: 0 orders found, 0 failed, 0 schedules simulated, "))
        #expect(recorder.text.hasSuffix("\r\u{1B}[K"), "the line is cleared before the error")
        #expect(ProgressLine.describe(SearchProgress(orders: 1, failedOrders: 0, schedules: 1, finished: false), elapsed: 0.9,
                                      label: "explore x") == "explore x: 1 order found, 0 failed, 1 schedule simulated, 0s elapsed")
        #expect(ProgressLine.describe(SearchProgress(orders: ExactCount.factorial(40), failedOrders: 12, schedules: 3_210, finished: true),
                                      elapsed: 185, label: "explore x")
            == "explore x: 8.159 × 10^47 orders found, 12 failed, 3210 schedules simulated, 3m 05s elapsed, done")
    }

    @Test func warnsWhenNothingIsRandom() async {
        let race = await CLI.run(["explore", CLI.path("Scenarios/pickles-race.yaml"), "--runs", "20"])
        #expect(race.error.hasPrefix("warning: all 20 runs gave the same outcome: nothing in "))
        #expect(race.error.contains("is random (no jitter, no race), so every run follows one schedule"))
        let window = await CLI.run(["explore", Self.window, "--runs", "20"])
        #expect(window.error.isEmpty)
        let quiet = await CLI.run(["explore", CLI.path("Scenarios/pickles-race.yaml"), "--runs", "20", "--quiet"])
        #expect(quiet.error.isEmpty)
    }

    /// Both notes reach standard error when both apply: fewer workers than asked, and runs
    /// that all came out the same.
    @Test func theWorkersNoteAndTheSameOutcomeWarningAreBothShown() async throws {
        let path = CLI.path("Scenarios/pickles-race.yaml")
        let scenario = try ScenarioSource.load(path, apps: AppRegistry(), limits: ScenarioLimits())
        let copies = ScenarioBudget.estimate(scenario.scenario).copies
        let both = await CLI.run(["explore", path, "--runs", "20", "--workers", "4", "--max-copies", "\(2 * copies)"])
        #expect(both.status == 0, "\(both.error)")
        #expect(both.error.hasPrefix("note: 4 runs at once would use about "), "\(both.error)")
        #expect(both.error.contains(" at a time (the report is the same; raise --max-copies to run more)\nwarning: "), "\(both.error)")
        #expect(both.error.contains("\nwarning: all 20 runs gave the same outcome: nothing in "), "\(both.error)")
    }

    @Test func exploreWritesASelfContainedPage() async throws {
        let folder = try TemporaryFolder.create("explore-html")
        defer { TemporaryFolder.remove(folder) }
        let page = folder.appendingPathComponent("e.html").path
        let result = await CLI.run(["explore", Self.window, "--runs", "200", "--format", "html", "--output", page, "--quiet"])
        #expect(result.status == 1)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        // The one script allowed is the time slider of the failing run's embedded page.
        #expect(html.contains("content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src " +
            "\(HTMLReport.timelineScriptHash)\""))
        #expect(!html.contains("<script") && !html.contains("href="))
        #expect(html.contains("<iframe class=\"run-page\""))
        #expect(html.contains("<svg class=\"bar\""))
        #expect(html.contains("line 40: converged poll"))
        #expect(html.contains("<h3>alice-phone · poll</h3>"))
        #expect(html.contains("<code>lost-update</code>"))
        let text = await CLI.run(["explore", Self.window, "--runs", "200", "--quiet"])
        let replay = try #require(text.output.split(separator: "\n").first { $0.hasPrefix("replay: ") })
        let command = String(replay.dropFirst("replay: ".count))
        #expect(html.contains("<pre class=\"replay\">\(Markup.html(command))</pre>"))
        let seed = try #require(command.split(separator: " ").last)
        let run = await CLI.run(["run", Self.window, "--seed", String(seed)])
        let digest = try #require(run.output.split(separator: "\n").last)
        #expect(html.contains("<pre class=\"run-report\">"))
        #expect(html.contains(String(digest)), "the first failing run's report is embedded")
    }

    @Test func mergeWritesThePageToo() async throws {
        let folder = try TemporaryFolder.create("merge-html")
        defer { TemporaryFolder.remove(folder) }
        var shards: [String] = []
        for index in 0..<2 {
            let path = folder.appendingPathComponent("shard-\(index).json").path
            _ = await CLI.run(["explore", Self.window, "--runs", "100", "--shard", "\(index)/2", "--format", "json", "--output", path,
                "--quiet"])
            shards.append(path)
        }
        let merged = await CLI.run(["merge"] + shards + ["--format", "html"])
        let whole = await CLI.run(["explore", Self.window, "--runs", "100", "--format", "html", "--quiet"])
        #expect(merged.status == 1)
        #expect(merged.output == whole.output)
    }
}
