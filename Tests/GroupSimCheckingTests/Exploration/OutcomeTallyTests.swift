import Testing
@testable import GroupSimChecking
import GroupSimSimulation
import GroupSimCore
import GroupSimScenario

/// A report's outcome rows keep numbers into one shared table, but read, change, compare
/// and hash as the values they stand for.
@Suite struct OutcomeTallyTests {
    typealias Report = ExplorationReport

    static let bob = Report.Shown(from: "bob", fromName: "Bob", state: StateMap([Scenario.DataEntry("bob", "tomatoes")]))
    static let carol = Report.Shown(from: "carol", fromName: "Carol", state: StateMap([Scenario.DataEntry("carol", "pickles")]))
    static let names = Report.OutcomeNames(devices: ["alice-phone", "bob-phone"], sessions: ["poll", "lunch"], values: [bob, carol])

    @Test func aSharedRowReadsAsItsValues() {
        let row = Report.OutcomeTally(names: Self.names, device: 1, session: 0, value: 1, runs: 7)
        #expect(row.device == "bob-phone" && row.session == "poll")
        #expect(row.counts == [Report.OutcomeCount(shown: Self.carol, runs: 7)])
    }

    /// A row made from a shared table equals, and hashes as, the same row with a table of
    /// its own (as the JSON reader makes them); another count or thing shown differs.
    @Test func rowsCompareByValue() {
        let shared = Report.OutcomeTally(names: Self.names, device: 0, session: 1, value: 0, runs: 3)
        let own = Report.OutcomeTally(device: "alice-phone", session: "lunch", counts: [.init(shown: Self.bob, runs: 3)])
        #expect(shared == own)
        #expect(Set([shared, own]).count == 1)
        #expect(shared != Report.OutcomeTally(names: Self.names, device: 0, session: 1, value: 0, runs: 4))
        #expect(shared != Report.OutcomeTally(names: Self.names, device: 0, session: 1, value: 1, runs: 3))
        #expect(shared != Report.OutcomeTally(names: Self.names, device: 1, session: 1, value: 0, runs: 3))
    }

    /// Changing a row gives it the new values without touching the table other rows share.
    @Test func changingARowLeavesTheOthers() {
        let other = Report.OutcomeTally(names: Self.names, device: 0, session: 0, value: 0, runs: 2)
        var row = other
        row.device = "carol-phone"
        row.session = "dinner"
        row.counts[0].runs = 5
        #expect(row.device == "carol-phone" && row.session == "dinner")
        #expect(row.counts == [Report.OutcomeCount(shown: Self.bob, runs: 5)])
        #expect(other.device == "alice-phone" && other.session == "poll" && other.counts[0].runs == 2)
        #expect(Self.names.devices == ["alice-phone", "bob-phone"] && Self.names.sessions == ["poll", "lunch"])
    }

    /// The tally keeps a row's count in eight bytes until it passes `UInt64.max`, then
    /// exactly in a side table: the sums stay exact on both sides of that line, for a row
    /// that showed one thing and for one that showed two.
    @Test func countsStayExactPastSixtyFourBits() {
        let nearMax = ExactCount(UInt64.max - 1)
        var counts = OutcomeCounts()
        let poll = ExploredRun.Slot(device: "alice-phone", session: "poll")
        let lunch = ExploredRun.Slot(device: "bob-phone", session: "lunch")
        counts.add(poll, Self.bob, nearMax)
        counts.add(poll, Self.bob, 1)
        #expect(counts.counts(at: 0).map(\.runs) == [ExactCount(UInt64.max)])
        counts.add(poll, Self.bob, 5)
        let past = ExactCount(UInt64.max) + 5
        #expect(counts.counts(at: 0).map(\.runs) == [past])
        counts.add(lunch, Self.carol, 3)
        counts.add(lunch, Self.carol, nearMax)
        counts.add(lunch, Self.bob, 2)
        let lunchCounts = Dictionary(uniqueKeysWithValues: counts.counts(at: 1).map { ($0.shown, $0.runs) })
        #expect(lunchCounts == [Self.carol: nearMax + 3, Self.bob: 2])
        let rows = counts.tallies(deviceRank: ["alice-phone": 0, "bob-phone": 1], sessionRank: ["poll": 0, "lunch": 1])
        #expect(rows.map(\.counts) == [[Report.OutcomeCount(shown: Self.bob, runs: past)],
                                        [Report.OutcomeCount(shown: Self.carol, runs: nearMax + 3),
                                         Report.OutcomeCount(shown: Self.bob, runs: 2)]])
    }

    /// Runs of three devices and two sessions, each row showing bob's or carol's vote as
    /// the seed draws it; some runs list their rows in another order. Counted as runs add
    /// them (rows that keep showing one thing share one count until one differs) and one
    /// row at a time, the tallies are the same, in the ranks' order either way.
    @Test(arguments: 0..<40)
    func runsCountedTogetherEqualRowsCountedOneByOne(seed: Int) {
        var random = SplitMix64(seed: UInt64(seed))
        let devices = ["alice-phone", "bob-phone", "carol-phone"], sessions = ["poll", "lunch"]
        var together = OutcomeCounts(), apart = OutcomeCounts()
        let steady = random.next() % 2 == 0
        for _ in 0..<(1 + Int(random.next() % 6)) {
            var rows = OutcomeRows()
            let reversed = random.next() % 5 == 0
            let count = ExactCount(1 + random.next() % 3)
            for device in reversed ? devices.reversed() : devices {
                rows.startDevice(device)
                for session in sessions {
                    let shown = steady || random.next() % 4 != 0 ? Self.bob : Self.carol
                    rows.append(session: rows.session(session), number: rows.number(of: shown))
                    apart.add(ExploredRun.Slot(device: device, session: session), shown, count)
                }
            }
            together.add(rows, count: count)
        }
        let deviceRank = ["alice-phone": 2, "bob-phone": 1, "carol-phone": 0], sessionRank = ["poll": 0, "lunch": 1]
        let one = together.tallies(deviceRank: deviceRank, sessionRank: sessionRank)
        let other = apart.tallies(deviceRank: deviceRank, sessionRank: sessionRank)
        #expect(one == other, "seed \(seed)")
        #expect(one.map(\.device) == ["carol-phone", "carol-phone", "bob-phone", "bob-phone", "alice-phone", "alice-phone"],
                "seed \(seed)")
        #expect(Array(one) == Array(other) && one.hashValue == other.hashValue, "seed \(seed)")
    }

    /// Rows filled in one go (every device a row of every session, as a run with no app-named
    /// session and no fetched record makes them) are the rows appended one at a time: the
    /// same columns, the same classes (gathered a few sessions at a time, with more than 16
    /// sessions so that a block ends mid-way) and the same tally.
    @Test(arguments: 0..<12) func filledRowsAreAppendedRows(seed: Int) {
        var random = SplitMix64(seed: UInt64(seed))
        let devices = (0..<(1 + Int(random.next() % 9))).map { "d\($0)" }
        let sessions = (0..<(1 + Int(random.next() % 40))).map { "s\($0)" }
        let things = (0..<(1 + Int(random.next() % 5))).map {
            Report.Shown(from: "p\($0)", fromName: "P\($0)", state: StateMap([Scenario.DataEntry("k", "\($0)")]))
        }
        var appended = OutcomeRows(), filled = OutcomeRows()
        var values: [Int32] = []
        #expect(sessions.map { filled.session($0) } == sessions.indices.map { Int32($0) })
        for device in devices {
            appended.startDevice(device)
            for session in sessions {
                let shown = things[Int(random.next() % UInt64(things.count))]
                appended.append(session: appended.session(session), number: appended.number(of: shown))
                values.append(filled.number(of: shown))
            }
        }
        filled.fill(devices: devices, values: values)
        #expect(filled.rowDevice == appended.rowDevice && filled.rowSession == appended.rowSession, "seed \(seed)")
        #expect(filled.rowValue == appended.rowValue && filled.values == appended.values && !filled.repeats, "seed \(seed)")
        let one = filled.classes, other = appended.classes
        #expect(one.map(\.session) == other.map(\.session) && one.map(\.shown) == other.map(\.shown), "seed \(seed)")
        #expect(one.map(\.agreeing) == other.map(\.agreeing) && one.map(\.outliers) == other.map(\.outliers), "seed \(seed)")
        var together = OutcomeCounts(), apart = OutcomeCounts()
        together.add(filled, count: 1)
        apart.add(appended, count: 1)
        let deviceRank = Dictionary(uniqueKeysWithValues: devices.enumerated().map { ($1, $0) })
        let sessionRank = Dictionary(uniqueKeysWithValues: sessions.enumerated().map { ($1, $0) })
        #expect(together.tallies(deviceRank: deviceRank, sessionRank: sessionRank) == apart.tallies(deviceRank: deviceRank, sessionRank: sessionRank),
                "seed \(seed)")
    }

    /// Runs of 20 devices, each showing another thing (20 things a run), and each device's
    /// row showing 24 different things over the runs: past 16 the things of a run and of a
    /// row are found by hash instead of by comparison, and the counts come out as counted
    /// one row at a time, each run's class agreeing on one device with 19 outliers.
    @Test func manyThingsShownCountAsFew() {
        let devices = (0..<20).map { "d\($0)" }
        let things = (0..<24).map { Report.Shown(from: "p\($0)", fromName: "P\($0)", state: StateMap([Scenario.DataEntry("k", "\($0)")])) }
        var together = OutcomeCounts(), apart = OutcomeCounts()
        var expected: [String: [Report.Shown: ExactCount]] = [:]
        for run in 0..<30 {
            var rows = OutcomeRows()
            for (index, device) in devices.enumerated() {
                rows.startDevice(device)
                let shown = things[(index + 7 * run) % things.count]
                rows.append(session: rows.session("poll"), number: rows.number(of: shown))
                #expect(rows.number(of: shown) == Int32(index), "run \(run)")
                apart.add(ExploredRun.Slot(device: device, session: "poll"), shown, 1)
                expected[device, default: [:]][shown, default: .zero] += 1
            }
            #expect(rows.values.count == 20)
            let classes = rows.classes
            #expect(classes.count == 1 && classes.first?.agreeing == 1 && classes.first?.outliers.count == 19, "run \(run)")
            #expect(classes.first?.shown == rows.values.sorted(), "run \(run)")
            together.add(rows, count: 1)
        }
        let deviceRank = Dictionary(uniqueKeysWithValues: devices.enumerated().map { ($1, $0) })
        let sessionRank = ["poll": 0]
        #expect(together.tallies(deviceRank: deviceRank, sessionRank: sessionRank) == apart.tallies(deviceRank: deviceRank, sessionRank: sessionRank))
        for (index, device) in devices.enumerated() {
            let counted = Dictionary(uniqueKeysWithValues: together.counts(at: index).map { ($0.shown, $0.runs) })
            #expect(counted.count == 24 && counted == expected[device], "\(device)")
        }
    }

    /// The rows a report reads from the tally's table change like an array's: the changed
    /// row takes its new value, the others keep theirs, and the report compares equal to
    /// the same rows held as values.
    @Test func changingARowOfATallysReport() {
        var counts = OutcomeCounts()
        counts.add(ExploredRun.Slot(device: "alice-phone", session: "poll"), Self.bob, 2)
        counts.add(ExploredRun.Slot(device: "bob-phone", session: "poll"), Self.carol, 2)
        var rows = counts.tallies(deviceRank: ["alice-phone": 0, "bob-phone": 1], sessionRank: ["poll": 0])
        let before = Array(rows)
        #expect(rows == Report.OutcomeTallies(before) && rows.count == 2)
        rows[1].counts[0].runs = 9
        #expect(rows[0] == before[0] && rows[1].counts == [Report.OutcomeCount(shown: Self.carol, runs: 9)])
        #expect(rows != Report.OutcomeTallies(before))
    }
}
