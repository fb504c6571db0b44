import GroupSimCore

/// One run's outcome rows: what every device shows for every session, in device order,
/// then session order; three small numbers per row.
///
/// A run of 1,000 devices and 10,000 sessions has 10 million rows. Device and session
/// names are kept once each, and so is each distinct `Shown` (`number(of:)`): the caller
/// numbers a thing shown once and appends rows by number, hashing nothing per row.
struct OutcomeRows: Sendable {
    typealias Shown = ExplorationReport.Shown

    private(set) var devices: [String] = []
    private(set) var sessions: [String] = []
    private var sessionNumbers: [String: Int32] = [:]
    private(set) var values: [Shown] = []
    private var valueNumbers: [Shown: Int32] = [:]
    /// Per session: the device of its latest row (-1: none yet).
    private var lastDevice: [Int32] = []
    /// Whether a device has two rows of one session (one shown in two conversations).
    private(set) var repeats = false
    private(set) var rowDevice: [Int32] = []
    private(set) var rowSession: [Int32] = []
    private(set) var rowValue: [Int32] = []

    init(capacity: Int = 0) {
        rowDevice.reserveCapacity(capacity)
        rowSession.reserveCapacity(capacity)
        rowValue.reserveCapacity(capacity)
    }

    var count: Int { rowDevice.count }

    /// Starts the rows of the next device.
    mutating func startDevice(_ name: String) { devices.append(name) }

    /// The session's number, given the first time it is named.
    mutating func session(_ name: String) -> Int32 {
        if let known = sessionNumbers[name] { return known }
        let number = Int32(sessions.count)
        sessions.append(name)
        sessionNumbers[name] = number
        lastDevice.append(-1)
        return number
    }

    /// The number of `value`, given the first time it is shown.
    mutating func number(of value: Shown) -> Int32 {
        if let known = valueNumbers[value] { return known }
        let number = Int32(values.count)
        values.append(value)
        valueNumbers[value] = number
        return number
    }

    /// A row of the latest device: `session` (from `session(_:)`) shows the value numbered
    /// `number` (from `number(of:)`).
    mutating func append(session: Int32, number: Int32) {
        let device = Int32(devices.count - 1)
        if lastDevice[Int(session)] == device { repeats = true }
        lastDevice[Int(session)] = device
        rowDevice.append(device)
        rowSession.append(session)
        rowValue.append(number)
    }

    /// Row `index`'s device and session.
    func slot(_ index: Int) -> ExploredRun.Slot {
        ExploredRun.Slot(device: devices[Int(rowDevice[index])], session: sessions[Int(rowSession[index])])
    }

    /// Every row as names and a value.
    var list: [(slot: ExploredRun.Slot, shown: Shown)] {
        rowDevice.indices.map { (slot($0), values[Int(rowValue[$0])]) }
    }

    /// Each session's class: the distinct things shown (sorted), how many devices showed
    /// the most common one (ties: the first in `Shown`'s order), and the devices that
    /// showed something else, sessions in the order first named. Linear in the rows.
    var classes: [ExploredRun.SessionClass] {
        var counts = [[Int32: Int]](repeating: [:], count: sessions.count)
        var order: [Int32] = []
        for index in rowSession.indices {
            let session = Int(rowSession[index])
            if counts[session].isEmpty { order.append(rowSession[index]) }
            counts[session][rowValue[index], default: 0] += 1
        }
        var majority = [Int32](repeating: -1, count: sessions.count)
        var result: [ExploredRun.SessionClass] = order.map { session in
            let seen = counts[Int(session)]
            let shown = seen.keys.sorted { values[Int($0)] < values[Int($1)] }
            let most = shown.max { a, b in
                (seen[a] ?? 0) < (seen[b] ?? 0) || ((seen[a] ?? 0) == (seen[b] ?? 0) && values[Int(b)] < values[Int(a)])
            }
            if let most { majority[Int(session)] = most }
            return ExploredRun.SessionClass(session: sessions[Int(session)], shown: shown.map { values[Int($0)] },
                                            agreeing: most.flatMap { seen[$0] } ?? 0, outliers: [])
        }
        var position = [Int](repeating: -1, count: sessions.count)
        for (index, session) in order.enumerated() { position[Int(session)] = index }
        for index in rowSession.indices where rowValue[index] != majority[Int(rowSession[index])] {
            let session = Int(rowSession[index])
            // Values are kept once, so another number is another thing shown.
            result[position[session]].outliers.append(devices[Int(rowDevice[index])])
        }
        return result
    }
}
