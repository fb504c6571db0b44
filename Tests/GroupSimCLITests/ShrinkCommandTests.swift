import Foundation
import GroupSim
import GroupSimCLI
import Testing
import GroupSimTesting

/// `groupsim shrink`: prints a smaller scenario file that `groupsim run` reproduces.
@Suite struct ShrinkCommandTests {
    /// Three people race two replies in message state: Bob's or Carol's answer is lost (M12).
    static let failing = """
        name: lost-answer
        seed: 4
        people:
          alice: [alice-phone, alice-ipad]
          bob: [bob-phone]
          carol: [carol-phone]
          dave: [dave-phone]
        steps:
          - { at: 0ms, device: alice-phone, send: { session: poll, data: { q: topping } } }
          - { at: 100ms, device: dave-phone, text: "hi all" }
          - at: 500ms
            race:
              within: 2ms
              steps:
                - { device: bob-phone, reply: { session: poll, data: { bob: tomatoes } } }
                - { device: carol-phone, reply: { session: poll, data: { carol: pickles } } }
        expect:
          - complete: { session: poll, data: { bob: tomatoes, carol: pickles } }
        """

    static let passing = """
        name: calm
        people:
          alice: [alice-phone]
          bob: [bob-phone]
        steps:
          - { at: 0ms, device: alice-phone, send: { session: poll, data: { q: topping } } }
        expect:
          - converged: poll
        """

    @Test func printsAScenarioThatRunReproduces() async throws {
        let directory = try TemporaryFolder.create("shrink")
        defer { TemporaryFolder.remove(directory) }
        let path = try Self.write(Self.failing, named: "lost-answer.yaml", in: directory)
        let result = await GroupSimCommand().run(["shrink", path])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.hasPrefix("# Shrunk by groupsim shrink from \(path) with seed 4"))

        let shrunk = try Self.write(result.output, named: "shrunk.yaml", in: directory)
        let rerun = await GroupSimCommand().run(["run", shrunk])
        #expect(rerun.status == 1)
        let scenario = try ScenarioParser.load(path: shrunk)
        #expect(scenario.devices.count <= 3)
        #expect(scenario.seed == 4)
    }

    @Test func writesTheOutputFile() async throws {
        let directory = try TemporaryFolder.create("shrink")
        defer { TemporaryFolder.remove(directory) }
        let path = try Self.write(Self.failing, named: "lost-answer.yaml", in: directory)
        let output = directory.appendingPathComponent("out.yaml").path
        let result = await GroupSimCommand().run(["shrink", path, "--seed", "4", "--output", output])
        #expect(result.status == 0)
        #expect(result.output.contains("still fails complete: { session: poll, data: { bob: tomatoes, carol: pickles } }"))
        #expect(try ScenarioParser.load(path: output).checks.count == 1)
    }

    @Test func aPassingRunHasNothingToShrink() async throws {
        let directory = try TemporaryFolder.create("shrink")
        defer { TemporaryFolder.remove(directory) }
        let path = try Self.write(Self.passing, named: "calm.yaml", in: directory)
        let result = await GroupSimCommand().run(["shrink", path])
        #expect(result.status == 1)
        #expect(result.output.isEmpty)
        #expect(result.error.contains("every check held, so there is no failing run to shrink"))
    }

    @Test(arguments: [["shrink"], ["shrink", "a.yaml", "b.yaml"], ["shrink", "a.yaml", "--seed", "-1"],
                      ["shrink", "a.yaml", "--seed", "18446744073709551615"], ["shrink", "missing.yaml"]])
    func usageErrorsExitTwo(_ arguments: [String]) async {
        let result = await GroupSimCommand().run(arguments)
        #expect(result.status == 2)
        #expect(!result.error.isEmpty)
    }

    // MARK: - Support

    static func write(_ text: String, named name: String, in directory: URL) throws -> String {
        let url = directory.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }
}
