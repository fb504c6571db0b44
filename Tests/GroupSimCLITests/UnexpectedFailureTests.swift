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

    /// A direct send the built-in app makes when its cloud round trips come back, 20
    /// minutes after the tap: the built tool, run as a process in a folder of its own,
    /// counts it as step 1's failure, so `error:` expects it and without the check the run
    /// fails as for any unexpected step failure.
    @Test func aFailureAfterTheStepEndedIsTheSteps() async throws {
        let folder = try TemporaryFolder.create("later")
        defer { TemporaryFolder.remove(folder) }
        let late = """
            name: late-direct-send
            app: { state: cloud-overwrite, cloud-latency: 5m, push: on-compose }
            people: { alice: [alice-phone], bob: [bob-phone] }
            steps:
              - { at: 0ms, device: alice-phone, send: { session: poll, data: { alice: yes }, direct: true } }

            """
        let expected = folder.appendingPathComponent("expected.yaml")
        try (late + "expect:\n  - error: { step: 1, code: sendWithoutRecentInteraction }\n").write(to: expected, atomically: true,
                                                                                                   encoding: .utf8)
        let unexpected = folder.appendingPathComponent("unexpected.yaml")
        try late.write(to: unexpected, atomically: true, encoding: .utf8)

        let passing = try await BuiltTool.run(["run", "expected.yaml"], in: folder)
        #expect(!passing.bySignal && passing.status == 0, "status \(passing.status): \(passing.output) \(passing.error)")
        #expect(passing.output.contains("  PASS  error step=1 code=sendWithoutRecentInteraction"))
        #expect(passing.output.contains("  step 1 (via cloud fetch, cloud store, 20m later) on alice-phone at 20m: "
            + "sendWithoutRecentInteraction"))

        let failing = try await BuiltTool.run(["run", "unexpected.yaml"], in: folder)
        #expect(!failing.bySignal && failing.status == 1, "status \(failing.status): \(failing.error)")
        #expect(failing.output.contains("  FAIL  step 1 on alice-phone failed unexpectedly: sendWithoutRecentInteraction"))
        #expect(failing.output.contains("        line 5: via cloud fetch, cloud store, 20m later: direct send 20m after"))
        #expect(failing.output.contains("0 of 1 checks held"))

        let tested = try await BuiltTool.run(["test", "expected.yaml", "unexpected.yaml"], in: folder)
        #expect(tested.status == 1, "\(tested.output) \(tested.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["expected.yaml", "unexpected.yaml"])
    }
}
