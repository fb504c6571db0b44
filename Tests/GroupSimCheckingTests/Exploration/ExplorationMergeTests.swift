import Testing
@testable import GroupSim
@testable import GroupSimCore
@testable import GroupSimScenario
@testable import GroupSimChecking
import GroupSimTesting

/// Merging shard reports from Swift: fingerprints of the parsed scenario, missing shards,
/// and arithmetic that cannot trap.
@Suite struct ExplorationMergeTests {
    static let race = """
        name: poll-race
        people: { alice: [alice-phone], bob: [bob-phone], carol: [carol-phone] }
        network: { latency: 300ms, jitter: 700ms }
        steps:
          - { at: 0ms, device: alice-phone, send: { session: poll, data: { q: topping } } }
          - at: 3s
            race:
              within: 2s
              steps:
                - { device: bob-phone, reply: { session: poll, data: { bob: tomatoes } } }
                - { device: carol-phone, reply: { session: poll, data: { carol: pickles } } }
        expect:
          - converged: poll

        """

    /// The fingerprint is of the parsed scenario: the same for a file that differs only in
    /// comments, spacing, flow or block style and path; different when a step changes.
    @Test func fingerprintIsOfTheParsedScenario() throws {
        let scenario = try Fixture.scenario(Self.race)
        #expect(scenario.fingerprint.count == 16 && scenario.fingerprint.allSatisfy(\.isHexDigit))
        let restyled = Self.race
            .replacingOccurrences(of: "network: { latency: 300ms, jitter: 700ms }",
                with: "network:   # the links\n  jitter: 700ms\n  latency: 300ms")
        let elsewhere = try ScenarioParser.parse(text: restyled + "# the end\n", file: "elsewhere/race.yaml")
        #expect(elsewhere.fingerprint == scenario.fingerprint)
        for edit in [("within: 2s", "within: 3s"), ("bob: tomatoes", "bob: olives"), ("jitter: 700ms", "jitter: 600ms"),
            ("converged: poll", "diverged: poll")] {
            let edited = try Fixture.scenario(Self.race.replacingOccurrences(of: edit.0, with: edit.1))
            #expect(edited.fingerprint != scenario.fingerprint, "\(edit)")
        }
    }

    /// Reports carry the fingerprint and version; a shard of an edited scenario, or of
    /// another version, is refused naming both reports.
    @Test func mismatchedFingerprintOrVersionIsRefused() async throws {
        let scenario = try Fixture.scenario(Self.race)
        let edited = try Fixture.scenario(Self.race.replacingOccurrences(of: "within: 2s", with: "within: 3s"))
        let zero = try await Explorer(scenario: scenario).explore(runs: 20, shard: try Shard(index: 0, count: 2))
        let one = try await Explorer(scenario: edited).explore(runs: 20, shard: try Shard(index: 1, count: 2))
        #expect(zero.fingerprint == scenario.fingerprint && zero.toolVersion == GroupSimVersion.current)
        #expect(throws: ExplorationError.mismatchedReports(
            "b.json and a.json are of different scenario text under the name poll-race (fingerprint \(edited.fingerprint) in b.json, " +
                "\(scenario.fingerprint) in a.json): the scenario file changed between shards")) {
            try ExplorationReport.merge([one, zero], names: ["b.json", "a.json"])
        }
        var other = try await Explorer(scenario: scenario).explore(runs: 20, shard: try Shard(index: 1, count: 2))
        #expect(try ExplorationReport.merge([zero, other]).shard == nil)
        other.toolVersion = "9.9.9"
        #expect(throws: ExplorationError.mismatchedReports(
            "report 2 was explored by groupsim 9.9.9, report 1 by groupsim \(GroupSimVersion.current): explore every shard with the " +
                "same version")) {
            try ExplorationReport.merge([zero, other])
        }
    }

    /// A missing shard is an error unless the merge is partial; a partial report keeps
    /// its coverage, so it is never taken for the whole.
    @Test func missingShardsNeedPartial() async throws {
        let explorer = Explorer(scenario: try Fixture.scenario(Self.race))
        let shards = try await [0, 1, 3].asyncMap { try await explorer.explore(runs: 40, shard: try Shard(index: $0, count: 4)) }
        let covered = ExplorationReport.ShardCoverage(count: 4, indices: [0, 1, 3])
        #expect(throws: ExplorationError.missingShards(covered: covered, requestedRuns: 40)) { try ExplorationReport.merge(shards) }
        #expect(ExplorationError.missingShards(covered: covered, requestedRuns: 40).description
                == "shard 2/4 is missing: the reports cover shards 0/4, 1/4, 3/4 of 40 runs")
        let partial = try ExplorationReport.merge(shards.reversed(), partial: true)
        #expect(partial.shard == covered && partial.runs == 30)
        #expect(partial == (try ExplorationReport.merge(shards, partial: true)), "the order of the reports does not matter")
    }

    /// The missing shards as Slurm --array ranges, and in words, for any coverage.
    @Test(arguments: [
        ([0, 1, 3], 4, "2", "shard 2/4 is missing"),
        ([2], 4, "0-1,3", "shards 0/4, 1/4 and 3/4 are missing"),
        ([1, 2, 5], 8, "0,3-4,6-7", "shards 0/8, 3/8, 4/8, 6/8 and 7/8 are missing"),
        ([0, 1], 2, "", "no shard is missing"),
    ])
    func missingShards(_ indices: [Int], _ count: Int, _ ranges: String, _ words: String) {
        let coverage = ExplorationReport.ShardCoverage(count: count, indices: indices)
        #expect(coverage.missingRanges == ranges)
        #expect(coverage.missingDescription() == words)
    }

    /// A huge shard count costs nothing to describe.
    @Test func missingShardsOfAHugeCount() {
        let coverage = ExplorationReport.ShardCoverage(count: Int.max, indices: [0])
        #expect(coverage.missingRanges == "1-\(Int.max - 1)")
        #expect(coverage.missingDescription(limit: 2) == "shards 1/\(Int.max), 2/\(Int.max) and \(Int.max - 3) more are missing")
    }

    /// Percentages never trap, near the integer limit or above 100%.
    @Test func percentagesDoNotOverflow() {
        #expect(ExplorationReport.percent(1, of: 3) == "33.3%")
        #expect(ExplorationReport.percent(2, of: 3) == "66.7%")
        #expect(ExplorationReport.percent(1, of: 8) == "12.5%")
        #expect(ExplorationReport.percent(525, of: 1000) == "52.5%")
        #expect(ExplorationReport.percent(0, of: 0) == "0%")
        #expect(ExplorationReport.percent(Int.max, of: Int.max) == "100.0%")
        #expect(ExplorationReport.percent(Int.max / 2, of: Int.max) == "50.0%")
        #expect(ExplorationReport.percent(5, of: 4) == "over 100%")
    }

    /// Counts that add up past `Int.max` merge exactly, never with a trap.
    @Test func countsPastTheIntegerLimitMergeExactly() async throws {
        let explorer = Explorer(scenario: try Fixture.scenario(Self.race))
        var zero = try await explorer.explore(runs: 4, shard: try Shard(index: 0, count: 2))
        var one = try await explorer.explore(runs: 4, shard: try Shard(index: 1, count: 2))
        for (index, runs) in [(0, ExactCount(Int.max / 2 + 1)), (1, ExactCount(Int.max / 2))] {
            func scale(_ report: inout ExplorationReport) {
                report.mode = .random(seed: report.seed, requested: Int.max)
                report.runs = runs
                report.failedRuns = .zero
                report.failures = []
                for check in report.checks.indices {
                    report.checks[check].failedRuns = .zero
                    report.checks[check].firstFailure = nil
                }
                report.outcomes = .init(report.outcomes.map { row in
                    var row = row
                    row.counts = [ExplorationReport.OutcomeCount(shown: row.counts[0].shown, runs: runs)]
                    return row
                })
                report.classes = report.classes.map { entry in
                    var entry = entry
                    entry.runs = runs
                    return entry
                }
                report.pitfalls = []
                report.stepFailures = []
            }
            if index == 0 { scale(&zero) } else { scale(&one) }
        }
        // The same outcome in both shards, so that its counts add up to Int.max.
        one.outcomes = .init(zero.outcomes.map { row in
            var row = row
            row.counts[0].runs = ExactCount(Int.max / 2)
            return row
        })
        one.classes = zero.classes.map { entry in
            var entry = entry
            entry.runs = ExactCount(Int.max / 2)
            return entry
        }
        let merged = try ExplorationReport.merge([zero, one])
        #expect(merged.runs == ExactCount(Int.max) && merged.outcomes.allSatisfy { $0.counts.map(\.runs) == [ExactCount(Int.max)] })
        var tally = ExplorationTally(zero)
        tally.merge(ExplorationTally(zero))
        let doubled = tally.report(zero)
        #expect(doubled.runs.description == "9223372036854775808", "a sum past Int.max is exact")
    }
}

extension Array {
    /// `map` with an async, throwing transform, in order.
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var result: [T] = []
        for element in self { result.append(try await transform(element)) }
        return result
    }
}
