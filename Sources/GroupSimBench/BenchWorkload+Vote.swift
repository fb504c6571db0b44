import GroupSim

/// The vote in a full group that `groupsim bench --scale` explores both ways: every
/// order exhaustively (factored), and random runs per second.
extension BenchWorkload {
    /// `people` people with `devicesEach` devices each in one conversation (32 × 3 is a
    /// full iMessage group); the first person's first device asks at 0 ms, and `votes`
    /// people (the next ones, from their first device) reply in a race within `within`
    /// at 500 ms. Latency 50 ms, jitter 20 ms: every reply is in flight at once. Checks:
    /// what the asker's device shows (one device), and `converged` (every device).
    package static func groupVote(people count: Int = 32, devicesEach: Int = 3, votes: Int = 5,
                          within: VirtualDuration = .milliseconds(5), seed: UInt64 = scaleSeed) -> Scenario {
        let people = (0..<count).map { person in
            Scenario.Person(key: "p\(person)", devices: (0..<max(1, devicesEach)).map { "p\(person)-d\($0)" })
        }
        let specs = people.flatMap { person in person.devices.map { Scenario.DeviceSpec(name: $0, person: person.key) } }
        let ask = Scenario.Step(number: 1, time: .zero, device: people[0].devices[0],
                       action: .send(Scenario.Compose(session: "vote", data: [Scenario.DataEntry("q", "lunch")], caption: "Lunch?")))
        let voters = (1..<max(1, count)).prefix(votes)
        let replies = voters.enumerated().map { index, person in
            Scenario.Step(number: index + 2, time: VirtualTime(nanoseconds: 500_000_000), device: people[person].devices[0],
                 action: .reply(Scenario.Compose(session: "vote", data: [Scenario.DataEntry("p\(person)", "yes")], summary: "$me voted")))
        }
        var checks: [Scenario.CheckSpec] = [Scenario.CheckSpec(.converged(session: "vote"))]
        if let first = voters.first {
            let latest = Scenario.Check.latest(device: people[0].devices[0], session: "vote", from: "p\(first)", data: [], caption: nil)
            checks.insert(Scenario.CheckSpec(latest), at: 0)
        }
        return Scenario(name: "bench-vote-\(count)x\(devicesEach)", seed: seed, people: people, devices: specs,
                        conversations: [Scenario.ConversationSpec(members: people.map(\.key))],
                        network: Scenario.NetworkSpec(latency: .milliseconds(50), jitter: .milliseconds(20)),
                        timeline: [.step(ask), .race(Scenario.Race(time: VirtualTime(nanoseconds: 500_000_000), within: within, steps: replies))],
                        checks: checks)
    }
}
