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
    /// Every distinct thing shown, once: a run shows a few (one per live bubble's message).
    private var valueNumbers = FewKeys<Shown>()
    var values: [Shown] { valueNumbers.keys }
    /// Per session: the device of its latest row (-1: none yet).
    private var lastDevice: [Int32] = []
    /// Whether a device has two rows of one session (one shown in two conversations).
    private(set) var repeats = false
    private(set) var rowDevice: [Int32] = []
    private(set) var rowSession: [Int32] = []
    private(set) var rowValue: [Int32] = []
    /// Whether the rows are every device's row of every session, sessions numbered 0, 1, ...
    /// in that order (`fill`): row `i` is device `i / sessions.count`'s of session
    /// `i % sessions.count`, and a session's rows are every `sessions.count`th.
    private var isGrid = false

    init(capacity: Int = 0) {
        rowDevice.reserveCapacity(capacity)
        rowSession.reserveCapacity(capacity)
        rowValue.reserveCapacity(capacity)
    }

    var count: Int { rowDevice.count }

    /// Starts the rows of the next device.
    mutating func startDevice(_ name: String) {
        devices.append(name)
        isGrid = false
    }

    /// The session's number, given the first time it is named.
    mutating func session(_ name: String) -> Int32 {
        if let known = sessionNumbers[name] { return known }
        let number = Int32(sessions.count)
        sessions.append(name)
        sessionNumbers[name] = number
        lastDevice.append(-1)
        isGrid = false
        return number
    }

    /// The number of `value`, given the first time it is shown.
    mutating func number(of value: Shown) -> Int32 {
        Int32(valueNumbers.insert(value).number)
    }

    /// A row of the latest device: `session` (from `session(_:)`) shows the value numbered
    /// `number` (from `number(of:)`).
    mutating func append(session: Int32, number: Int32) {
        let device = Int32(devices.count - 1)
        isGrid = false
        if lastDevice[Int(session)] == device { repeats = true }
        lastDevice[Int(session)] = device
        rowDevice.append(device)
        rowSession.append(session)
        rowValue.append(number)
    }

    /// Every device's rows at once (the rows must be empty): a row of every session (numbered
    /// 0, 1, ... by `session(_:)`, in that order) for each device of `names`, in order;
    /// `values[device * sessions.count + session]` the number (from `number(of:)`) of what it
    /// shows. The columns are written in one pass each, with no check per row.
    mutating func fill(devices names: [String], values: [Int32]) {
        let width = sessions.count
        let count = names.count * width
        guard devices.isEmpty, rowDevice.isEmpty, values.count == count, count > 0 else { return }
        devices = names
        rowDevice = Self.gridColumn(devices: names.count, sessions: width) { device, _ in device }
        rowSession = Self.gridColumn(devices: names.count, sessions: width) { _, session in session }
        rowValue = values
        let last = Int32(names.count - 1)
        for session in lastDevice.indices { lastDevice[session] = last }
        isGrid = true
    }

    /// How many sessions a grid's rows are read for at a time (`fill`'s caller and the
    /// classes): each device's values of them lie together, where one session's lie a
    /// whole device's rows apart.
    static let sessionBlock = 16

    /// A column of a grid's rows (`fill`), device by device and session by session, each
    /// row's value `value(device, session)`: written in one pass, without zeroing first.
    @inline(__always)
    private static func gridColumn(devices: Int, sessions width: Int, _ value: (Int32, Int32) -> Int32) -> [Int32] {
        Array(unsafeUninitializedCapacity: devices * width) { column, initialized in
            var index = 0
            for device in 0..<devices {
                for session in 0..<width {
                    column[index] = value(Int32(device), Int32(session))
                    index += 1
                }
            }
            initialized = devices * width
        }
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
    /// showed something else, sessions in the order first named. Linear in the rows: the
    /// rows are put in session order first (keeping their order within a session), and a
    /// session's things shown are then counted in one array by number, not in a table of
    /// its own.
    var classes: [ExploredRun.SessionClass] {
        let values = values
        var seen = [Int](repeating: 0, count: values.count)
        // One session (a scenario whose steps name one, as the vote's): its rows are all
        // the rows, in order, with nothing to put in order first.
        if sessions.count == 1 {
            return rowSession.isEmpty ? [] : [sessionClass(0, rows: rowDevice.indices.lazy.map { (device: rowDevice[$0], value: rowValue[$0]) },
                                                           values: values, seen: &seen)]
        }
        if isGrid { return gridClasses(values: values, seen: &seen) }
        var start = [Int](repeating: 0, count: sessions.count + 1)
        var order: [Int32] = []
        for session in rowSession {
            if start[Int(session) + 1] == 0 { order.append(session) }
            start[Int(session) + 1] += 1
        }
        for session in sessions.indices { start[session + 1] += start[session] }
        var rows = [Int32](repeating: 0, count: rowSession.count)
        var next = start
        for (index, session) in rowSession.enumerated() {
            rows[next[Int(session)]] = Int32(index)
            next[Int(session)] += 1
        }
        return order.map { session in
            sessionClass(session, rows: rows[start[Int(session)]..<start[Int(session) + 1]].lazy.map { (device: rowDevice[Int($0)], value: rowValue[Int($0)]) },
                         values: values, seen: &seen)
        }
    }

    /// `classes` of rows laid out by `fill`: a session's rows are every `sessions.count`th,
    /// so nothing is put in order first. A few sessions' values are gathered at a time,
    /// reading each device's row of them where they lie together, instead of one read per
    /// row a whole device's rows apart.
    private func gridClasses(values: [Shown], seen: inout [Int]) -> [ExploredRun.SessionClass] {
        let width = sessions.count, deviceCount = devices.count
        var classes: [ExploredRun.SessionClass] = []
        classes.reserveCapacity(width)
        var gathered = [Int32](repeating: 0, count: min(Self.sessionBlock, width) * deviceCount)
        for first in stride(from: 0, to: width, by: Self.sessionBlock) {
            let few = min(Self.sessionBlock, width - first)
            rowValue.withUnsafeBufferPointer { rows in
                gathered.withUnsafeMutableBufferPointer { columns in
                    for device in 0..<deviceCount {
                        let start = device * width + first
                        for place in 0..<few { columns[place * deviceCount + device] = rows[start + place] }
                    }
                }
            }
            // Read through a buffer: a closure over the array itself checked exclusive access per row.
            gathered.withUnsafeBufferPointer { columns in
                for place in 0..<few {
                    let base = place * deviceCount
                    let column = GridColumn(values: UnsafeBufferPointer(rebasing: columns[base..<(base + deviceCount)]))
                    classes.append(sessionClass(Int32(first + place), rows: column, values: values, seen: &seen))
                }
            }
        }
        return classes
    }

    /// The class of `session`, whose rows are `own` (each row's device and value number),
    /// in order; `seen`: a zero per value, left so.
    private func sessionClass(_ session: Int32, rows own: some Collection<(device: Int32, value: Int32)>, values: [Shown],
                              seen: inout [Int]) -> ExploredRun.SessionClass {
        var distinct: [Int32] = []
        for row in own {
            let value = Int(row.value)
            if seen[value] == 0 { distinct.append(Int32(value)) }
            seen[value] += 1
        }
        let shown = distinct.sorted { values[Int($0)] < values[Int($1)] }
        let most = shown.max { a, b in
            seen[Int(a)] < seen[Int(b)] || (seen[Int(a)] == seen[Int(b)] && values[Int(b)] < values[Int(a)])
        }
        // Values are kept once, so another number is another thing shown; with one thing
        // shown, no device showed another.
        let outliers = distinct.count == 1 ? [] : own.filter { $0.value != most }.map(\.device)
        let agreeing = most.map { seen[Int($0)] } ?? 0
        for value in distinct { seen[Int(value)] = 0 }
        return ExploredRun.SessionClass(session: sessions[Int(session)], shown: shown.map { values[Int($0)] }, agreeing: agreeing,
                                        outliers: outliers)
    }

    /// One session's gathered values, device by device: its rows for `sessionClass`, read
    /// where they lie (a closure per row was called through a pointer, not inlined).
    private struct GridColumn: RandomAccessCollection {
        let values: UnsafeBufferPointer<Int32>
        var startIndex: Int { 0 }
        var endIndex: Int { values.count }
        subscript(position: Int) -> (device: Int32, value: Int32) { (Int32(truncatingIfNeeded: position), values[position]) }
    }
}
