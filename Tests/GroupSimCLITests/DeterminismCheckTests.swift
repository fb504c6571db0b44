import Foundation
import GroupSim
import GroupSimCLI
import GroupSimChecking
import GroupSimTesting
import Testing

/// An extension's own async code runs in the simulation as its completion handlers do:
/// inside the call that woke it, so one seed gives one run; and code that no seed
/// decides is caught by running seeds twice.
@Suite struct DeterminismCheckTests {
    static func scenarioFile(app: String = AsyncLunchController.name, in folder: URL) throws -> String {
        try TemporaryFolder.file("\(app).yaml", AsyncLunchController.scenario(app: app), in: folder)
    }

    static func parsed(app: String = AsyncLunchController.name) throws -> Scenario {
        try ScenarioParser.parse(text: AsyncLunchController.scenario(app: app), file: "lunch-async.yaml",
                                 registeredApps: AsyncLunchController.apps().names)
    }

    /// The store bridged with `withCheckedContinuation` behind an actor: every vote is
    /// fetched, saved and its bubble sent inside the run, and the record ends with every vote.
    @Test func anAsyncStoreBridgedWithContinuationsRunsInsideTheRun() async throws {
        let report = try await Self.parsed().run(apps: AsyncLunchController.apps())
        let outcome = report.outcome
        let sent = outcome.trace.events.filter { if case .sent = $0.kind { true } else { false } }.map(\.subject)
        #expect(Set(sent) == ["alice-phone", "bob-phone", "carol-phone", "dan-pad", "alice-pad"], "\(sent)")
        #expect(outcome.copiesDelivered == 5 * 7, "\(outcome.copiesDelivered)")
        #expect(outcome.cloud.count == 1)
        let votes = Dictionary(uniqueKeysWithValues: (outcome.cloud.first?.state.entries ?? []).map { ($0.key, $0.value) })
        #expect(votes == ["q": "lunch", "alice": "pizza", "bob": "pizza", "carol": "tacos", "dan": "sushi"], "\(votes)")
        #expect(report.passed, "\(report.checks.filter { !$0.passed }.map(\.detail))")
        // Each device read the poll back when a bubble arrived, inside the run.
        let fetches = outcome.trace.events.filter {
            if case .cloudRequest(.fetch, _) = $0.kind { true } else { false }
        }
        #expect(fetches.count > 5 + 7)
    }

    /// One seed, one run: twenty runs of the seed give one digest.
    @Test func twentyRunsOfOneSeedGiveOneDigest() async throws {
        let scenario = try Self.parsed()
        var digests: Set<String> = []
        for _ in 0..<20 {
            digests.insert(try await scenario.run(apps: AsyncLunchController.apps()).digest)
        }
        #expect(digests.count == 1, "\(digests.sorted())")
    }

    /// Three identical explorations on two workers print identical reports.
    @Test func identicalExplorationsOnTwoWorkersAgree() async throws {
        let folder = try TemporaryFolder.create("async-explore")
        defer { TemporaryFolder.remove(folder) }
        let file = try Self.scenarioFile(in: folder)
        let tool = GroupSimCommand(apps: AsyncLunchController.apps(), progress: .silent)
        var outputs: [String] = []
        for _ in 0..<3 {
            let explored = await tool.run(["explore", file, "--runs", "200", "--workers", "2", "--quiet"])
            #expect(explored.status == 0 || explored.status == 1, "\(explored.error)")
            outputs.append(explored.output)
        }
        #expect(Set(outputs).count == 1, "\(outputs)")
        #expect(outputs.first?.contains("200 runs") == true, "\(outputs.first ?? "")")
    }

    /// A controller that names its poll with `UUID()`: `run` exits 2 and names the first
    /// event where the two runs parted, the bubble whose URL carries the poll id.
    @Test func aControllerCallingUUIDIsRefusedByRun() async throws {
        let folder = try TemporaryFolder.create("async-uuid")
        defer { TemporaryFolder.remove(folder) }
        let file = try Self.scenarioFile(app: AsyncLunchController.name + "-uuid", in: folder)
        let tool = GroupSimCommand(apps: AsyncLunchController.apps(), progress: .silent)
        let ran = await tool.run(["run", file])
        #expect(ran.status == 2, "\(ran.output)\(ran.error)")
        #expect(ran.error.contains("the app is not deterministic: seed 5 of lunch-async gave two different runs"), "\(ran.error)")
        // The poll id first shows in the cloud request alice-phone makes for it.
        #expect(ran.error.contains("They parted at event "), "\(ran.error)")
        #expect(ran.error.contains("on alice-phone"), "\(ran.error)")
        #expect(ran.error.contains("first run:  0ms alice-phone cloud fetch "), "\(ran.error)")
        #expect(ran.error.contains("UUID()") && ran.error.contains("environment.makeToken()"), "\(ran.error)")
        // The same controller with seeded tokens passes, and the check can be skipped.
        let seededFile = try Self.scenarioFile(in: folder)
        let seeded = await tool.run(["run", seededFile])
        #expect(seeded.status == 0, "\(seeded.output)\(seeded.error)")
        let unchecked = await tool.run(["run", file, "--no-determinism-check"])
        #expect(unchecked.status == 0, "\(unchecked.error)")
    }

    /// `explore` and `test` check the seeds they print before printing them.
    @Test func exploreAndTestRefuseAControllerCallingUUID() async throws {
        let folder = try TemporaryFolder.create("async-uuid-explore")
        defer { TemporaryFolder.remove(folder) }
        let file = try Self.scenarioFile(app: AsyncLunchController.name + "-uuid", in: folder)
        let tool = GroupSimCommand(apps: AsyncLunchController.apps(), progress: .silent)
        let explored = await tool.run(["explore", file, "--runs", "20", "--quiet"])
        #expect(explored.status == 2, "\(explored.output)")
        #expect(explored.error.contains("gave two different runs"), "\(explored.error)")
        #expect(!explored.output.contains("replay:"))
        let tested = await tool.run(["test", file])
        #expect(tested.status == 2, "\(tested.output)")
        #expect(tested.output.contains("gave two different runs"), "\(tested.output)")
    }

    /// Two runs that differ are told apart at the first event, and equal runs are not.
    @Test func theFirstDifferenceIsTheFirstEventThatDiffers() async throws {
        let scenario = try Self.parsed()
        let first = try await Simulation(scenario: scenario, apps: AsyncLunchController.apps()).run()
        #expect(DeterminismCheck.difference(first, first) == nil)
        let other = try await Simulation(scenario: scenario, seed: 6, apps: AsyncLunchController.apps()).run()
        let divergence = try #require(DeterminismCheck.difference(first, other))
        let index = try #require(Array(zip(first.trace.events, other.trace.events)).firstIndex { $0 != $1 })
        #expect(divergence.place.hasPrefix("event \(index + 1) of \(first.trace.events.count)"), "\(divergence.place)")
    }
}
