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
            let measured = try await measure(repeats: 1) { () async throws(ExplorationError) -> Int in
                try await BenchWorkload.exploreOnce(explorer)
            }
            let perCopy = workload.copies > 0 ? measured.seconds * 1e9 / Double(workload.copies) : 0
            let cpuPerCopy = workload.copies > 0 ? measured.cpuSeconds * 1e9 / Double(workload.copies) : 0
            nanosecondsPerCopy[devices] = perCopy
            lines.append("scale \(devices) devices: \(Self.count(Double(workload.copies))) copies, "
                         + "\(Self.count(Double(workload.sessions))) sessions"
                         + " in \(Self.seconds(measured.seconds)) = \(Self.count(perCopy)) ns/copy; \(memory.text(copies: workload.copies))"
                         + "; on CPU time \(Self.seconds(measured.cpuSeconds)) = \(Self.count(cpuPerCopy)) ns/copy"
                         + (Self.scaleTargets[devices].map { "; target \($0)" } ?? ""))
            lines.append(try await endToEndLine(workload, explorer: explorer, thresholds: thresholds))
        }
        if let smallest = size.groups.first, let largest = size.groups.last, smallest != largest,
           let small = nanosecondsPerCopy[smallest], let large = nanosecondsPerCopy[largest], small > 0 {
            lines.append("scale ns/copy at \(largest) devices over \(smallest) devices: "
                         + "\(String(format: "%.2f", large / small)) (target <= 2.00)")
        }
        if only == nil || only == "day" {
            let workload = BenchWorkload.day(people: size.dayPeople, length: size.dayLength)
            let explorer = try BenchWorkload.explorer(for: workload.scenario, apps: apps)
            let memory = MemoryMark()
            let measured = try await measure(repeats: 1) { () async throws(ExplorationError) -> Int in
                try await BenchWorkload.exploreOnce(explorer)
            }
            let simulated = Double(workload.span.nanoseconds) / 1e9
            let speed = measured.seconds > 0 ? simulated / measured.seconds : 0
            let cpuSpeed = measured.cpuSeconds > 0 ? simulated / measured.cpuSeconds : 0
            lines.append("day: \(size.dayPeople) people x 3 devices, \(Self.count(Double(workload.sends))) messages, "
                         + "\(Self.count(Double(workload.copies))) copies,"
                         + " \(Self.count(Double(workload.sessions))) sessions: \(Self.count(simulated)) s simulated"
                         + " in \(Self.seconds(measured.seconds))"
                         + " = \(Self.count(speed))x real time (target >= 100,000); \(memory.text(copies: workload.copies))"
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
        let simulation = await measure(repeats: 1) { await BenchWorkload.deliverCopies(checked) }
        let endToEnd = try await measure(repeats: 1) { () async throws(ExplorationError) -> Int in
            let report = try await BenchWorkload.exploreReport(explorer)
            _ = ExploreCommand.sameOutcomeWarning(report, scenario: workload.scenario)
            return ExplorationTextReport.render(ExploreCommand.replayableHere(report)).utf8.count
        }
        return "scale \(devices) devices: explore end to end (runs, tally, text report) \(Self.seconds(endToEnd.cpuSeconds))"
            + " over the simulation alone \(Self.seconds(simulation.cpuSeconds)) on CPU time: "
            + thresholds.text("explore-over-simulation-\(devices)", Self.ratio(endToEnd.cpuSeconds, simulation.cpuSeconds), digits: 2)
    }

    /// The targets of the groups that have one (time, then peak memory).
    static let scaleTargets: [Int: String] = [100: "<= 0.5 s", 300: "<= 1 s, <= 150 MB", 1_000: "<= 15 s, <= 2 GiB"]

    /// A workload's memory: what the process held when it started, and the peak above that.
    ///
    /// Memory an earlier workload freed may stay resident (malloc keeps it for later), so
    /// on Linux the mark first hands free heap pages back to the system (`malloc_trim`),
    /// then reads the resident size and starts the peak again from it: the figure is the
    /// workload's own growth, not the largest workload's peak run before it.
    struct MemoryMark {
        /// Resident bytes when the workload started; 0 when not known.
        let start: Int
        /// Whether the peak was started again here (else it is the process's so far).
        let fresh: Bool

        init() {
            BenchCommand.returnFreeMemory()
            start = BenchCommand.residentMemory()
            fresh = BenchCommand.resetPeakMemory()
        }

        /// The peak above the start, in bytes (the process's peak where it cannot be reset).
        var growth: Int {
            let peak = BenchCommand.peakMemory()
            return fresh && start > 0 ? max(0, peak - start) : peak
        }

        /// `peak memory 120 MB above the 14 MB held before (133 bytes/copy)`.
        func text(copies: Int) -> String {
            let grown = growth
            let perCopy = copies > 0 && grown > 0 ? " = \(BenchCommand.count(Double(grown) / Double(copies))) bytes/copy" : ""
            guard fresh, start > 0 else { return "peak memory \(BenchCommand.memory(grown)) (the process's so far)\(perCopy)" }
            return "peak memory \(BenchCommand.memory(grown)) above the \(BenchCommand.memory(start)) held before\(perCopy)"
        }
    }

    /// Hands the heap's free pages back to the system where the C library can (glibc's
    /// `malloc_trim`, looked up at run time: Swift's Glibc module does not declare it).
    static func returnFreeMemory() {
        #if os(Linux)
        typealias Trim = @convention(c) (Int) -> Int32
        guard let symbol = dlsym(nil, "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: Trim.self)(0)
        #endif
    }

    /// The process's resident memory now, in bytes (`VmRSS`); 0 where it is not known.
    static func residentMemory() -> Int { statusKilobytes("VmRSS:").map { $0 * 1_024 } ?? 0 }

    /// A `kB` figure of /proc/self/status (Linux), or nil.
    private static func statusKilobytes(_ field: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field) }) else { return nil }
        return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
    }

    /// Starts the process's peak resident memory again from what it holds now (Linux:
    /// `5` to /proc/self/clear_refs), so that each workload reports its own peak and not
    /// that of a larger one run before. False where the system cannot (the peak is then
    /// the process's so far).
    static func resetPeakMemory() -> Bool {
        #if os(Linux)
        guard let file = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? file.close() }
        do {
            try file.write(contentsOf: Data("5".utf8))
            return true
        } catch {
            return false
        }
        #else
        return false
        #endif
    }

    /// The process's peak resident memory so far, in bytes: `VmHWM` in /proc/self/status,
    /// else getrusage's `ru_maxrss`; 0 when neither is available.
    static func peakMemory() -> Int {
        if let kilobytes = statusKilobytes("VmHWM:") { return kilobytes * 1_024 }
        var usage = rusage()
        #if os(Linux)
        guard getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage) == 0 else { return 0 }
        return Int(usage.ru_maxrss) * 1_024
        #else
        guard getrusage(RUSAGE_SELF, &usage) == 0 else { return 0 }
        return Int(usage.ru_maxrss)
        #endif
    }

    /// `42 MB`, in units of 2^20 bytes; `unknown` for 0.
    static func memory(_ bytes: Int) -> String {
        bytes > 0 ? "\(count(Double(bytes) / 1_048_576)) MB" : "unknown"
    }
}
