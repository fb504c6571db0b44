import Foundation
import Testing
import GroupSim
import GroupSimBench
@testable import GroupSimCLI

/// The workloads `groupsim bench --scale` times are generated in code
/// from a seed, and do the work they announce. Counts only: no test asserts a time.
@Suite struct BenchWorkloadTests {
    @Test func scaleGroupIsDeterministicAndCountsItsWork() async throws {
        let group = BenchWorkload.scaleGroup(devices: 10)
        #expect(group.scenario == BenchWorkload.scaleGroup(devices: 10).scenario)
        #expect(group.scenario != BenchWorkload.scaleGroup(devices: 10, seed: 10).scenario)
        #expect(group.sends == 100)
        #expect(group.copies == 900)
        #expect(group.sessions == 100)
        #expect(group.scenario.devices.count == 10)
        #expect(group.scenario.network == Scenario.NetworkSpec(latency: .milliseconds(50), jitter: .milliseconds(40)))
        let steps = group.scenario.steps
        #expect(Set(steps.compactMap { if case .send(let compose) = $0.action { compose.session } else { nil } }).count == 100)
        // Phone i sends its message j in session s<i>-<j % 10>, at seeded times within the hour.
        #expect(steps.filter { $0.device == "p3-phone" }.count == 10)
        #expect(steps.allSatisfy { $0.time >= .zero && $0.time < VirtualTime.zero + BenchWorkload.scaleSpan })
        #expect(steps.map(\.time) == steps.map(\.time).sorted())
        #expect(steps.map(\.number) == Array(1...100))
        #expect(group.span > .seconds(3_000))
        // The announced copies are the copies the simulation delivers.
        let outcome = try await Simulation(scenario: group.scenario, recordTrace: false).run()
        #expect(outcome.copiesDelivered == 900)
        #expect(outcome.failures.isEmpty)
        #expect(outcome.devices.allSatisfy { $0.sessions.count == 100 })
    }

    @Test(arguments: [1, 3, 100, 1_000])
    func scaleGroupSizes(devices: Int) {
        let group = BenchWorkload.scaleGroup(devices: devices)
        #expect(group.sends == devices * 10)
        #expect(group.copies == devices * 10 * (devices - 1))
        #expect(group.sessions == devices * 10)
    }

    @Test func dayInABigGroupIsDeterministicAndCountsItsWork() async throws {
        let hour = BenchWorkload.day(length: .seconds(3_600))
        #expect(hour.scenario == BenchWorkload.day(length: .seconds(3_600)).scenario)
        #expect(hour.scenario.people.count == 32)
        #expect(hour.scenario.devices.count == 96)
        // 20 sessions opened, then 12 messages per person in the hour.
        #expect(hour.sends == 20 + 32 * 12)
        #expect(hour.copies == hour.sends * 95)
        let steps = hour.scenario.steps
        let replies = steps.filter { if case .reply = $0.action { true } else { false } }
        #expect(replies.allSatisfy { if case .reply(let compose) = $0.action { compose.session.hasPrefix("open-") } else { false } })
        #expect(hour.sessions == steps.count - replies.count)
        // About half of the traffic replies (a seeded coin per message).
        #expect(replies.count > 384 / 3 && replies.count < 384 * 2 / 3)
        let outcome = try await Simulation(scenario: hour.scenario, recordTrace: false).run()
        #expect(outcome.copiesDelivered == hour.copies)
        #expect(outcome.failures.isEmpty, "\(outcome.failures.prefix(3).map(\.reason))")
        let day = BenchWorkload.day()
        #expect(day.sends == 20 + 32 * 288)
        #expect(day.span > .seconds(86_000))
    }

    @Test func benchPollAppMatchesTheBuiltInApp() async throws {
        let scenario = try ScenarioParser.load(path: CLI.path("Scenarios/pickles-race.yaml"))
        var custom = scenario
        custom.app.name = BenchPollApp.name
        var apps = AppRegistry()
        apps.register(BenchPollApp.name) { _ in BenchPollApp() }
        let builtIn = try await scenario.run()
        let own = try await custom.run(apps: apps)
        #expect(own.passed, "\(own.checks.map(\.detail))")
        #expect(own.outcome.devices.map(\.sessions).map { $0.map(\.urlState) }
            == builtIn.outcome.devices.map(\.sessions).map { $0.map(\.urlState) })
        #expect(own.pitfalls.map(\.kind) == builtIn.pitfalls.map(\.kind))
    }

    @Test func quickScalePrintsEveryWorkload() async {
        let result = await CLI.run(["bench", "--scale", "--quick"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("scale 3 devices: 60 copies, 30 sessions in "))
        #expect(result.output.contains("scale 10 devices: 900 copies, 100 sessions in "))
        #expect(result.output.contains(" ns/copy; peak memory "))
        #expect(result.output.contains("scale ns/copy at 10 devices over 3 devices: "))
        #expect(result.output.contains("day: 32 people x 3 devices, 404 messages, 38,380 copies, "))
        #expect(result.output.contains(" s simulated in "))
        #expect((BenchCommandTests.figure(result.output, line: "day:", before: "s simulated") ?? 0) == 3_600)
        // Each group's explore end to end over its simulation alone (the thresholds file
        // has targets for the full sizes, 100 to 1,000 devices, not for the quick ones).
        let endToEnd = result.output.split(separator: "\n").first { $0.hasPrefix("scale 10 devices: explore end to end (runs, tally, text report) ") }
        #expect(endToEnd?.contains(" over the simulation alone ") == true, "\(result.output)")
        #expect(BenchThresholds.none.text("explore-over-simulation-10", 1.25, digits: 2) == "1.25")
        // The vote with a registered controller beside the built-in app's.
        let controller = result.output.split(separator: "\n").first { $0.hasPrefix("vote: random exploration with a registered controller") }
        #expect(controller?.contains("(200 runs in ") == true, "\(result.output)")
        #expect(controller?.contains("of the built-in app's") == true)
        let only = await CLI.run(["bench", "--scale", "--quick", "--only", "day"])
        // After the build's line and the note on which figures travel.
        #expect(only.output.split(separator: "\n").dropFirst(2).map { String($0.prefix(4)) } == ["day:"])
        let wrong = await CLI.run(["bench", "--scale", "--only", "a"])
        #expect(wrong.status == 2)
    }

    @Test func customAppFigure() async {
        let result = await CLI.run(["bench", "--quick", "--only", "e", "--scenario", CLI.path("Scenarios/pickles-race.yaml")])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("(e) custom MessagesApp: runs of \(CLI.path("Scenarios/pickles-race.yaml")) " +
            "with bench-poll: 20 in "))
        #expect((BenchCommandTests.figure(result.output, line: "(e)", before: "runs/s") ?? 0) > 0)
        #expect(MemoryMark.megabytes(3 * 1_048_576) == "3 MB")
        #expect(ProcessMemory.peak() >= 0)
    }
}
