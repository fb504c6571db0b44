import GroupSimCore

/// Per device and session, in how many runs each thing was shown: the counts behind the
/// outcome distribution, kept small for groups with many devices and sessions.
///
/// A group of 1,000 devices and 10,000 sessions has 10 million rows. A row is two small
/// numbers (its device's and its session's, names kept once), the number of the thing it
/// showed (each distinct `Shown` kept once) and that thing's count: about 28 bytes. Only
/// a row that came out differently in different runs keeps a table of its outcomes.
///
/// The runs of one scenario add their rows in the same order, so a run's row is matched by
/// position first, and found by its names only where the order differs.
struct OutcomeCounts: Sendable {
    typealias Shown = ExplorationReport.Shown

    private var deviceNames: [String] = []
    private var deviceNumbers: [String: Int32] = [:]
    private var sessionNames: [String] = []
    private var sessionNumbers: [String: Int32] = [:]
    /// Per row: its device's and its session's number.
    private var rowDevice: [Int32] = []
    private var rowSession: [Int32] = []
    /// The rows by device and session number, made the first time a row is not where
    /// position says (runs that add rows in another order, merged tallies).
    private var rowIndex: [Int64: Int32]?
    /// Every distinct thing shown, once.
    private var values: [Shown] = []
    private var valueNumbers: [Shown: Int32] = [:]
    /// Per row: the number of the one thing shown and its count; once the row showed more
    /// than one thing, -3 - n, its counts being `several[n]` (-2: nothing yet).
    private var single: [Int32] = []
    /// In eight bytes a row, not an `ExactCount`'s sixteen: a count past `UInt64.max - 1`
    /// (an exhaustive search's, say 10^196 orders) is `inLarge` here and kept in `largeCounts`.
    /// Empty while every row that showed one thing has the same count, `uniform`: runs of
    /// one scenario add their rows in the same order, and most rows show the same thing in
    /// every run, so a group's 10 million rows need no count of their own until one differs.
    private var singleCount: [UInt64] = []
    /// The count of every row that showed one thing, while `singleCount` is empty.
    private var uniform: ExactCount = .zero
    private var isUniform: Bool { singleCount.isEmpty }
    private var largeCounts: [Int32: ExactCount] = [:]
    private static let inLarge = UInt64.max
    /// The counts of the rows that showed more than one thing, found from `single` by
    /// place: a row that varies from run to run costs no look-up by its number each run.
    private var several: [Several] = []

    /// The things one row showed, by number, in the order first shown, and in how many runs each.
    private struct Several {
        var numbers = FewKeys<Int32>()
        var counts: [ExactCount] = []

        mutating func add(_ number: Int32, _ count: ExactCount) {
            let (index, inserted) = numbers.insert(number)
            if inserted { counts.append(count) } else { counts[index] += count }
        }

        var list: [(number: Int32, runs: ExactCount)] { Array(zip(numbers.keys, counts)) }
    }

    /// Makes row `index` one that shows several things, with these counts so far.
    private mutating func startSeveral(at index: Int, _ counts: (number: Int32, runs: ExactCount)...) {
        var added = Several()
        for entry in counts { added.add(entry.number, entry.runs) }
        several.append(added)
        single[index] = -2 - Int32(several.count)
    }

    /// Counts `count` runs that showed `number` at row `index`, which showed another thing
    /// before (`current`, in `runs` runs) or several; `current` -2, nothing (never left so).
    private mutating func addSeveral(at index: Int, _ current: Int32, _ runs: ExactCount, _ number: Int32, _ count: ExactCount) {
        if current >= 0 {
            startSeveral(at: index, (current, runs), (number, count))
        } else if current == -2 {
            startSeveral(at: index, (number, count))
        } else {
            several[Int(-3 - current)].add(number, count)
        }
    }

    /// Row `index`'s counts, by number, when it showed more than one thing.
    private func severalCounts(at index: Int) -> [(number: Int32, runs: ExactCount)] {
        let place = Int(-3 - single[index])
        return several.indices.contains(place) ? several[place].list : []
    }

    var isEmpty: Bool { rowDevice.isEmpty }

    /// Counts a run's rows, `count` runs each. The run's devices, sessions and values are
    /// given this table's numbers once each; each row then costs a few integer compares.
    mutating func add(_ rows: OutcomeRows, count: ExactCount) {
        let devices = Self.intern(rows.devices, &deviceNames, numbers: &deviceNumbers)
        let sessions = Self.intern(rows.sessions, &sessionNames, numbers: &sessionNumbers)
        let valueMap = rows.values.map { Self.intern(shown: $0, &values, numbers: &valueNumbers) }
        // A run's rows are distinct, but for a repeat: into an empty table they go in order, with no look-up.
        let fresh = rowDevice.isEmpty && !rows.repeats
        if fresh, Self.isIdentity(devices), Self.isIdentity(sessions), Self.isIdentity(valueMap) {
            // The first rows, numbered as this table numbers them: its columns are the
            // run's own arrays, shared rather than copied (a 1,000-device run has 10 million rows).
            rowIndex = nil
            rowDevice = rows.rowDevice
            rowSession = rows.rowSession
            single = rows.rowValue
            singleCount = []
            largeCounts = [:]
            uniform = count
            return
        }
        if isUniform, !fresh, !rows.repeats, addInPlace(rows, devices: devices, sessions: sessions, values: valueMap, count: count) {
            return
        }
        makeCountsOwn()
        if fresh {
            rowIndex = nil
            rowDevice.reserveCapacity(rows.count)
            rowSession.reserveCapacity(rows.count)
            single.reserveCapacity(rows.count)
            singleCount.reserveCapacity(rows.count)
        }
        for position in 0..<rows.count {
            let device = devices[Int(rows.rowDevice[position])], session = sessions[Int(rows.rowSession[position])]
            let index: Int
            if position < rowDevice.count, rowDevice[position] == device, rowSession[position] == session {
                index = position
            } else {
                index = fresh ? appendRow(device: device, session: session) : row(device: device, session: session)
            }
            add(valueMap[Int(rows.rowValue[position])], count, at: index)
        }
    }

    /// A run whose rows are this table's rows in the same order, counted while the rows
    /// that show what they showed before keep the one count they share (`uniform`); false,
    /// with nothing changed, when a row is not where position says.
    private mutating func addInPlace(_ rows: OutcomeRows, devices: [Int32], sessions: [Int32], values valueMap: [Int32],
                                     count: ExactCount) -> Bool {
        guard rows.count == rowDevice.count else { return false }
        for position in 0..<rows.count
        where rowDevice[position] != devices[Int(rows.rowDevice[position])] || rowSession[position] != sessions[Int(rows.rowSession[position])] {
            return false
        }
        for position in 0..<rows.count {
            let number = valueMap[Int(rows.rowValue[position])], current = single[position]
            if current == number { continue }
            addSeveral(at: position, current, uniform, number, count)
        }
        uniform += count
        return true
    }

    /// Gives every row a count of its own (`singleCount`), from `uniform`.
    private mutating func makeCountsOwn() {
        guard isUniform, !single.isEmpty else { return }
        let shared = uniform
        singleCount = Array(repeating: 0, count: single.count)
        for index in single.indices { setSingleCount(shared, at: index) }
    }

    /// Counts `count` runs that showed `value` at `slot`.
    mutating func add(_ slot: ExploredRun.Slot, _ value: Shown, _ count: ExactCount) {
        makeCountsOwn()
        let device = Self.intern(slot.device, &deviceNames, numbers: &deviceNumbers)
        let session = Self.intern(slot.session, &sessionNames, numbers: &sessionNumbers)
        add(Self.intern(value, &values, numbers: &valueNumbers), count, at: row(device: device, session: session))
    }

    /// Adds another table's counts.
    mutating func merge(_ other: OutcomeCounts) {
        if isEmpty {
            self = other
            return
        }
        for index in other.rowDevice.indices {
            let slot = ExploredRun.Slot(device: other.deviceNames[Int(other.rowDevice[index])],
                                        session: other.sessionNames[Int(other.rowSession[index])])
            for (value, count) in other.counts(at: index) { add(slot, value, count) }
        }
    }

    /// The outcome distribution's rows, ordered by the devices' and the sessions' ranks
    /// (a name without a rank after those with one, by name); each row's counts most
    /// frequent first, ties by `Shown`'s order. The rows are read from this table as they
    /// are asked for, not copied: a 1,000-device group has 10 million of them.
    func tallies(deviceRank: [String: Int], sessionRank: [String: Int]) -> ExplorationReport.OutcomeTallies {
        // Names are ranked once, and the rows put in order by one integer each.
        func order(_ names: [String], _ rank: [String: Int]) -> [Int64] {
            let sorted = names.indices.sorted { a, b in
                let left = rank[names[a]] ?? Int.max, right = rank[names[b]] ?? Int.max
                return left != right ? left < right : names[a] < names[b]
            }
            var position = [Int64](repeating: 0, count: names.count)
            for (place, index) in sorted.enumerated() { position[index] = Int64(place) }
            return position
        }
        let devicePlace = order(deviceNames, deviceRank), sessionPlace = order(sessionNames, sessionRank)
        func key(_ row: Int) -> Int64 { devicePlace[Int(rowDevice[row])] << 32 | sessionPlace[Int(rowSession[row])] }
        // Every row refers to one table of the names and things shown instead of holding copies.
        let names = ExplorationReport.OutcomeNames(devices: deviceNames, sessions: sessionNames, values: values)
        // Runs add their rows device by device in the scenario's order, so most tables are in order already.
        let inOrder = rowDevice.indices.dropFirst().allSatisfy { key($0 - 1) < key($0) }
        let rows = inOrder ? nil : rowDevice.indices.map(Int32.init).sorted { key(Int($0)) < key(Int($1)) }
        return ExplorationReport.OutcomeTallies(counts: self, names: names, order: rows)
    }

    /// How many rows the table has.
    var rowCount: Int { rowDevice.count }

    /// Row `index` as a report's row, its names and thing shown as numbers into `names`
    /// (made from this table by `tallies`).
    func tally(at index: Int, names: ExplorationReport.OutcomeNames) -> ExplorationReport.OutcomeTally {
        if single[index] >= 0 {
            return ExplorationReport.OutcomeTally(names: names, device: rowDevice[index], session: rowSession[index],
                                                  value: single[index], runs: singleCountValue(at: index))
        }
        let counts = counts(at: index).map { ExplorationReport.OutcomeCount(shown: $0.shown, runs: $0.runs) }
            .sorted { $0.runs != $1.runs ? $0.runs > $1.runs : $0.shown < $1.shown }
        return ExplorationReport.OutcomeTally(names: names, device: rowDevice[index], session: rowSession[index], counts: counts)
    }

    /// What row `index` showed, in how many runs each.
    func counts(at index: Int) -> [(shown: Shown, runs: ExactCount)] {
        if single[index] >= 0 { return [(values[Int(single[index])], singleCountValue(at: index))] }
        return severalCounts(at: index).map { (values[Int($0.number)], $0.runs) }
    }

    /// What row `index` showed, by number in `values`, in how many runs each.
    private func numberedCounts(at index: Int) -> [(number: Int32, runs: ExactCount)] {
        if single[index] >= 0 { return [(single[index], singleCountValue(at: index))] }
        return severalCounts(at: index)
    }

    /// Counts `count` runs that showed value `number` at row `index`.
    private mutating func add(_ number: Int32, _ count: ExactCount, at index: Int) {
        let current = single[index]
        if current == number {
            setSingleCount(singleCountValue(at: index) + count, at: index)
            return
        }
        if current == -2 {
            single[index] = number
            setSingleCount(count, at: index)
        } else if current >= 0 {
            addSeveral(at: index, current, singleCountValue(at: index), number, count)
            setSingleCount(.zero, at: index)
        } else {
            addSeveral(at: index, current, .zero, number, count)
        }
    }

    /// The count of row `index`'s one thing shown.
    private func singleCountValue(at index: Int) -> ExactCount {
        if isUniform { return uniform }
        let small = singleCount[index]
        return small == Self.inLarge ? largeCounts[Int32(index)] ?? .zero : ExactCount(small)
    }

    private mutating func setSingleCount(_ count: ExactCount, at index: Int) {
        if let small = count.uint64, small != Self.inLarge {
            singleCount[index] = small
            if !largeCounts.isEmpty { largeCounts[Int32(index)] = nil }
        } else {
            singleCount[index] = Self.inLarge
            largeCounts[Int32(index)] = count
        }
    }

    /// The row of a device and session, added (empty, -2) when new.
    private mutating func row(device: Int32, session: Int32) -> Int {
        let key = Int64(device) << 32 | Int64(session)
        if rowIndex == nil {
            var index: [Int64: Int32] = [:]
            index.reserveCapacity(rowDevice.count)
            for row in rowDevice.indices { index[Int64(rowDevice[row]) << 32 | Int64(rowSession[row])] = Int32(row) }
            rowIndex = index
        }
        if let known = rowIndex?[key] { return Int(known) }
        let index = appendRow(device: device, session: session)
        rowIndex?[key] = Int32(index)
        return index
    }

    /// A new row, showing nothing yet (-2); the caller keeps `rowIndex` up to date.
    private mutating func appendRow(device: Int32, session: Int32) -> Int {
        rowDevice.append(device)
        rowSession.append(session)
        single.append(-2)
        singleCount.append(0)
        return rowDevice.count - 1
    }

    /// Whether `numbers` is 0, 1, 2...: a run's names numbered alike here.
    private static func isIdentity(_ numbers: [Int32]) -> Bool {
        numbers.indices.allSatisfy { numbers[$0] == Int32($0) }
    }

    /// The number of `key` in `keys`, appended the first time it comes.
    /// The numbers of `names`, given the first time each is named. Every run names the
    /// same devices and sessions in the same order: when the table's first names are
    /// these, their numbers are their places, found without hashing a name.
    private static func intern(_ names: [String], _ keys: inout [String], numbers: inout [String: Int32]) -> [Int32] {
        if names.count <= keys.count, zip(names, keys).allSatisfy({ $0 == $1 }) { return (0..<Int32(names.count)).map { $0 } }
        return names.map { intern($0, &keys, numbers: &numbers) }
    }

    /// `intern` for a thing shown, found by comparing while the table holds few: a run
    /// shows a few, and comparing two costs less than hashing one.
    private static func intern(shown value: Shown, _ keys: inout [Shown], numbers: inout [Shown: Int32]) -> Int32 {
        if keys.count <= 16, let index = keys.firstIndex(of: value) { return Int32(index) }
        return intern(value, &keys, numbers: &numbers)
    }

    private static func intern<Key: Hashable>(_ key: Key, _ keys: inout [Key], numbers: inout [Key: Int32]) -> Int32 {
        if let known = numbers[key] { return known }
        let number = Int32(keys.count)
        keys.append(key)
        numbers[key] = number
        return number
    }
}

extension OutcomeCounts {
    /// `OutcomeTallies.summary` read from this table: the rows' numbers, not their names.
    func summary(sessions wanted: Set<String>) -> ExplorationReport.OutcomeSummary {
        var summary = ExplorationReport.OutcomeSummary()
        let hasBubble = values.map { $0.from != nil }
        let asked = sessionNames.map { wanted.contains($0) }
        var sums: [Int64: ExactCount] = [:]
        for index in rowDevice.indices {
            let number = single[index]
            let session = Int(rowSession[index])
            if number >= 0 {
                if hasBubble[Int(number)] { summary.bubbleLines += 1 }
                guard asked[session] else { continue }
                summary.devices[sessionNames[session], default: 0] += 1
                sums[Int64(session) << 32 | Int64(number), default: .zero] += singleCountValue(at: index)
            } else {
                let several = numberedCounts(at: index)
                if several.contains(where: { hasBubble[Int($0.number)] }) { summary.bubbleLines += several.count }
                guard asked[session] else { continue }
                summary.devices[sessionNames[session], default: 0] += 1
                for entry in several { sums[Int64(session) << 32 | Int64(entry.number), default: .zero] += entry.runs }
            }
        }
        // Sorted by key, so that the lists come out alike every time.
        for (key, runs) in sums.sorted(by: { $0.key < $1.key }) {
            summary.shown[sessionNames[Int(key >> 32)], default: []]
                .append(ExplorationReport.OutcomeCount(shown: values[Int(key & 0xFFFF_FFFF)], runs: runs))
        }
        return summary
    }
}
