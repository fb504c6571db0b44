import GroupSimCore
import GroupSimScenario

/// The scenario's steps as the scheduler plans them, worked out once per scenario
/// (`ScenarioTables.steps`) instead of once per run: each step's event (with its
/// conversation and its device's position) and window, in file order. A run only draws
/// its races' offsets and puts the steps in order; a scenario without races runs its
/// steps in one order, the same in every run, kept here too.
struct StepPlan: Sendable {
    struct Entry: Sendable {
        /// The step's time, or for a race's step the race's.
        let time: VirtualTime
        let event: Simulation.Event
        /// Its time, or for a race's step the whole race window.
        let window: TimeWindow
        /// The race the step belongs to, counted from 1 in file order (0: none), and how
        /// wide that race is.
        let race: Int
        let within: UInt64
    }

    /// A step in the order of a run: when it runs and its place in `entries`.
    struct Planned: Sendable {
        let time: VirtualTime
        let entry: Int
    }

    /// In file order.
    let entries: [Entry]
    /// The order of a scenario without races; nil when races draw it per run.
    private let fixedOrder: [Planned]?

    init(scenario: Scenario, deviceIndex: [String: Int]) {
        let fallback = scenario.conversations.first?.name ?? Scenario.ConversationSpec.defaultName
        func event(_ step: Scenario.Step) -> Simulation.Event {
            .step(step, conversation: step.conversation ?? fallback, device: deviceIndex[step.device])
        }
        var entries: [Entry] = []
        var races = 0
        for item in scenario.timeline {
            switch item {
            case .step(let step):
                entries.append(Entry(time: step.time, event: event(step),
                                     window: TimeWindow(earliest: step.time.nanoseconds, latest: step.time.nanoseconds), race: 0, within: 0))
            case .race(let race):
                races += 1
                let within = UInt64(max(0, race.within.nanoseconds))
                let window = TimeWindow(earliest: race.time.nanoseconds, latest: race.time.nanoseconds)
                    .shifted(by: 0, spread: max(0, race.within.nanoseconds - 1))
                for step in race.steps {
                    entries.append(Entry(time: race.time, event: event(step), window: window, race: races, within: within))
                }
            }
        }
        self.entries = entries
        fixedOrder = races == 0 ? Self.ordered(entries.indices.map { Planned(time: entries[$0].time, entry: $0) }) : nil
    }

    /// The order of one run: each step at its time, a race's steps at the race's time
    /// plus a seeded offset in [0, within), one stream per race, drawn in file order;
    /// steps at the same instant in file order.
    func order(streams: RandomStreams) -> [Planned] {
        if let fixedOrder { return fixedOrder }
        var planned: [Planned] = []
        planned.reserveCapacity(entries.count)
        var race = 0
        var generator = SplitMix64(seed: 0)
        for (index, entry) in entries.enumerated() {
            guard entry.race > 0 else {
                planned.append(Planned(time: entry.time, entry: index))
                continue
            }
            if entry.race != race {
                race = entry.race
                generator = streams.stream(.race, String(race))
            }
            let offset = Int64(clamping: generator.next(below: entry.within))
            planned.append(Planned(time: entry.time + VirtualDuration(nanoseconds: offset), entry: index))
        }
        return Self.ordered(planned)
    }

    private static func ordered(_ planned: [Planned]) -> [Planned] {
        planned.sorted { ($0.time, $0.entry) < ($1.time, $1.entry) }
    }
}
