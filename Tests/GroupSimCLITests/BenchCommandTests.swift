import Foundation
import Testing
import GroupSimCLI

/// `groupsim bench` prints its four figures. Benchmarks measure and
/// print; these tests run the quick size and check that each figure is there and
/// positive, never what it is (README: no tests with time limits).
@Suite struct BenchCommandTests {
    /// The number before `unit` on the line that starts with `label`, commas removed.
    static func figure(_ output: String, line label: String, before unit: String) -> Double? {
        guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix(label) }),
              let range = line.range(of: " \(unit)") else { return nil }
        let number = line[..<range.lowerBound].split(separator: " ").last.map { $0.replacingOccurrences(of: ",", with: "") }
        return number.flatMap(Double.init)
    }

    @Test func quickRunPrintsFourPositiveFigures() async {
        let result = await CLI.run(["bench", "--quick", "--scenario", CLI.path("Scenarios/pickles-race.yaml")])
        #expect(result.status == 0, "\(result.error)")
        let copies = Self.figure(result.output, line: "(a)", before: "copies/s")
        let runs = Self.figure(result.output, line: "(b)", before: "runs/s")
        let events = Self.figure(result.output, line: "(c)", before: "events/s")
        let ratio = result.output.split(separator: "\n").first { $0.hasPrefix("(d) ratio (a)/(c): ") }
            .flatMap { Double($0.dropFirst("(d) ratio (a)/(c): ".count).prefix { $0 != " " }) }
        for (name, value) in [("copies", copies), ("runs", runs), ("events", events), ("ratio", ratio)] {
            #expect((value ?? 0) > 0, "\(name) in:\n\(result.output)")
        }
        // The work done is exact even if its speed is not: 4 devices x 20 messages, each
        // copied to the 3 others; 20 runs; each send and each copy is one event.
        #expect(result.output.contains("(a) copies delivered: 240 in "))
        #expect(result.output.contains("(b) runs of \(CLI.path("Scenarios/pickles-race.yaml")): 20 in "))
        #expect(result.output.contains("(c) bare event loop: 320 events in "))
        // (f): the same 20 runs with a registered MSMessagesAppViewController, and the ratio.
        // Its rate is not asserted: each of its runs hops to a thread of its own and back
        // to the shared pool, and a test suite that keeps that pool busy can make it round
        // to 0 runs/s; the runs and a measured time are.
        let controllerSeconds = result.output.split(separator: "\n").first { $0.hasPrefix("(f) custom controller runs/s: 20 runs in ") }
            .flatMap { Double($0.dropFirst("(f) custom controller runs/s: 20 runs in ".count).prefix { $0 != " " }) }
        #expect((controllerSeconds ?? 0) > 0, "\(result.output)")
        #expect(result.output.contains("; ratio (b)/(f): "))
    }

    @Test func onlyPrintsOneFigure() async {
        let result = await CLI.run(["bench", "--quick", "--only", "c", "--scenario", CLI.path("Scenarios/pickles-race.yaml")])
        #expect(result.status == 0)
        #expect(result.output.split(separator: "\n").filter { $0.hasPrefix("(") }.map { String($0.prefix(3)) } == ["(c)"])
    }

    @Test(arguments: [["bench", "extra.yaml"], ["bench", "--only", "g"], ["bench", "--messages", "0"],
        ["bench", "--scenario", "missing.yaml"]])
    func usageErrorsExitTwo(_ arguments: [String]) async {
        let result = await CLI.run(arguments)
        #expect(result.status == 2)
        #expect(!result.error.isEmpty)
    }
}
