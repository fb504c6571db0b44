import Foundation
import GroupSim
import GroupSimBench

/// `groupsim bench --scale`: the generated groups and the day in a big group.
extension BenchCommand {
    /// The sizes `--scale` times: groups of this many devices, then the day.
    struct ScaleSize {
        var groups: [Int]
        var dayPeople: Int
        var dayLength: VirtualDuration

        static let full = ScaleSize(groups: [10, 100, 300, 1_000], dayPeople: 32, dayLength: .seconds(86_400))
        static let quick = ScaleSize(groups: [3, 10], dayPeople: 32, dayLength: .seconds(3_600))
    }

    func scale(_ parsed: Arguments) async throws -> CommandResult {
        let quick = parsed.flag(Self.quick)
        let size = quick ? ScaleSize.quick : ScaleSize.full
        let thresholds = Self.thresholds()
        let only = try parsed.word(Self.only, in: size.groups.map(String.init) + ["day", "vote"])
        var lines: [String] = []
        #if DEBUG
        lines.append("groupsim bench --scale: debug build; the targets are for a release build "
                     + "(swift run -c release groupsim bench --scale)")
        #else
        lines.append("groupsim bench --scale: release build, one core, each workload run once as explore --runs 1 --workers 1 runs it")
        #endif
        lines.append(Self.machineNote(thresholds))
        var nanosecondsPerCopy: [Int: Double] = [:]
        for devices in size.groups where only == nil || only == String(devices) {
            let workload = BenchWorkload.scaleGroup(devices: devices)
            let explorer = try BenchWorkload.explorer(for: workload.scenario, apps: apps)
            let memory = MemoryMark()
            let measured = try await BenchMeasurement.measure(repeats: 1) { () async throws(ExplorationError) -> Int in
                try await BenchWorkload.exploreOnce(explorer)
            }
            let perCopy = workload.copies > 0 ? measured.seconds * 1e9 / Double(workload.copies) : 0
            let cpuPerCopy = workload.copies > 0 ? measured.cpuSeconds * 1e9 / Double(workload.copies) : 0
            nanosecondsPerCopy[devices] = perCopy
            lines.append("scale \(devices) devices: \(Self.count(Double(workload.copies))) copies, "
                         + "\(Self.count(Double(workload.sessions))) sessions"
                         + " in \(Self.seconds(measured.seconds)) = \(Self.count(perCopy)) ns/copy; \(memory.text(copies: workload.copies))"
                         + "; on CPU time \(Self.seconds(measured.cpuSeconds)) = \(Self.count(cpuPerCopy)) ns/copy"
                         + Self.targets([("scale-\(devices)-seconds", measured.seconds),
                                         ("scale-\(devices)-memory", Double(memory.growth) / 1_048_576)], in: thresholds))
            lines.append(try await endToEndLine(workload, explorer: explorer, thresholds: thresholds))
        }
        if let smallest = size.groups.first, let largest = size.groups.last, smallest != largest,
           let small = nanosecondsPerCopy[smallest], let large = nanosecondsPerCopy[largest], small > 0 {
            lines.append("scale ns/copy at \(largest) devices over \(smallest) devices: "
                         + thresholds.text("scale-ns-per-copy-largest-over-smallest", large / small, digits: 2))
        }
        if only == nil || only == "day" {
            let workload = BenchWorkload.day(people: size.dayPeople, length: size.dayLength)
            let explorer = try BenchWorkload.explorer(for: workload.scenario, apps: apps)
            let memory = MemoryMark()
            let measured = try await BenchMeasurement.measure(repeats: 1) { () async throws(ExplorationError) -> Int in
                try await BenchWorkload.exploreOnce(explorer)
            }
            let simulated = Double(workload.span.nanoseconds) / 1e9
            let speed = measured.seconds > 0 ? simulated / measured.seconds : 0
            let cpuSpeed = measured.cpuSeconds > 0 ? simulated / measured.cpuSeconds : 0
            lines.append("day: \(size.dayPeople) people x 3 devices, \(Self.count(Double(workload.sends))) messages, "
                         + "\(Self.count(Double(workload.copies))) copies,"
                         + " \(Self.count(Double(workload.sessions))) sessions: \(Self.count(simulated)) s simulated"
                         + " in \(Self.seconds(measured.seconds))"
                         + " = \(Self.count(speed))x real time (\(thresholds.verdict("day-speed", speed) ?? "no target")); \(memory.text(copies: workload.copies))"
                         + "; on CPU time \(Self.seconds(measured.cpuSeconds)) = \(Self.count(cpuSpeed))x")
        }
        if only == nil || only == "vote" { lines += try await voteLines(quick: quick, thresholds: thresholds) }
        return CommandResult(.success, output: lines.joined(separator: "\n") + "\n")
    }

    /// `explore FILE --runs 1 --workers 1` end to end (the run, its analysis and tally, the
    /// text report) over the simulation of that run alone, on CPU time: what a user's
    /// command costs beyond simulating, whatever the machine.
    func endToEndLine(_ workload: BenchWorkload.Generated, explorer: Explorer, thresholds: BenchThresholds) async throws -> String {
        let devices = workload.scenario.devices.count
        let checked = try explorer.validateScenario()
        let simulation = await BenchMeasurement.measure(repeats: 1) { await BenchWorkload.deliverCopies(checked) }
        let endToEnd = try await BenchMeasurement.measure(repeats: 1) { () async throws(ExplorationError) -> Int in
            let report = try await BenchWorkload.exploreReport(explorer)
            _ = ExploreCommand.sameOutcomeWarning(report, scenario: workload.scenario)
            return ExplorationTextReport.render(ExploreCommand.replayableHere(report)).utf8.count
        }
        return "scale \(devices) devices: explore end to end (runs, tally, text report) \(Self.seconds(endToEnd.cpuSeconds))"
            + " over the simulation alone \(Self.seconds(simulation.cpuSeconds)) on CPU time: "
            + thresholds.text("explore-over-simulation-\(devices)", Self.ratio(endToEnd.cpuSeconds, simulation.cpuSeconds), digits: 2)
    }

    /// `; target <= 1 s: met; target <= 150 MB: met`: the targets the file gives of these
    /// figures, in order; empty when it gives none.
    static func targets(_ figures: [(id: String, value: Double)], in thresholds: BenchThresholds) -> String {
        figures.compactMap { thresholds.verdict($0.id, $0.value) }.map { "; \($0)" }.joined()
    }
}
