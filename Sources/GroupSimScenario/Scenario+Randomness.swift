extension Scenario {
    /// Whether a seed can change the schedule: some copy has jitter (the network's or a
    /// link's) or some steps race. Without either, every run of `explore` delivers the same
    /// copies at the same times and gives the same outcome, whatever the seed.
    public var hasRandomSchedule: Bool {
        if network.jitter > .zero || network.links.contains(where: { ($0.jitter ?? .zero) > .zero }) { return true }
        return timeline.contains { item in
            if case .race = item { return true }
            return false
        }
    }
}
