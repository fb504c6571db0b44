import GroupSim

/// The generated workloads of `groupsim bench --scale`: built in code from a seed, so the
/// same size always gives the same scenario, and no file is read.
extension BenchWorkload {
    /// A generated workload and the work it does, known before it runs.
    package struct Generated {
        package var scenario: Scenario
        /// Messages sent (every step is one send or reply).
        package var sends: Int
        /// Copies delivered: each send reaches every other device of the group (M30).
        package var copies: Int
        /// Distinct sessions the steps name.
        package var sessions: Int
        /// Virtual time from the first step to the last.
        package var span: VirtualDuration
    }

    package static let scaleSeed: UInt64 = 9
    /// The send times of `scaleGroup` are spread over this hour.
    package static let scaleSpan = VirtualDuration.seconds(3_600)

    /// `devices` people with one phone each, all in one conversation; each phone sends
    /// `messagesEach` messages at seeded random times over one hour, message `j` of
    /// phone `i` in session `s<i>-<j % 10>`; latency 50ms, jitter 40ms. Steps at one
    /// instant keep phone order, then message order.
    package static func scaleGroup(devices: Int, messagesEach: Int = 10, seed: UInt64 = scaleSeed) -> Generated {
        let people = (0..<devices).map { Scenario.Person(key: "p\($0)", devices: ["p\($0)-phone"]) }
        let specs = people.map { Scenario.DeviceSpec(name: $0.devices[0], person: $0.key) }
        var generator = SplitMix64(seed: seed)
        var timed: [(time: VirtualTime, device: Int, message: Int)] = []
        timed.reserveCapacity(devices * messagesEach)
        for device in 0..<devices {
            for message in 0..<messagesEach {
                let offset = Int64(generator.next(below: UInt64(scaleSpan.nanoseconds)))
                timed.append((VirtualTime(nanoseconds: offset), device, message))
            }
        }
        timed.sort { ($0.time, $0.device, $0.message) < ($1.time, $1.device, $1.message) }
        var timeline: [Scenario.TimelineItem] = []
        timeline.reserveCapacity(timed.count)
        for entry in timed {
            let compose = Scenario.Compose(session: "s\(entry.device)-\(entry.message % 10)", data: [Scenario.DataEntry("n", String(entry.message))])
            timeline.append(.step(Scenario.Step(number: timeline.count + 1, time: entry.time, device: specs[entry.device].name,
                                       action: .send(compose))))
        }
        let scenario = Scenario(name: "bench-scale-\(devices)", seed: seed, people: people, devices: specs,
                                conversations: [Scenario.ConversationSpec(members: people.map(\.key))],
                                network: Scenario.NetworkSpec(latency: .milliseconds(50), jitter: .milliseconds(40)), timeline: timeline)
        let sends = timed.count
        return Generated(scenario: scenario, sends: sends, copies: sends * max(0, devices - 1),
                         sessions: devices * min(10, messagesEach), span: span(of: timed.map(\.time)))
    }

    /// Sessions the day's replies go to.
    package static let openSessions = 20

    /// A day in a big group: `people` people (32, iMessage's limit) with a phone, an iPad
    /// and a second phone each, all in one conversation; every person sends a message
    /// every `every` on average (seeded uniform times over `length`) from one of their
    /// devices. Half the messages are replies in one of 20 open sessions, opened by the
    /// first 20 people in the first 20 seconds; the others start a session of their own.
    package static func day(people count: Int = 32, devicesEach: Int = 3, length: VirtualDuration = .seconds(86_400),
                    every: VirtualDuration = .seconds(300), seed: UInt64 = scaleSeed) -> Generated {
        let people = (0..<count).map { person in
            Scenario.Person(key: "p\(person)", devices: (0..<devicesEach).map { "p\(person)-d\($0)" })
        }
        let specs = people.flatMap { person in person.devices.map { Scenario.DeviceSpec(name: $0, person: person.key) } }
        var generator = SplitMix64(seed: seed)
        var timeline: [Scenario.TimelineItem] = []
        var times: [VirtualTime] = []
        let opened = min(openSessions, count)
        for session in 0..<opened {
            let time = VirtualTime(nanoseconds: Int64(session) * 1_000_000_000)
            let compose = Scenario.Compose(session: "open-\(session)", data: [Scenario.DataEntry("p\(session)", "0")], caption: "topic \(session)")
            timeline.append(.step(Scenario.Step(number: timeline.count + 1, time: time, device: people[session].devices[0], action: .send(compose))))
            times.append(time)
        }
        // Traffic starts after the sessions are open and every copy of them has arrived.
        let start: Int64 = 60_000_000_000
        let window = UInt64(max(1, length.nanoseconds - start))
        let perPerson = every.nanoseconds > 0 ? Int(length.nanoseconds / every.nanoseconds) : 0
        var planned: [(time: VirtualTime, person: Int, device: Int, reply: Int?, number: Int)] = []
        planned.reserveCapacity(count * perPerson)
        for person in 0..<count {
            for number in 0..<perPerson {
                let time = VirtualTime(nanoseconds: start + Int64(generator.next(below: window)))
                let device = Int(generator.next(below: UInt64(devicesEach)))
                let isReply = opened > 0 && generator.next(below: 2) == 0
                let session = Int(generator.next(below: UInt64(max(1, opened))))
                planned.append((time, person, device, isReply ? session : nil, number))
            }
        }
        planned.sort { ($0.time, $0.person, $0.number) < ($1.time, $1.person, $1.number) }
        var sessions = opened
        for entry in planned {
            let device = people[entry.person].devices[entry.device]
            let data = [Scenario.DataEntry("p\(entry.person)", String(entry.number))]
            let action: Scenario.Action
            if let open = entry.reply {
                action = .reply(Scenario.Compose(session: "open-\(open)", data: data, caption: "reply \(entry.number)", summary: "$me replied"))
            } else {
                action = .send(Scenario.Compose(session: "p\(entry.person)-\(entry.number)", data: data, caption: "message \(entry.number)"))
                sessions += 1
            }
            timeline.append(.step(Scenario.Step(number: timeline.count + 1, time: entry.time, device: device, action: action)))
            times.append(entry.time)
        }
        let scenario = Scenario(name: "bench-day", seed: seed, people: people, devices: specs,
                                conversations: [Scenario.ConversationSpec(members: people.map(\.key))],
                                network: Scenario.NetworkSpec(latency: .milliseconds(50), jitter: .milliseconds(40)), timeline: timeline)
        let sends = timeline.count
        return Generated(scenario: scenario, sends: sends, copies: sends * max(0, specs.count - 1), sessions: sessions,
                         span: span(of: times))
    }

    /// From the earliest time to the latest.
    private static func span(of times: [VirtualTime]) -> VirtualDuration {
        guard let first = times.min(), let last = times.max() else { return .zero }
        return last - first
    }

    /// The explorer `groupsim explore FILE --runs 1 --workers 1` makes for a generated
    /// workload: the scenario is checked here, before any timing, as `explore` checks a
    /// file when it reads it. Throws as `explore` does, for a scenario that is not valid.
    package static func explorer(for scenario: Scenario, apps: AppRegistry) throws(ExplorationError) -> Explorer {
        Explorer(try Explorer(scenario: scenario, apps: apps, workers: 1).validateScenario(), apps: apps, workers: 1)
    }

    /// `exploreOnce`'s report, for the text `groupsim explore` prints from it.
    package static func exploreReport(_ explorer: Explorer) async throws(ExplorationError) -> ExplorationReport {
        try await explorer.explore(runs: 1, seed: explorer.scenario.seed)
    }

    /// Runs a generated workload as `groupsim explore FILE --runs 1 --workers 1` does: one
    /// simulation with the trace off, then its checks, pitfalls and outcome key. Returns
    /// the runs made (1).
    package static func exploreOnce(_ explorer: Explorer) async throws(ExplorationError) -> Int {
        try await exploreReport(explorer).runs.clampedInt
    }
}
