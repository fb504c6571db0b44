import Foundation
import Testing
@testable import GroupSim
@testable import GroupSimScenario
@testable import GroupSimSimulation
@testable import GroupSimReporting
import GroupSimCore
import GroupSimTesting

/// A step failure names the rule it follows from where it is raised (`StepFailure.rule`,
/// the trace's failure payload, JSON's `rule`), so reports read it instead of scanning the
/// reason's words for "M" and a number.
@Suite struct FailureRuleTests {
    /// In every shipped scenario, each failure's rule is the first one its reason cites, in
    /// the outcome and in the trace; the files between them fail with at least three rules.
    @Test func everyFailureCarriesTheRuleItsReasonCites() async throws {
        var seen = Set<Rule>()
        for file in ScenarioFiles.shippedNames {
            let report = try await DigestTests.report(file)
            for failure in report.outcome.failures {
                let cited = RuleReference.rules(in: failure.reason).first.map(Rule.init(rawValue:))
                #expect(failure.rule == cited, "\(file): \(failure.device) \(failure.code.name) carries \(failure.rule?.rawValue ?? "no rule")")
                if let rule = failure.rule { seen.insert(rule) }
            }
            let traced = report.outcome.trace.events.compactMap { event -> (String, Rule?)? in
                guard case .failure(let reason, let rule)? = event.payload else { return nil }
                return (reason, rule)
            }
            for (reason, rule) in traced {
                #expect(rule == RuleReference.rules(in: reason).first.map(Rule.init(rawValue:)), "\(file): traced \(reason)")
            }
        }
        #expect(seen.count >= 3, "rules seen: \(seen.sorted())")
    }

    /// A removed member's step (the network's own failure, not a device's) and a direct
    /// send without a recent interaction: `M6` and `M18` in the outcome and in JSON.
    @Test func theJSONReportGivesEachFailuresRule() async throws {
        let scenario = try ScenarioParser.parse(text: """
            name: failure-rules
            seed: 1
            people:
              alice: [alice-phone]
              bob: [bob-phone]
              carol: [carol-phone]
            steps:
              - at: 0ms
                device: alice-phone
                leave: carol
              - at: 1s
                device: carol-phone
                leave: bob
              - at: 2s
                device: bob-phone
                close: true
            """, file: "failure-rules.yaml")
        let report = try await scenario.run()
        let rules = report.outcome.failures.map { "\($0.device) \($0.code.name) \($0.rule?.rawValue ?? "-")" }
        #expect(rules == ["carol-phone notMember M6", "bob-phone unknown M22"])
        let json = JSONReport.render(report)
        #expect(json.contains(#""code": "notMember""#) && json.contains(#""rule": "M6""#), "\(json)")
        #expect(json.contains(#""rule": "M22""#))
    }
}
