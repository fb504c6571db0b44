import Testing
@testable import GroupSim
@testable import GroupSimSimulation
@testable import GroupSimCore
@testable import GroupSimChecking
import GroupSimTesting

/// By the clock on a network whose every link has one delay, a fan-out's copies wait as one
/// run beside the heap (`CopyRun`) instead of one heap event each. The twin of each scenario
/// below restates the base latency as a `links:` entry, which gives every copy the same
/// arrival but schedules the copies one by one: both must run the same events in the same
/// order, show the same copies in flight between events, and count the same.
@Suite struct FanOutRunTests {
    /// `text` with a `links:` entry under `network:` that restates `latency` for one link.
    static func oneByOne(_ text: String, latency: String, from: String, to: String) -> String {
        text.replacingOccurrences(of: "network:\n", with: "network:\n  links:\n    - { from: \(from), to: \(to), latency: \(latency) }\n")
    }

    /// The run's trace, counters and checks, and what was in flight after every `every`th event.
    static func stepped(_ text: String, every: Int) async throws -> (outcome: RunOutcome, inFlight: [[Simulation.InFlight]]) {
        let simulation = Simulation(scenario: try Fixture.scenario(text))
        var inFlight: [[Simulation.InFlight]] = []
        var events = 0
        while try await simulation.step() {
            events += 1
            if events % every == 0 { inFlight.append(await simulation.pending) }
        }
        return (try await simulation.run(), inFlight)
    }

    static func expectSame(_ text: String, _ twin: String, seed: UInt64, every: Int = 1) async throws {
        let (runs, stepped) = try await Self.stepped(text, every: every)
        let (oneByOne, steppedOneByOne) = try await Self.stepped(twin, every: every)
        #expect(runs.copiesDelivered > 0, "seed \(seed): no copy was delivered")
        #expect(runs.trace.events == oneByOne.trace.events, "seed \(seed): the traces differ")
        #expect(runs.eventCount == oneByOne.eventCount && runs.copiesDelivered == oneByOne.copiesDelivered,
                "seed \(seed): \(runs.eventCount) events and \(runs.copiesDelivered) copies against \(oneByOne.eventCount) and \(oneByOne.copiesDelivered)")
        #expect(RunReport(outcome: runs).checks.map(\.passed) == RunReport(outcome: oneByOne).checks.map(\.passed), "seed \(seed): the checks differ")
        #expect(stepped == steppedOneByOne, "seed \(seed): the copies in flight differ between two events")
        // A run that is not stepped takes the same events.
        let whole = try await Simulation(scenario: try Fixture.scenario(text)).run()
        #expect(whole.trace.events == runs.trace.events, "seed \(seed): stepping changed the run")
    }

    /// The generated races of the factoring oracle (offline devices whose held copies come
    /// back, races inside a window, reinstalls, the cloud modes) whose network has no jitter.
    @Test func generatedRacesRunAsWithOneEventPerCopy() async throws {
        var compared = 0
        for seed in UInt64(1)...120 {
            let text = FactoringOracle.generate(seed: seed)
            guard text.contains("  jitter: 0ms\n"),
                  let latency = text.split(separator: "\n").first(where: { $0.hasPrefix("  latency: ") })?.dropFirst(11)
            else { continue }
            try await Self.expectSame(text, Self.oneByOne(text, latency: String(latency), from: "p0", to: "p1"), seed: seed)
            compared += 1
        }
        #expect(compared >= 20, "only \(compared) generated races had no jitter")
    }

    /// `people` people with a phone, a tablet and a laptop each, on a network with one
    /// delay (20ms): sends at the instants copies arrive (each send's copies then wait
    /// behind the ones due at that instant), several sends at one instant, a device offline
    /// across some arrivals, and a reinstall.
    static func group(seed: UInt64, people: Int, replies: Int) -> String {
        var random = SplitMix64(seed: seed)
        func pick(_ n: Int) -> Int { Int(random.next(below: UInt64(n))) }
        var lines = ["name: fan-out-\(seed)", "seed: \(seed)", "people:"]
        for person in 0..<people { lines.append("  p\(person): [p\(person)-phone, p\(person)-ipad, p\(person)-mac]") }
        lines += ["network:", "  latency: 20ms", "steps:",
                  "  - at: 0ms", "    device: p0-phone", "    send: { session: poll, data: { q: lunch } }"]
        let offline = "p\(1 + pick(people - 1))-ipad"
        lines += ["  - at: \(10 * pick(4))ms", "    device: \(offline)", "    offline: true",
                  "  - at: \(60 + 10 * pick(4))ms", "    device: \(offline)", "    online: true"]
        for _ in 0..<replies {
            let person = pick(people), device = ["phone", "ipad", "mac"][pick(3)]
            let at = 20 * (1 + pick(5)) + (pick(3) == 0 ? 1 : 0)
            lines += ["  - at: \(at)ms", "    device: p\(person)-\(device)",
                      "    reply: { session: poll, data: { p\(person): \(["yes", "no"][pick(2)]) } }"]
        }
        lines += ["  - at: 40ms", "    device: p\(pick(people))-mac", "    reinstall: true",
                  "expect:", "  - converged: poll"]
        return lines.joined(separator: "\n") + "\n"
    }

    /// 32 people with three devices each (`group`).
    @Test func aNinetySixDeviceGroupRunsAsWithOneEventPerCopy() async throws {
        for seed in UInt64(1)...2 {
            let text = Self.group(seed: seed, people: 32, replies: 24)
            try await Self.expectSame(text, Self.oneByOne(text, latency: "20ms", from: "p0", to: "p1"), seed: seed, every: 13)
        }
    }

    /// A run stopped by the event limit inside a run of copies stops where one event per
    /// copy stops: the same events run, the same count, and the same copies left in flight
    /// (with their sequence numbers), for every limit from the first event to past the last.
    @Test func aRunStoppedAtTheEventLimitStopsAsWithOneEventPerCopy() throws {
        func stopped(_ text: String, limit: Int) throws -> (trace: [Simulation.Trace.Event], count: Int, quiet: Bool, left: [String]) {
            let scenario = try Fixture.scenario(text)
            var engine = Engine(tables: ScenarioTables(scenario: scenario), seed: scenario.seed, controller: nil, keepsTrace: true)
            engine.eventLimit = limit
            engine.start(app: AppRegistry().factory(for: scenario.app))
            engine.runToEnd()
            let outcome = engine.outcome()
            let left = engine.scheduler.queued.map { entry in
                switch entry.payload {
                case .deliver(let copy, let receiver): "\(entry.time) #\(entry.sequence) m\(copy.envelope.id) to \(receiver)"
                default: "\(entry.time) #\(entry.sequence) other"
                }
            }
            return (outcome.trace.events, outcome.eventCount, outcome.quiet, left)
        }
        for seed in UInt64(1)...2 {
            let text = Self.group(seed: seed, people: 3, replies: 5)
            let twin = Self.oneByOne(text, latency: "20ms", from: "p0", to: "p1")
            let whole = try stopped(text, limit: Simulation.eventLimit)
            #expect(whole.quiet && whole.left.isEmpty && whole.count > 40, "seed \(seed): \(whole.count) events")
            for limit in 1...(whole.count + 1) {
                let runs = try stopped(text, limit: limit), oneByOne = try stopped(twin, limit: limit)
                #expect(runs.count == oneByOne.count && runs.quiet == oneByOne.quiet && runs.quiet == (limit >= whole.count),
                        "seed \(seed), limit \(limit): \(runs.count) events, quiet \(runs.quiet), against \(oneByOne.count), \(oneByOne.quiet)")
                #expect(runs.trace == oneByOne.trace, "seed \(seed), limit \(limit): the traces differ")
                #expect(runs.left == oneByOne.left, "seed \(seed), limit \(limit): \(runs.left.count) left in flight against \(oneByOne.left.count)")
            }
        }
    }
}
