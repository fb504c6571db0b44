import GroupSimCore

/// In how many runs each device showed each thing for each session: the outcome
/// distribution of an exploration, kept so that adding a run costs an array step per
/// row, not two hashes.
///
/// Slots (device and session) and things shown are numbered as they first come. A run's
/// rows usually name the slots of the run before in the same order, so a row's slot is
/// found by comparing it with the previous run's row at its position; a thing shown is
/// hashed once per run, not once per device that shows it.
struct ShownCounts: Sendable {
    typealias Shown = ExplorationReport.Shown

    private var slots: [ExploredRun.Slot] = []
    private var slotNumbers: [ExploredRun.Slot: Int] = [:]
    private var values: [Shown] = []
    private var valueNumbers: [Shown: Int] = [:]
    /// Per slot: each thing shown there (by number) and in how many runs.
    private var counts: [SlotCounts] = []
    /// The previous run's rows, as slots and their numbers.
    private var lastRows: [ExploredRun.Slot] = []
    private var lastNumbers: [Int] = []

    var isEmpty: Bool { slots.isEmpty }

    /// Every slot, in the order first counted.
    var allSlots: [ExploredRun.Slot] { slots }

    /// What was shown in `slot` and in how many runs, in no particular order.
    func counts(of slot: ExploredRun.Slot) -> [(shown: Shown, runs: ExactCount)] {
        guard let number = slotNumbers[slot] else { return [] }
        return counts[number].entries.map { (values[$0.value], $0.runs) }
    }

    /// `count` more runs showed `value` in `slot`.
    mutating func add(_ slot: ExploredRun.Slot, _ value: Shown, _ count: ExactCount) {
        add(slotNumber(slot), valueNumber(value), count)
    }

    /// One run's rows, each counted once: `rows[i]` showed `values[rowValues[i]]`.
    mutating func add(rows: [ExploredRun.Slot], rowValues: [Int32], values runValues: [Shown]) {
        var numbers: [Int] = []
        for value in runValues { numbers.append(valueNumber(value)) }
        var rowNumbers: [Int] = []
        rowNumbers.reserveCapacity(rows.count)
        for (index, slot) in rows.enumerated() {
            let number = index < lastRows.count && lastRows[index] == slot ? lastNumbers[index] : slotNumber(slot)
            rowNumbers.append(number)
            add(number, numbers[Int(rowValues[index])], .one)
        }
        lastRows = rows
        lastNumbers = rowNumbers
    }

    /// Adds another distribution's counts.
    mutating func merge(_ other: ShownCounts) {
        for (number, slot) in other.slots.enumerated() {
            let mine = slotNumber(slot)
            for entry in other.counts[number].entries { add(mine, valueNumber(other.values[entry.value]), entry.runs) }
        }
    }

    private mutating func add(_ slot: Int, _ value: Int, _ count: ExactCount) {
        counts[slot].add(value, count)
    }

    /// One slot's counts. Most slots show a few distinct things, found by a scan; a slot
    /// that shows many gets an index, so a row never costs more than a hash.
    private struct SlotCounts: Sendable {
        private(set) var entries: [(value: Int, runs: ExactCount)] = []
        private var positions: [Int: Int] = [:]
        private static let scanLimit = 16

        mutating func add(_ value: Int, _ count: ExactCount) {
            let found = entries.count > Self.scanLimit ? positions[value] : entries.firstIndex { $0.value == value }
            if let found {
                entries[found].runs += count
                return
            }
            entries.append((value, count))
            if entries.count > Self.scanLimit {
                if positions.isEmpty {
                    for (position, entry) in entries.enumerated() { positions[entry.value] = position }
                } else {
                    positions[value] = entries.count - 1
                }
            }
        }
    }

    private mutating func slotNumber(_ slot: ExploredRun.Slot) -> Int {
        if let known = slotNumbers[slot] { return known }
        slotNumbers[slot] = slots.count
        slots.append(slot)
        counts.append(SlotCounts())
        return slots.count - 1
    }

    private mutating func valueNumber(_ value: Shown) -> Int {
        if let known = valueNumbers[value] { return known }
        valueNumbers[value] = values.count
        values.append(value)
        return values.count - 1
    }
}
