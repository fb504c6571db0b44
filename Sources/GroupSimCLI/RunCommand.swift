import Foundation
import GroupSim

/// `groupsim run FILE [--seed N] [--format text|json] [--output PATH] [--callbacks]`:
/// simulates once and prints the report; exit 0 when every check held, 1 otherwise.
struct RunCommand {
    static let formats = ["text", "json"]

    let apps: AppRegistry

    func execute(_ arguments: [String]) async throws -> CommandResult {
        let parsed = try Arguments(arguments, command: "run", valued: ["seed", "format", "output"], flags: ["callbacks"])
        if parsed.flag("help") { return CommandResult(status: 0, output: Help.run) }
        guard parsed.positional.count == 1, let path = parsed.positional.first else {
            throw UsageError(parsed.positional.isEmpty ? "run needs a scenario file" : "run takes one scenario file, found \(parsed.positional.count)",
                             hint: "Usage: groupsim run FILE [--seed N] [--format text|json] [--output PATH]")
        }
        let seed = try parsed.integer("seed", UInt64.self, in: 0...UInt64.max)
        let format = try parsed.choice("format", Self.formats) ?? "text"
        let scenario = try ScenarioParser.load(path: path, registeredApps: apps.names)
        let report = await scenario.run(seed: seed, apps: apps)
        let text: String
        switch format {
        case "json": text = JSONReport.render(report)
        default: text = TextReport.render(report, options: .init(showCallbacks: parsed.flag("callbacks")))
        }
        let status: Int32 = report.passed ? 0 : 1
        if let output = parsed.value("output") {
            try OutputFile.write(text, to: output)
            let summary = "wrote \(output); \(report.checks.filter(\.passed).count) of \(report.checks.count) checks held; trace: \(report.digest)\n"
            return CommandResult(status: status, output: summary)
        }
        return CommandResult(status: status, output: text)
    }
}

/// `groupsim check FILE...`: validates files without running them.
struct CheckCommand {
    let apps: AppRegistry

    func execute(_ arguments: [String]) throws -> CommandResult {
        let parsed = try Arguments(arguments, command: "check", valued: [], flags: [])
        if parsed.flag("help") { return CommandResult(status: 0, output: Help.check) }
        guard !parsed.positional.isEmpty else {
            throw UsageError("check needs at least one scenario file", hint: "Usage: groupsim check FILE...")
        }
        var output = ""
        var errors = ""
        for path in parsed.positional {
            do {
                let scenario = try ScenarioParser.load(path: path, registeredApps: apps.names)
                output += "\(path): ok (\(scenario.name): \(scenario.devices.count) devices, \(scenario.steps.count) steps, \(scenario.checks.count) checks)\n"
            } catch {
                errors += error.description + "\n"
            }
        }
        return CommandResult(status: errors.isEmpty ? 0 : 2, output: output, error: errors)
    }
}

/// Writes a report file, turning failures into a usage error instead of a crash.
enum OutputFile {
    static func write(_ text: String, to path: String) throws {
        do {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw UsageError("cannot write \(path): \(error.localizedDescription)")
        }
    }
}
