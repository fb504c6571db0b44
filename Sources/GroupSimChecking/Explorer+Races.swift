import GroupSimCore

extension Explorer {
    /// One way on from a run: a prefix of choices to replay, then the events to follow
    /// (`guide`, by `OrderRecorder.Option.identity`); `start` is the prefix's last event.
    struct Branch {
        var prefix: [Int]
        var key: OrderKey
        var guide: [UInt64] = []
        var start: OrderRecorder.Option?
    }

    /// Whether two events of a run may not be swapped: they share a device or the store
    /// (a copy held for a device counting as the device's; a `join` or `leave` is every
    /// device's), unless both are requests that leave the store as it is. A step and an
    /// event of different devices swap like two events: when both may run, running one
    /// never holds the other back (what an event makes happens no sooner than it), and
    /// the events each adds have the same windows either way. Which steps and events may
    /// run at all depends on the windows (`blocks`), which order them without a race.
    static func dependent(_ a: OrderRecorder.Option, _ b: OrderRecorder.Option, store: Int) -> Bool {
        func owner(_ entity: Int) -> Int { entity > store ? entity - store - 1 : entity }
        let shared = a.entities.map(owner).filter { b.entities.map(owner).contains($0) }
        guard !shared.isEmpty else { return false }
        return !(shared.allSatisfy { $0 == store } && a.leavesStore && b.leavesStore)
    }

    /// Whether `a`, while pending, holds `b` back whatever ran (`OrderRecorder.allowed`):
    /// an event that certainly arrives before a step, a step that certainly comes before
    /// an event, or a step that certainly comes before another (by window, then number).
    /// What `a` makes happens no sooner than `a`, so in every order `a` runs before `b`:
    /// the two never race.
    static func blocks(_ a: OrderRecorder.Option, _ b: OrderRecorder.Option) -> Bool {
        switch (a.isStep, b.isStep) {
        case (false, true): a.latest < b.earliest
        case (true, false): a.latest <= b.earliest
        case (true, true): (a.latest, a.stepNumber) < (b.earliest, b.stepNumber)
        case (false, false): false
        }
    }
}

/// The state of an exhaustive search: the branches still to simulate and, per point
/// reached (a prefix of choices), what was explored from it.
///
/// By races (the default): dynamic partial-order reduction with source sets and sleep sets
/// (Flanagan and Godefroid 2005; Abdulla, Aronis, Jonsson and Sagonas 2014). A run takes, at
/// each point, the first event not asleep. Afterwards, for each race in it (two events
/// that do not commute, `Explorer.dependent`, the later one not already after the earlier
/// through a third), a branch at the earlier event's point starts the reversed order:
/// with the later event, or one of the events it waits for that do not wait for the
/// earlier one, followed by the rest of them (the guide), unless one of those starting
/// events is explored or wanted there already. A branch runs with the sleep set of its
/// point plus the events explored there before it that commute with its first event: the
/// orders that begin with those were explored from their own branch. So an order
/// equivalent to an explored one is rarely simulated (only when every event left is
/// asleep), and never counted twice: each counted order's key (`OrderKey`) is new.
///
/// With `everyAlternative`: every alternative of every run is a branch and a branch or a
/// choice whose key was reached before is pruned (the reference the race search is
/// tested against; it simulates several schedules per order).
struct OrderSearch {
    /// What is known of one point: its sleep set when first reached, the events started
    /// from it, and those started or waiting to be (by identity).
    struct Point {
        var sleep: [OrderRecorder.Option] = []
        var done: [OrderRecorder.Option] = []
        var wanted: Set<UInt64> = []
    }

    let root: OrderKey
    let everyAlternative: Bool
    private(set) var pending: [Explorer.Branch]
    /// Reference search: the prefix keys reached. Race search: the keys of the orders counted.
    private(set) var visited: Set<OrderKey>
    private var points: [UInt64: Point] = [:]
    /// What the branches to simulate hold, in bytes (`SearchMemory`).
    private var pendingBytes = 0
    /// The most bytes the search may hold: one run leaves a branch per alternative at each
    /// of its decisions, each with its prefix, so a run of thousands of decisions would
    /// leave more than memory holds; `push` stops at the branch that passes this.
    private let budget: Int
    /// What the search held when `push` stopped at the budget (then the search is not
    /// complete, and `heldBytes` stays this, over the budget, whatever is taken off).
    private var passed: Int?
    /// What the search holds (branches, keys, points), in bytes (`SearchMemory`).
    var heldBytes: Int { passed ?? counted }
    private var counted: Int { pendingBytes + visited.count * SearchMemory.key(root) + points.count * SearchMemory.point }

    init(root: OrderKey, everyAlternative: Bool, budget: Int = .max) {
        self.root = root
        self.everyAlternative = everyAlternative
        self.budget = budget
        pending = [Explorer.Branch(prefix: [], key: root)]
        visited = everyAlternative ? [root] : []
        pendingBytes = SearchMemory.branch(pending[0], root)
    }

    /// The next branch to simulate, with its sleep set (nil for the reference search).
    mutating func next() -> (branch: Explorer.Branch, sleep: [OrderRecorder.Option]?)? {
        while let branch = pending.popLast() {
            pendingBytes -= SearchMemory.branch(branch, root)
            if everyAlternative {
                if !branch.prefix.isEmpty {
                    guard visited.insert(branch.key).inserted else { continue }
                }
                return (branch, nil)
            }
            guard let start = branch.start else { return (branch, []) }
            let at = Self.pathHash(branch.prefix.dropLast())
            var point = points[at] ?? Point()
            // Explored from here already, or asleep here: an equivalent order was explored.
            guard !(point.done + point.sleep).contains(where: { $0.identity == start.identity }) else { continue }
            let sleep = (point.sleep + point.done).filter { !Explorer.dependent($0, start, store: root.store) }
            point.done.append(start)
            point.wanted.insert(start.identity)
            points[at] = point
            return (branch, sleep)
        }
        return nil
    }

    /// Takes in a run of `branch`: records the points it reached first and pushes the
    /// branches it leaves. Returns whether it is an order to count (complete and new).
    mutating func record(_ decisions: [OrderRecorder.Decision], sleeps: [[OrderRecorder.Option]], fresh: [OrderKey], stuckAt: Int?,
                         of branch: Explorer.Branch) -> Bool {
        let taken = Array(decisions.prefix { $0.options.indices.contains($0.chosen) })
        let end = min(stuckAt ?? taken.count, taken.count)
        let replayed = branch.prefix.count
        var keys = [root]
        for decision in taken { keys.append((keys.last ?? root).extended(with: decision.options[decision.chosen])) }
        if everyAlternative {
            visited.formUnion(fresh)
            var wanted: [[Int]] = []
            for depth in min(replayed, end)..<end {
                for index in taken[depth].options.indices where index != taken[depth].chosen { wanted.append([depth, index]) }
            }
            push(wanted, taken: taken, keys: keys, guides: [:], deepestFirst: false)
            return stuckAt == nil
        }
        var hashes = [Self.pathHash([])]
        for decision in taken { hashes.append(Self.step(hashes.last ?? 0, decision.chosen)) }
        for depth in replayed..<end where sleeps.indices.contains(depth - replayed) {
            let chosen = taken[depth].options[taken[depth].chosen]
            points[hashes[depth]] = Point(sleep: sleeps[depth - replayed], done: [chosen], wanted: [chosen.identity])
        }
        let (wanted, guides) = races(taken, after: replayed, end: end, hashes: hashes)
        push(wanted, taken: taken, keys: keys, guides: guides, deepestFirst: true)
        guard stuckAt == nil, let last = keys.last else { return false }
        return visited.insert(last).inserted
    }

    private mutating func push(_ wanted: [[Int]], taken: [OrderRecorder.Decision], keys: [OrderKey], guides: [[Int]: [UInt64]],
                               deepestFirst: Bool) {
        var branches: [Explorer.Branch] = []
        var added = 0
        var seen: Set<OrderKey> = []
        for pair in wanted.sorted(by: { ($0[0], $0[1]) < ($1[0], $1[1]) }) {
            let depth = pair[0], index = pair[1]
            let option = taken[depth].options[index]
            let next = keys[depth].extended(with: option)
            if everyAlternative {
                guard !visited.contains(next), seen.insert(next).inserted else { continue }
            }
            let branch = Explorer.Branch(prefix: taken[..<depth].map(\.chosen) + [index], key: next, guide: guides[pair] ?? [],
                                         start: option)
            branches.append(branch)
            added += SearchMemory.branch(branch, root)
            let held = counted.addingReportingOverflow(added)
            if held.overflow || held.partialValue > budget {
                passed = held.overflow ? .max : held.partialValue
                break
            }
        }
        // Popped from the end: the deepest first (race search), or the shallowest first.
        pending += deepestFirst ? branches : branches.reversed()
        pendingBytes += added
    }

    /// The (depth, option) pairs that reverse each race of the run whose later event is
    /// the replayed prefix's last or after it (the races among the events before it were
    /// found by the run that took them first), with the rest of each reversal.
    private mutating func races(_ taken: [OrderRecorder.Decision], after replayed: Int, end: Int,
                                hashes: [UInt64]) -> ([[Int]], [[Int]: [UInt64]]) {
        // Events still pending when the run's decisions end (copies that factoring orders
        // in the tail, after everything else) race with what ran before them too.
        var events = taken.map { $0.options[$0.chosen] }
        let ran = Set(events.map(\.identity))
        var left: [UInt64: OrderRecorder.Option] = [:]
        var order: [UInt64] = []
        for decision in taken {
            for option in decision.options where !ran.contains(option.identity) {
                if left.updateValue(option, forKey: option.identity) == nil { order.append(option.identity) }
            }
        }
        events += order.compactMap { left[$0] }
        let store = root.store
        var before = Array(repeating: EventSet(count: events.count), count: events.count)
        var wanted: [[Int]] = []
        var guides: [[Int]: [UInt64]] = [:]
        for later in events.indices {
            // The pending ones arrive in any order among themselves (factoring counts those).
            // Held after what made it, let it run or holds it back by its window: no race
            // there; a race with each earlier event it does not commute with otherwise.
            let event = events[later]
            var direct: [Int] = []
            var racing: [Int] = []
            for earlier in events.indices.prefix(min(later, taken.count)) {
                if earlier == event.since || earlier == event.madeBy || Explorer.blocks(events[earlier], event) {
                    direct.append(earlier)
                } else if Explorer.dependent(events[earlier], event, store: store) {
                    direct.append(earlier)
                    racing.append(earlier)
                }
            }
            var through = EventSet(count: events.count)
            var closure = EventSet(count: events.count)
            for other in direct {
                through.formUnion(before[other])
                closure.formUnion(before[other])
                closure.insert(other)
            }
            before[later] = closure
            guard later + 1 >= replayed else { continue }
            for earlier in racing where !through.contains(earlier) {
                // The events that do not wait for `earlier`, then `later`: the reversal's
                // starting events are those among them that wait for none of the others.
                var reversal = EventSet(count: events.count)
                let between = ((earlier + 1)..<later).filter { !before[$0].contains(earlier) }
                for event in between { reversal.insert(event) }
                let starts = (between + [later]).filter { !before[$0].intersects(reversal) }
                guard let pairs = reversalStart(starts.map { events[$0].identity }, at: earlier, taken: taken, end: end,
                                                hashes: hashes) else { continue }
                wanted += pairs
                // Started where the earlier event ran: the rest of the reversal follows.
                if let pair = pairs.first, pairs.count == 1, pair[0] == earlier {
                    let first = taken[earlier].options[pair[1]].identity
                    var rest = (between + [later]).map { events[$0].identity }
                    if let index = rest.firstIndex(of: first) { rest.remove(at: index) }
                    guides[pair] = rest
                }
            }
        }
        return (wanted, guides)
    }

    /// Where to start the reversal of a race whose earlier event ran at `depth`: nil when
    /// a starting event is explored or wanted there already. Where none of them could
    /// run at that point, the latest earlier point where one could; failing that, every
    /// alternative at the point.
    private mutating func reversalStart(_ identities: [UInt64], at depth: Int, taken: [OrderRecorder.Decision], end: Int,
                                        hashes: [UInt64]) -> [[Int]]? {
        for point in stride(from: depth, through: 0, by: -1) {
            let options = taken[point].options
            let starting = options.indices.filter { identities.contains(options[$0].identity) }
            guard let first = starting.first else { continue }
            guard point < end, var known = points[hashes[point]] else { return nil }
            // Explored or wanted from here, or asleep here (explored from an equivalent point).
            if starting.contains(where: { index in known.wanted.contains(options[index].identity)
                || known.sleep.contains { $0.identity == options[index].identity } }) { return nil }
            known.wanted.insert(options[first].identity)
            points[hashes[point]] = known
            return [[point, first]]
        }
        guard depth < end, var known = points[hashes[depth]] else { return nil }
        let options = taken[depth].options
        let fresh = options.indices.filter { !known.wanted.contains(options[$0].identity) }
        for index in fresh { known.wanted.insert(options[index].identity) }
        points[hashes[depth]] = known
        return fresh.map { [depth, $0] }
    }

    /// A point's name: a hash of the choices that reach it.
    static func pathHash(_ choices: some Sequence<Int>) -> UInt64 { choices.reduce(0x243F_6A88_85A3_08D3) { step($0, $1) } }

    static func step(_ hash: UInt64, _ choice: Int) -> UInt64 { SplitMix64.mix(hash ^ UInt64(truncatingIfNeeded: choice &+ 1)) }
}

/// A set of a run's events by position, as bits.
struct EventSet: Sendable {
    private var words: [UInt64]

    init(count: Int) { words = Array(repeating: 0, count: (count + 63) / 64) }

    mutating func insert(_ event: Int) { words[event / 64] |= 1 << UInt64(event % 64) }

    func contains(_ event: Int) -> Bool { words[event / 64] & (1 << UInt64(event % 64)) != 0 }

    mutating func formUnion(_ other: EventSet) {
        for index in words.indices { words[index] |= other.words[index] }
    }

    func intersects(_ other: EventSet) -> Bool { words.indices.contains { words[$0] & other.words[$0] != 0 } }
}
