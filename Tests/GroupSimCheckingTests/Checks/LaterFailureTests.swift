import Foundation
import Testing
@testable import GroupSim
@testable import GroupSimSimulation
@testable import GroupSimChecking
import GroupSimTesting

/// A failure that follows from a step but happens after it ended (a direct send the app
/// makes when its cloud round trips come back, M13, M18) belongs to that step: an
/// `error:` check naming the step expects it, and without one it fails the run as an
/// unexpected step failure does. Reports say how it follows from the step.
@Suite struct LaterFailureTests {
    /// Alice taps Send in the built-in app's own interface, asking for a direct send; the
    /// app fetches the record and writes it back before sending (`push: on-compose`), each a
    /// 10-minute round trip, and sends 20 minutes after the tap, long after the interaction
    /// stopped counting (60s).
    static let late = """
        name: late-direct-send
        app: { state: cloud-overwrite, cloud-latency: 5m, push: on-compose }
        people:
          alice: [alice-phone]
          bob: [bob-phone]
        steps:
          - at: 0ms
            device: alice-phone
            send: { session: poll, data: { alice: yes }, direct: true }

        """

    static let expecting = late + """
        expect:
          - error: { step: 1, code: sendWithoutRecentInteraction }

        """

    @Test func theStepsErrorCheckExpectsIt() async throws {
        let report = try await Fixture.run(Self.expecting)
        #expect(report.passed, "\(report.checks.map(\.detail)) \(report.unexpectedFailures.map(\.text))")
        let failure = try #require(report.outcome.failures.first)
        #expect(report.outcome.failures.count == 1)
        #expect(failure.code == .sendWithoutRecentInteraction)
        #expect(failure.time == VirtualTime.zero + VirtualDuration(nanoseconds: 20 * 60 * 1_000_000_000))
        #expect(failure.step == nil, "no step was running 20 minutes after the tap")
        #expect(failure.attributedStep == 1)
        #expect(failure.origin?.via == [.cloudFetch, .cloudStore])
        #expect(failure.stepText == "step 1 (via cloud fetch, cloud store, 20m later)")
        let check = try #require(report.checks.first)
        #expect(check.detail.hasPrefix("step 1 failed with sendWithoutRecentInteraction (via cloud fetch, cloud store, 20m later): "))
    }

    @Test func withoutTheCheckTheRunFailsAsForAnyStep() async throws {
        let report = try await Fixture.run(Self.late)
        #expect(!report.passed)
        #expect(report.unexpectedFailures.map(\.text) == ["step 1 on alice-phone failed unexpectedly: sendWithoutRecentInteraction"])
        #expect(report.unexpectedFailures.first?.line == 7, "the line of step 1")
        #expect(report.unexpectedFailures.first?.detail.hasPrefix("via cloud fetch, cloud store, 20m later: direct send") == true)
        #expect(report.checkCounts == RunReport.CheckCounts(held: 0, total: 1))
    }

    /// Every report names the step and the chain, where it used to say "app action".
    @Test func reportsShowTheChain() async throws {
        let report = try await Fixture.run(Self.expecting)
        let text = TextReport.render(report)
        #expect(text.contains("20m  alice-phone  failed step=1 (via cloud fetch, cloud store, 20m later) sendWithoutRecentInteraction"))
        #expect(text.contains("  step 1 (via cloud fetch, cloud store, 20m later) on alice-phone at 20m: sendWithoutRecentInteraction (9)"))
        #expect(!text.contains("app action"))
        let mermaid = MermaidReport.render(report)
        #expect(mermaid.contains("✖ step 1 (via cloud fetch, cloud store, 20m later) failed: sendWithoutRecentInteraction"))
        let html = HTMLReport.render(report)
        #expect(html.contains("Step 1 (via cloud fetch, cloud store, 20m later) fails on alice-phone with sendWithoutRecentInteraction"))
        #expect(!html.contains("app action"))
        let json = JSONReport.render(report)
        #expect(json.contains("\"step\": 1,\n      \"via\": [\n        \"cloud fetch\",\n        \"cloud store\"\n      ],"))
        #expect(json.contains("\"event\": \"failed step=1 (via cloud fetch, cloud store, 20m later) sendWithoutRecentInteraction\""))
    }

    /// The digest reads the trace as before: the origin follows from the events before it.
    @Test func theDigestReadsTheTraceAsBefore() async throws {
        let report = try await Fixture.run(Self.late)
        let event = try #require(report.outcome.trace.events.last)
        #expect(event.kindText == "failed step=- sendWithoutRecentInteraction")
        guard case .failed(nil, .sendWithoutRecentInteraction, let origin?) = event.kind else {
            Issue.record("the last event is \(event.kind)")
            return
        }
        #expect(origin.step == 1 && origin.stepTime == .zero)
    }

    /// A write that keeps conflicting counts its round trips: `cloud store ×3`.
    @Test func repeatedRoundTripsAreCounted() {
        let origin = RunOutcome.StepFailure.Origin(step: 4, stepTime: .zero,
                                                   via: [.cloudFetch, .cloudStore, .cloudStore, .cloudStore])
        #expect(origin.chain == "cloud fetch, cloud store ×3")
        let failedAt = VirtualTime.zero + VirtualDuration(nanoseconds: 1_500_000_000)
        #expect(origin.text(failedAt: failedAt) == "via cloud fetch, cloud store ×3, 1500ms later")
    }

    /// What an app does on a copy from another device follows no step of its user: it
    /// stays an app action, which no `error:` check expects and which fails no run.
    @Test func aDeliveryStartsNoChain() async throws {
        struct Answering: MessagesApp {
            mutating func userDidCompose(_ request: ComposeRequest, conversation: Conversation) -> [AppAction] {
                [.insert(Message(session: request.session, url: "?n=1"))]
            }
            mutating func didReceive(_ message: Message, conversation: Conversation) -> [AppAction] {
                [.send(Message(session: Session(name: "answers"), url: "?answer=1"))]
            }
        }
        var apps = AppRegistry()
        apps.register("answering") { _ in Answering() }
        let report = try await Fixture.run("""
            name: answering
            app: { name: answering }
            people: { alice: [alice-phone], bob: [bob-phone] }
            steps:
              - { at: 0ms, device: bob-phone, insert: { session: draft } }
              - { at: 2m, device: alice-phone, send: { session: ping } }

            """, apps: apps)
        let failure = try #require(report.outcome.failures.first)
        #expect(failure.device == "bob-phone" && failure.code == .sendWithoutRecentInteraction)
        #expect(failure.step == nil && failure.origin == nil && failure.attributedStep == nil)
        #expect(failure.stepText == "app action")
        #expect(report.passed)
        #expect(TextReport.render(report).contains("  app action on bob-phone at "))
    }
}
