import Foundation
import Testing
@testable import GroupSim
@testable import GroupSimScenario
@testable import GroupSimSimulation
@testable import GroupSimChecking
@testable import GroupSimReporting
import GroupSimTesting

/// The trace digest covers everything that can differ between two runs: cloud
/// requests and answers with their content and version, the app's actions, failures,
/// each device's final view and the checks' verdicts.
@Suite struct DigestTests {
    /// What a developer compares two runs by: transcripts, cloud contents, failures and
    /// check results, as text.
    static func fingerprint(_ report: RunReport) -> String {
        var parts: [String] = []
        for device in report.outcome.devices {
            for transcript in device.transcripts {
                parts.append("\(device.name) \(transcript.conversation): "
                    + transcript.entries.map { TextReport.line($0) }.joined(separator: " | "))
            }
        }
        for record in report.outcome.cloud { parts.append("cloud \(record.key) v\(record.version) \(record.state)") }
        for failure in report.outcome.failures {
            parts.append("failed \(failure.step.map(String.init) ?? "-") \(failure.device) \(failure.code.name)")
        }
        for check in report.checks { parts.append("\(check.passed) \(check.text) \(check.detail)") }
        return parts.joined(separator: "\n")
    }

    static func report(_ file: String) async throws -> RunReport {
        let path = ScenarioFiles.root.appendingPathComponent("Scenarios").appendingPathComponent(file).path
        return try await ScenarioParser.load(path: path).run()
    }

    /// Every pair of files in Scenarios/ (lessons included) whose transcripts, cloud
    /// contents, failures or check results differ has two different digests.
    @Test func differentRunsNeverShareADigest() async throws {
        let files = ScenarioFiles.shippedNames
        #expect(files.count > 20)
        var runs: [(file: String, digest: String, fingerprint: String)] = []
        for file in files {
            let report = try await Self.report(file)
            runs.append((file, report.digest, Self.fingerprint(report)))
        }
        for (index, first) in runs.enumerated() {
            for second in runs[(index + 1)...] where first.fingerprint != second.fingerprint {
                #expect(first.digest != second.digest, "\(first.file) and \(second.file) differ but share digest \(first.digest)")
            }
        }
    }

    /// The pairs that shared a digest before: the same trace lines, but one store lost a
    /// vote (the write's content was not traced) and the other did not.
    @Test(arguments: [("lessons/cloud-remedy-broken.yaml", "lessons/cloud-remedy-fixed.yaml"),
                      ("pickles-race-cloud-overwrite.yaml", "pickles-race-cloud-merge.yaml")])
    func cloudWritesOfDifferentContentDiffer(_ first: String, _ second: String) async throws {
        let one = try await Self.report(first)
        let two = try await Self.report(second)
        #expect(Self.fingerprint(one) != Self.fingerprint(two))
        #expect(one.digest != two.digest)
        #expect(one.outcome.digest != two.outcome.digest)
        // The cloud events carry their content: the trace alone tells the two apart.
        #expect(one.outcome.trace.digest != two.outcome.trace.digest)
        let stores = one.outcome.trace.events.compactMap { event -> CloudRequest.Operation? in
            if case .cloud(let operation?, _)? = event.payload { return operation }
            return nil
        }
        #expect(stores.contains { if case .store = $0 { true } else { false } })
    }

    /// The same run twice gives the same digest; a changed caption (only drawn, never in
    /// the URL) or a changed check gives another.
    @Test func captionsAndVerdictsAreCovered() async throws {
        let text = Fixture.group + """
            steps:
              - { at: 0ms, device: alice-phone, send: { session: poll, caption: "Pick", data: { q: topping } } }
            expect:
              - converged: poll

            """
        let base = try await Fixture.run(text)
        #expect(try await Fixture.run(text).digest == base.digest)
        let caption = try await Fixture.run(text.replacingOccurrences(of: "\"Pick\"", with: "\"Choose\""))
        #expect(caption.digest != base.digest)
        let verdict = try await Fixture.run(text.replacingOccurrences(of: "converged: poll", with: "diverged: poll"))
        #expect(verdict.outcome.trace.digest == base.outcome.trace.digest)
        #expect(verdict.digest != base.digest)
    }
}
