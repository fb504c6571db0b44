import Foundation
import Testing
import GroupSimCLI
import GroupSimTesting

/// A step that fails is a failed verdict unless an `error:` check expects it:
/// `run` exits 1, `explore` counts it per run with a seed, the JSON report lists it as a
/// failed check.
@Suite struct UnexpectedFailureTests {
    /// Bob replies before Alice's poll can have reached him: noBubble, with no error check.
    static let early = """
        name: early-reply
        people: { alice: [alice-phone], bob: [bob-phone] }
        steps:
          - { at: 0ms, device: alice-phone, send: { session: poll, data: { q: topping } } }
          - { at: 10ms, device: bob-phone, reply: { session: poll, data: { bob: tomatoes } } }

        """

    @Test func runExitsOneOnAnUnexpectedFailure() async throws {
        let scratch = try TemporaryFolder.create("cli")
        defer { TemporaryFolder.remove(scratch) }
        let path = try CLI.temporaryFile(in: scratch, "early.yaml", Self.early)
        let result = await CLI.run(["run", path])
        #expect(result.status == 1)
        #expect(result.output.contains("  FAIL  step 2 on bob-phone failed unexpectedly: noBubble"))
        #expect(result.output.contains("0 of 1 checks held"))

        let json = await CLI.run(["run", path, "--format", "json"])
        #expect(json.status == 1)
        #expect(json.output.contains("\"text\": \"step 2 on bob-phone failed unexpectedly: noBubble\""))
        #expect(json.output.contains("\"check\": \"unexpected-failure\""))
        #expect(json.output.contains("\"passed\": false"))
    }

    /// With the `error:` check the same run passes.
    @Test func anExpectedFailureIsNoFailure() async throws {
        let scratch = try TemporaryFolder.create("cli")
        defer { TemporaryFolder.remove(scratch) }
        let path = try CLI.temporaryFile(in: scratch, "expected.yaml", Self.early + "expect:\n  - error: { step: 2, code: noBubble }\n")
        let result = await CLI.run(["run", path])
        #expect(result.status == 0, "\(result.output)")
        #expect(!result.output.contains("failed unexpectedly"))
    }

    /// Explore counts the runs where the step failed, with a seed that replays one.
    @Test func exploreCountsUnexpectedFailuresPerRun() async throws {
        let scratch = try TemporaryFolder.create("cli")
        defer { TemporaryFolder.remove(scratch) }
        let text = """
            name: window
            people: { alice: [alice-phone], bob: [bob-phone] }
            network: { latency: 10ms, jitter: 100ms }
            steps:
              - { at: 0ms, device: alice-phone, send: { session: poll, data: { q: topping } } }
              - at: 0ms
                race:
                  within: 100ms
                  steps:
                    - { device: bob-phone, reply: { session: poll, data: { bob: tomatoes } } }
            expect:
              - latest: { device: alice-phone, session: poll }

            """
        let path = try CLI.temporaryFile(in: scratch, "window.yaml", text)
        let result = await CLI.run(["explore", path, "--runs", "100", "--workers", "1"])
        #expect(result.status == 1)
        let row = try #require(result.output.split(separator: "\n")
            .first { $0.contains("step 2 on bob-phone failed unexpectedly: noBubble") })
        #expect(row.contains("FAIL"))
        let seed = try #require(row.split(separator: " ").last.map { String($0.dropLast()) })
        let replay = await CLI.run(["run", path, "--seed", seed])
        #expect(replay.status == 1)
        #expect(replay.output.contains("step 2 on bob-phone failed unexpectedly: noBubble"))

        let json = await CLI.run(["explore", path, "--runs", "100", "--workers", "1", "--format", "json"])
        #expect(json.output.contains("\"unexpectedFailures\": ["))
        #expect(json.output.contains("\"text\": \"step 2 on bob-phone failed unexpectedly: noBubble\""))
    }
}
