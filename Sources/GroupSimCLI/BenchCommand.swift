import Foundation
import GroupSim
import GroupSimBench
import GroupSimMessages
import GroupSimScenarios

/// `groupsim bench [--quick] [--scenario PATH] [--only a|b|c|e|f] [--messages N] [--scale]`:
/// measures the simulation on this machine and prints its figures (docs/scale-out.md).
///
/// (a) message copies delivered per second in a group of 32 devices where each sends
/// 1,000 session messages; (b) runs per second of a scenario file (simulation, checks
/// and pitfalls as exploration runs them, a fresh seed per run, one after another on
/// one core); (c) the bare event
/// loop: the same schedule of events on an `EventQueue` with no devices, each copy an
/// event of its own; (d) the ratio
/// of (a) to (c); (e) runs per second of the same scenario with a custom app written in
/// Swift (`BenchPollApp`) in place of the built-in app; (f) the same with a registered
/// `MSMessagesAppViewController` subclass, and the ratio of (b) to (f). `--scale` times
/// generated groups of 10 to 1,000 devices and a day in a 32-person group instead.
/// Wall-clock timing lives in GroupSimBench, never in the simulation library
/// (determinism rule 1, README). Benchmarks measure and print; nothing here fails on a
/// slow machine.
struct BenchCommand: Subcommand {
    static let name = "bench"
    static let summary = "measure copies delivered, runs and bare events per second on this machine"

    static let operands = ""

    static let quick = Option.flag("quick", """
        a small size, for tests: 4 devices x 20 messages, 20 runs; with --scale, groups of 3 and 10 devices and a
        32-person hour
        """)
    static let scale = Option.flag("scale", "the generated groups and the day instead of (a) to (f)")
    static let scenario = Option.text("scenario", "PATH", default: "pickles-race.yaml, which ships with groupsim",
                                      "the scenario (b), (e) and (f) run")
    static let only = Option.text("only", "FIGURE", """
        measure one figure only (for profiling): a, b, c, e or f; with --scale, 10, 100, 300, 1000, day or vote
        """)
    static let messages = Option.integer("messages", in: 1...1_000_000, default: "1,000", "messages each device sends in (a) and (c)")
    static let options = [quick, scale, scenario, only, messages, ScenarioInput.maxCopies.explained("""
        the memory budget --scenario is checked against first (exit 2 with the estimate when over it)
        """)]

    static let about = """
    Measures, on one core:
      (a) message copies delivered per second: 32 devices, each sending 1,000 session
          messages (992,000 copies), traced off
      (b) runs per second of a scenario (default: pickles-race.yaml, which ships with
          groupsim, so bench works from any folder): one simulation per seed, seeds 1
          to 5,000, as exploration runs them (traced off, one engine restarted for
          each run), and its checks and pitfalls
      (c) events per second of the bare event loop: the schedule of (a) on the event
          queue alone, no devices, each copy an event of its own
      (d) the ratio (a)/(c), on CPU time
      (b) events over (c): the events (b)'s runs ran per second of CPU time, over (c)
      (e) custom MessagesApp: runs per second of the scenario of (b) with a custom
          app written in Swift against the MessagesApp protocol (a poll keeping its
          state in the URL) in place of the built-in app, and its ratio to (b)
      (f) custom controller: runs per second of the same scenario with the app
          replaced by a registered MSMessagesAppViewController subclass that keeps the
          state in the URL as the built-in app does, and the ratio (b)/(f): how much
          slower a developer's own controller runs than the built-in app, and (f)
          over (b)
    Each of (a), (b), (c) and (e) is the fastest of three repeats. Every figure is
    also given on the process's CPU time, which other programs on a busy machine do
    not inflate as they do the wall clock. The absolute figures hold only for the
    machine that printed them; the ratios travel, and each is printed beside its
    target from Benchmarks/Thresholds.json (shipped with the tool), for a release
    build (`swift run -c release groupsim bench`). scripts/bench-simpy.py in the
    source checkout prints (a) over the same workload run with SimPy.

    With --scale, times generated groups as `groupsim explore FILE --runs 1 --workers 1`
    runs them (simulation with the trace off, checks, pitfalls, outcome key), once each:
      10, 100, 300 and 1,000 people with one phone each, every phone sending 10 messages at
      seeded random times over an hour, message j of phone i in session s<i>-<j % 10>
      (10 sessions per phone), latency 50ms, jitter 40ms: copies delivered, wall time,
      nanoseconds per copy and the workload's peak memory: on Linux its peak resident
      size above what the process held when it started (free heap pages handed back
      first), also per copy; elsewhere the process's peak so far, groups running
      smallest first
      a day in a 32-person group, 3 devices each: every person sends a message every 5
      minutes on average, half of them replies in one of 20 open sessions; simulated
      time over wall time
      each group again as `explore` end to end (the run, its tally and the text
      report) over the simulation of that run alone, on CPU time
      a vote in a full group, 32 people x 3 devices: one person asks, 5 others reply
      within 5 ms; checks on the asker's phone and `converged`: the time of
      `explore --exhaustive` (every order, factored) and random exploration's runs
      per second (2,000 runs), then the same random runs with a registered
      MSMessagesAppViewController subclass written as an App Store extension is
      (an async store, UserDefaults) in place of the built-in app, over the built-in
      app's rate
    Targets: each figure's, from Benchmarks/Thresholds.json ("limits"), printed beside
    it with whether it is met: the groups' time and peak memory, nanoseconds per copy
    at the largest group over the smallest, the day's speed, and the vote's times and
    runs per second.
    """

    static let epilogue = "Exit status: 0 measured; 2 usage error, invalid scenario, or a scenario over the budget."

    /// The scenario (b) runs without --scenario, inside the shipped `Scenarios/` folder.
    static let shippedScenario = "pickles-race.yaml"

    let apps: AppRegistry

    func execute(_ arguments: [String]) async throws -> CommandResult {
        let parsed = try Self.parse(arguments)
        guard parsed.positional.isEmpty else {
            throw UsageError("bench takes no files, found \"\(parsed.positional[0])\"", hint: Self.usage)
        }
        if parsed.flag(Self.scale) { return try await scale(parsed) }
        var size = parsed.flag(Self.quick) ? Size.quick : Size.full
        if let messages = try parsed.integer(Self.messages, as: Int.self) { size.messages = messages }
        let only = try parsed.word(Self.only, in: ["a", "b", "c", "e", "f"])
        let scenario: ValidatedScenario
        let path: String
        if let given = parsed.value(Self.scenario) {
            path = given
            scenario = try ScenarioInput.load(given, limits: .default, budget: try ScenarioInput.budget(parsed), apps: apps)
        } else {
            path = Self.shippedScenario
            guard let shipped = BundledScenarios.path(Self.shippedScenario) else {
                throw UsageError("cannot find the scenario \(Self.shippedScenario) that ships with groupsim "
                                 + "(\(BundledScenarios.bundleDescription))",
                                 hint: "Keep the resource bundle next to the groupsim executable, or pass --scenario PATH.")
            }
            scenario = try ScenarioSource.load(shipped, apps: apps)
        }

        let thresholds = Self.thresholds()
        var lines: [String] = []
        #if DEBUG
        lines.append("groupsim bench: debug build; the targets are for a release build (swift run -c release groupsim bench)")
        #else
        lines.append("groupsim bench: release build, one core")
        #endif
        lines.append(Self.machineNote(thresholds))
        var copies: BenchMeasurement?
        var events: BenchMeasurement?
        var builtIn: BenchMeasurement?
        var builtInEvents = 0
        if only == nil || only == "a" {
            let group = try ValidatedScenario(BenchWorkload.group(devices: size.devices, messagesEach: size.messages))
            let measured = await BenchMeasurement.measure(repeats: size.repeats) { await BenchWorkload.deliverCopies(group, seed: 1) }
            lines.append("(a) copies delivered: \(Self.count(measured.work)) in \(Self.seconds(measured.seconds))"
                         + " = \(Self.count(measured.rate)) copies/s"
                         + " (\(size.devices) devices x \(Self.count(Double(size.messages))) session messages each)"
                         + Self.onCPU(measured, "copies/s"))
            copies = measured
        }
        if only == nil || only == "b" {
            let measured = await BenchMeasurement.measure(repeats: size.repeats) {
                let done = await BenchWorkload.runSeeds(scenario, count: size.runs, apps: apps)
                builtInEvents = done.events
                return done.runs
            }
            lines.append("(b) runs of \(path): \(Self.count(measured.work)) in \(Self.seconds(measured.seconds))"
                         + " = \(Self.count(measured.rate)) runs/s"
                         + " (seeds 1 to \(Self.count(Double(size.runs))): simulation, checks and pitfalls, trace off)"
                         + Self.onCPU(measured, "runs/s"))
            builtIn = measured
        }
        if only == nil || only == "c" {
            let measured = await BenchMeasurement.measure(repeats: size.repeats) {
                BenchWorkload.bareEventLoop(devices: size.devices, messagesEach: size.messages)
            }
            lines.append("(c) bare event loop: \(Self.count(measured.work)) events in \(Self.seconds(measured.seconds))"
                         + " = \(Self.count(measured.rate)) events/s"
                         + " (the schedule of (a) on the event queue alone)" + Self.onCPU(measured, "events/s"))
            events = measured
        }
        if let copies, let events {
            lines.append("(d) ratio (a)/(c): \(thresholds.text("d", Self.ratio(copies.cpuRate, events.cpuRate))) on CPU time; "
                         + "on the wall clock \(String(format: "%.3f", Self.ratio(copies.rate, events.rate)))")
        }
        if let builtIn, let events {
            // (b)'s runs as events: what one event costs inside a whole run (steps, copies,
            // the app, the checks and pitfalls at its end) against the bare queue's.
            let perSecond = builtIn.cpuSeconds > 0 ? Double(builtInEvents) / builtIn.cpuSeconds : 0
            lines.append("(b) events over (c): \(Self.count(Double(builtInEvents))) events in (b)'s runs"
                         + " = \(Self.count(perSecond)) events/s on CPU time; over (c): "
                         + thresholds.text("b-events-over-c", Self.ratio(perSecond, events.cpuRate)))
        }
        if only == nil || only == "e" {
            var poll = scenario.scenario
            poll.app.name = BenchPollApp.name
            var registry = apps
            registry.register(BenchPollApp.name) { _ in BenchPollApp() }
            let custom = try ValidatedScenario(poll, registeredApps: registry.names)
            let measured = await BenchMeasurement.measure(repeats: size.repeats) { await BenchWorkload.runSeeds(custom, count: size.runs, apps: registry).runs }
            var line = "(e) custom MessagesApp: runs of \(path) with \(BenchPollApp.name): \(Self.count(measured.work))"
                + " in \(Self.seconds(measured.seconds))"
                + " = \(Self.count(measured.rate)) runs/s"
            if let builtIn {
                line += ", \(thresholds.text("e-over-b", Self.ratio(measured.cpuRate, builtIn.cpuRate))) of (b) on CPU time"
            }
            line += Self.onCPU(measured, "runs/s")
            lines.append(line)
        }
        if only == nil || only == "f" {
            var controlled = scenario.scenario
            controlled.app.name = URLPollController.name
            var registered = apps
            registered.register(URLPollController.name) { URLPollController() }
            let custom = try ValidatedScenario(controlled, registeredApps: registered.names)
            let measured = await BenchMeasurement.measure(repeats: size.repeats) {
                await BenchWorkload.runSeeds(custom, count: size.runs, apps: registered).runs
            }
            var line = "(f) custom controller runs/s: \(Self.count(measured.work)) runs in \(Self.seconds(measured.seconds))"
                + " = \(Self.count(measured.rate)) runs/s"
                + " (\(path) with an MSMessagesAppViewController subclass keeping the state in the URL)"
            if let builtIn, measured.rate > 0 {
                line += "; ratio (b)/(f): \(String(format: "%.2f", builtIn.rate / measured.rate));"
                    + " (f) over (b) on CPU time: \(thresholds.text("f-over-b", Self.ratio(measured.cpuRate, builtIn.cpuRate)))"
            }
            line += Self.onCPU(measured, "runs/s")
            lines.append(line)
        }
        return CommandResult(.success, output: lines.joined(separator: "\n") + "\n")
    }

    // MARK: - Sizes and measuring

    struct Size {
        var devices: Int
        var messages: Int
        var runs: Int
        /// Each figure is measured this many times and the fastest counts: other work on
        /// the machine only ever slows a repeat down.
        var repeats: Int

        static let full = Size(devices: 32, messages: 1_000, runs: 5_000, repeats: 3)
        static let quick = Size(devices: 4, messages: 20, runs: 20, repeats: 1)
    }

    /// `; on CPU time 0.812 s = 1,221,675 copies/s`.
    static func onCPU(_ measured: BenchMeasurement, _ unit: String) -> String {
        "; on CPU time \(seconds(measured.cpuSeconds)) = \(count(measured.cpuRate)) \(unit)"
    }

    /// `992,000`: a whole number with thousands separators.
    static func count(_ value: Double) -> String { Int(value.rounded()).grouped }

    static func seconds(_ value: Double) -> String {
        String(format: "%.3f s", value)
    }
}
