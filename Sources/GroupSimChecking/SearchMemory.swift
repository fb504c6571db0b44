import GroupSimScenario

/// What an exhaustive search holds, in bytes, counted from the sizes of what it keeps
/// rather than measured, so that where a search stops depends only on the scenario and
/// the budget, the same on every machine (`Explorer.exhaustive(limit:factor:memory:)`).
///
/// The sizes are those of Swift's values on a 64-bit machine, rounded up: an array is a
/// 32-byte header and its elements, a set or dictionary entry costs its element and about
/// as much again in slack. What is counted: the keys of the orders and prefixes reached
/// (`OrderKey`, one hash per entity), the branches still to simulate (a prefix of choices,
/// a guide, a key and an event), the points of the run the race search extends with their
/// wakeup trees, the outcome
/// classes of the tally and, in a factored search, every simulated local order kept until
/// its dependent order is combined (a run's report, about what `ScenarioBudget` estimates
/// one run of the scenario holds) with the local prefixes still to try.
package enum SearchMemory {
    /// The default budget: 1 GiB, which leaves a 4 GB machine room for the program, the
    /// run being simulated and the allocator's slack. Under a memory limit (`ulimit -v`, a
    /// container's), an eighth of the limit when that is less: the address space also holds
    /// the runtime's reservations and every thread's stack, and what is counted is about
    /// half of what the process then uses.
    package static func defaultBudget(memoryLimit: Int?) -> Int {
        let gibibyte = 1 << 30
        guard let memoryLimit else { return gibibyte }
        return max(1 << 20, min(gibibyte, memoryLimit / 8))
    }

    static let arrayHeader = 32
    /// An `OrderRecorder.Option`: three short strings, an entity list and a dozen numbers.
    static let option = 256
    /// One point of the run the race search extends, without its events (counted as
    /// `option` each): the arrays that hold them.
    static let level = 4 * arrayHeader + 16
    /// One node of a wakeup tree: its event and the array of its children.
    static let wakeupNode = option + arrayHeader
    /// One outcome class of the tally: its key (a session and the things shown) and counts.
    static let outcomeClass = 512

    /// One `OrderKey` in a set: a hash per entity, the key's fields and the set's slack.
    static func key(_ root: OrderKey) -> Int { 2 * (arrayHeader + 8 * root.entities.count + 32) }

    /// One branch waiting to be simulated.
    static func branch(_ branch: Explorer.Branch, _ root: OrderKey) -> Int {
        2 * arrayHeader + 8 * (branch.prefix.count + branch.guide.count) + key(root) / 2 + option
    }

    /// One local prefix still to try (factoring).
    static func localPrefix(_ prefix: [Int]) -> Int { arrayHeader + 8 * prefix.count }

    /// One simulated local order kept until its dependent order is combined: the run's
    /// report and what the recorder saw, about as much as one run of the scenario holds.
    static func keptRun(_ scenario: Scenario) -> Int {
        let run = ScenarioBudget.estimate(scenario).bytes
        return run > Int.max - 4_096 ? Int.max : run + 4_096
    }
}
