import GroupSim

/// `groupsim shrink FILE [--seed N] [--output PATH] [--attempts N]`: from a failing run,
/// prints a smaller scenario file that still fails the same check.
struct ShrinkCommand: Subcommand {
    static let name = "shrink"
    static let summary = "shrink a failing run to a smaller scenario file that still fails"
    static let operands = "FILE"
    static let seed = Option.seed("the run to shrink")
    static let attempts = Option.integer("attempts", in: 1...1_000_000, default: 500,
                                         "the most candidate scenarios to try")
    static let options = [seed, Option.output.explained("write the scenario file to PATH and print a summary instead"), attempts]
        + ScenarioInput.options

    static let about = """
    Runs the scenario once with the seed. When a check fails, searches for a smaller
    scenario that still fails that check for the same reason: fewer people, devices,
    steps and links, smaller latencies, jitters and race windows. Prints it as a
    scenario file that `groupsim run` reproduces (its seed is the run's seed), keeping
    only the failing check.
    """

    static let epilogue = """
    Exit status: 0 a failing run was shrunk; 1 the run failed no check, so there is
    nothing to shrink; 2 usage error or invalid scenario.
    """

    let apps: AppRegistry

    func execute(_ arguments: [String]) async throws -> CommandResult {
        let parsed = try Self.parse(arguments)
        let path = try Self.scenarioFile(parsed)
        let seedOption = try parsed.integer(Self.seed, as: UInt64.self)
        let attempts = try parsed.number(Self.attempts)
        try OutputFile.check(parsed.value(.output), inputs: [path])
        let scenario = try ScenarioInput.load(path, parsed, apps: apps)
        let inputs = ScenarioInput.inputs(path, scenario)
        try OutputFile.check(parsed.value(.output), inputs: inputs)
        let seed = seedOption ?? scenario.seed
        let result = try await Shrinker(apps: apps).shrink(scenario.scenario, seed: seed, maxAttempts: attempts)

        guard let check = result.check else {
            let unexpected = try await scenario.run(seed: seed, apps: apps).unexpectedFailures
            if let first = unexpected.first {
                return CommandResult(.nothingToShrink, error: "groupsim: \(path) with seed \(seed): every check held, but \(first.text); "
                                     + "shrink keeps a failing check, so write one that this run fails (or an error: check) "
                                     + "and shrink again\n")
            }
            return CommandResult(.nothingToShrink,
                                 error: "groupsim: \(path) with seed \(seed): every check held, so there is no failing run to shrink\n")
        }
        guard result.reproduces else {
            return CommandResult(.usage, error: "groupsim: error: \(path) fails \(ScenarioWriter.check(check)) with seed \(seed), "
                                 + "but the scenario cannot be printed as a file that reproduces the run\n")
        }
        let sizes = "\(scenario.devices.count) -> \(result.scenario.devices.count) devices, "
            + "\(scenario.people.count) -> \(result.scenario.people.count) people, "
            + "\(scenario.steps.count) -> \(result.scenario.steps.count) steps"
        let header = """
        # Shrunk by groupsim shrink from \(ShellWord.quote(path)) with seed \(seed) in \(result.attempts) attempts
        # (\(sizes)). It still fails:
        #   \(ScenarioWriter.check(check))

        """
        let text = header + result.yaml
        if let output = parsed.value(.output) {
            try OutputFile.write(text, to: output, inputs: inputs)
            return CommandResult(.success, output: "wrote \(output): \(sizes); still fails \(ScenarioWriter.check(check))\n")
        }
        return CommandResult(.success, output: text)
    }
}
