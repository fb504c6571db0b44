import GroupSim

/// The work `groupsim bench` times: each function does a fixed amount of work and returns
/// how much, so the command can divide by the time it took.
package enum BenchWorkload {
    /// Every device sends its next message this often; devices are spread evenly inside.
    package static let round = VirtualDuration.milliseconds(10)
    package static let latency = VirtualDuration.milliseconds(50)

    /// A group of `devices` people with one phone each, all in one conversation; device
    /// `i` sends `messagesEach` messages in its own session `s<i>`, one per round, each
    /// carrying one data entry. Every send after the first collapses the session's
    /// previous bubble on every device (M10).
    package static func group(devices: Int, messagesEach: Int) -> Scenario {
        let people = (0..<devices).map { Scenario.Person(key: "p\($0)", devices: ["p\($0)-phone"]) }
        let specs = people.map { Scenario.DeviceSpec(name: $0.devices[0], person: $0.key) }
        var timeline: [Scenario.TimelineItem] = []
        timeline.reserveCapacity(devices * messagesEach)
        for message in 0..<messagesEach {
            for device in 0..<devices {
                let time = VirtualTime(nanoseconds: Int64(message) * round.nanoseconds + Int64(device) * round.nanoseconds / Int64(devices))
                let compose = Scenario.Compose(session: "s\(device)", data: [Scenario.DataEntry("n", String(message))])
                timeline.append(.step(Scenario.Step(number: timeline.count + 1, time: time, device: specs[device].name, action: .send(compose))))
            }
        }
        return Scenario(name: "bench-group", people: people, devices: specs,
                        conversations: [Scenario.ConversationSpec(members: people.map(\.key))],
                        network: Scenario.NetworkSpec(latency: latency), timeline: timeline)
    }

    /// (a) Runs the group once with `seed` (nil: the scenario's), trace off; returns the
    /// copies delivered. Also the simulation alone of a `--scale` workload, without the
    /// checks, pitfalls and tally that `exploreOnce` adds.
    package static func deliverCopies(_ scenario: ValidatedScenario, seed: UInt64? = nil) async -> Int {
        // The caller validates the scenario once, outside the measurement.
        (try? await Simulation(scenario, seed: seed, recordTrace: false).run().copiesDelivered) ?? 0
    }

    /// What (b) did: the runs made and the events they ran between them.
    package struct SeedRuns: Sendable {
        package var runs = 0
        package var events = 0
    }

    /// (b) Runs the scenario and its checks with seeds 1 to `count`, one after another, as
    /// exploration runs each schedule: trace off, then the checks and pitfalls.
    package static func runSeeds(_ scenario: ValidatedScenario, count: Int, apps: AppRegistry) async -> SeedRuns {
        // The caller validates the scenario once, outside the measurement; the runs share
        // its tables, one executor and one engine, as exploration's do.
        await Simulation(scenario, apps: apps, recordTrace: false).withIsolation { loop in
            var done = SeedRuns()
            for seed in 1...max(1, count) {
                let outcome = loop.simulate(seed: UInt64(seed)).outcome
                done.events += outcome.eventCount
                let report = RunReport(outcome: outcome, explainingPitfalls: false)
                if report.checks.count == scenario.checks.count { done.runs += 1 }
            }
            return done
        }
    }

    /// (c) The schedule of `group(devices:messagesEach:)` on the event queue alone
    /// (`EventQueue.bareLoop`, which runs where the queue is specialised as the
    /// simulation's own is). Returns the events popped.
    package static func bareEventLoop(devices: Int, messagesEach: Int) -> Int {
        EventQueue<Int>.bareLoop(devices: devices, messagesEach: messagesEach, round: round, latency: latency)
    }
}
