import GroupSimCore
import GroupSimScenario
import GroupSimSimulation
import GroupSimChecking

/// What `groupsim test` found for one scenario file: its single run, its exploration when
/// asked for, or why it could not be read.
package struct ScenarioTestResult: Sendable {
    package var path: String
    package var scenario: String = ""
    package var seed: UInt64 = 0
    package var report: RunReport?
    /// The run's digest (`RunReport.digest`), worked out once when the file is done: over
    /// the whole trace it costs more than the run itself, so the report of an interrupted
    /// `test` is printed at once instead of hashing every finished file then, and the
    /// JUnit file does not hash it again.
    package var digest: String = ""
    package var exploration: ExplorationReport?
    /// The file's first problem, when it is not a valid scenario.
    package var invalid: ScenarioError?
    /// The files the scenario read besides itself (its sticker files): `--junit` may not
    /// name them.
    package var stickerFiles: [String] = []

    package init(path: String, scenario: String, seed: UInt64, report: RunReport) {
        self.path = path
        self.scenario = scenario
        self.seed = seed
        self.report = report
        digest = report.digest
    }

    package init(path: String, invalid: ScenarioError) {
        self.path = path
        self.invalid = invalid
    }

    /// Every check held in the run, and in every explored run.
    package var passed: Bool { invalid == nil && (report?.passed ?? false) && (exploration?.passed ?? true) }

    package var checksHeld: Int { (report?.checks ?? []).indices.filter { checkPassed($0) }.count }

    /// Check `index` held in the run and in every explored run.
    package func checkPassed(_ index: Int) -> Bool {
        guard let report, report.checks.indices.contains(index), report.checks[index].passed else { return false }
        guard let exploration, exploration.checks.indices.contains(index) else { return true }
        return exploration.checks[index].failedRuns == 0
    }

    /// Why check `index` failed and the seed that replays it, or nil when it held.
    package func failure(_ index: Int) -> (finding: String, seed: UInt64)? {
        guard let report, report.checks.indices.contains(index) else { return nil }
        let check = report.checks[index]
        if !check.passed { return (check.detail, seed) }
        if let exploration, exploration.checks.indices.contains(index) {
            let tally = exploration.checks[index]
            if tally.failedRuns > 0, let first = tally.firstFailure {
                let finding = "failed in \(tally.failedRuns) of \(exploration.runs) explored runs "
                    + "(\(ExplorationReport.percent(tally.failedRuns, of: exploration.runs)))"
                return (finding, first.seed)
            }
        }
        return nil
    }

    /// The command that replays a failing run of this file.
    package func replay(seed: UInt64) -> String { "groupsim run \(ShellWord.quote(path)) --seed \(seed)" }

    /// `PASS  Scenarios/pickles-race.yaml  7 of 7 checks held  4 pitfalls  trace c12549db63f50206`.
    package var line: String {
        if let invalid {
            return "ERROR \(path)  \(invalid.description)"
        }
        guard let report else { return "ERROR \(path)" }
        var text = (passed ? "PASS  " : "FAIL  ") + path
        text += "  \(checksHeld) of \(Plural.count(report.checks.count, "check")) held"
        text += "  \(Plural.count(report.pitfalls.count, "pitfall"))"
        text += "  trace \(digest.prefix(16))"
        if let exploration {
            text += "  explored: \(exploration.failedRuns) of \("\(exploration.runs) run\(exploration.runs == 1 ? "" : "s")") failed"
        }
        return text
    }

    /// GitHub Actions annotations: one `::error` per failing check at its line, or one at
    /// the problem's place for an invalid file.
    package var annotations: [String] {
        if let invalid {
            let line = invalid.location.map { ",line=\($0.line),col=\($0.column)" } ?? ""
            return ["::error file=\(GitHubAnnotation.property(path))\(line),title=invalid scenario::"
                + GitHubAnnotation.message(invalid.message)]
        }
        guard let report else { return [] }
        return report.checks.indices.compactMap { index in
            guard let failure = failure(index) else { return nil }
            let check = report.checks[index]
            let line = check.spec.location.map { ",line=\($0.line)" } ?? ""
            let text = "\(check.text): \(failure.finding)\nreplay: \(replay(seed: failure.seed))"
            return "::error file=\(GitHubAnnotation.property(path))\(line),"
                + "title=\(GitHubAnnotation.property("check failed: " + check.text))::"
                + GitHubAnnotation.message(text)
        }
    }
}

/// Escaping for GitHub Actions workflow commands (`::error file=...::message`).
package enum GitHubAnnotation {
    /// A message: `%`, carriage return and newline are encoded.
    package static func message(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25")
            .replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    /// A property value: as a message, plus `:` and `,`.
    package static func property(_ text: String) -> String {
        message(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}
