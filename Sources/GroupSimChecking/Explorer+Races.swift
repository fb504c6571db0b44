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
        dependent(a.footprint, b.footprint, store: store)
    }

    static func dependent(_ a: Footprint, _ b: Footprint, store: Int) -> Bool {
        func owner(_ entity: Int) -> Int { entity > store ? entity - store - 1 : entity }
        // Most events belong to one entity: compared without building arrays, as the race
        // search compares every pair of a run's events.
        if a.entities.count == 1, b.entities.count == 1 {
            let shared = owner(a.entities.lowerBound)
            guard shared == owner(b.entities.lowerBound) else { return false }
            return !(shared == store && a.leavesStore && b.leavesStore)
        }
        var sharesAny = false
        var sharesOnlyStore = true
        for mine in a.entities {
            let owned = owner(mine)
            guard b.entities.contains(where: { owner($0) == owned }) else { continue }
            sharesAny = true
            if owned != store { sharesOnlyStore = false }
        }
        guard sharesAny else { return false }
        return !(sharesOnlyStore && a.leavesStore && b.leavesStore)
    }

    /// Whether two events may be swapped, for the race search: they are not dependent,
    /// and neither holds the other back by its window (`blocks`). Two events that may both
    /// run never hold each other back; an event asleep may, against one it never met.
    static func commute(_ a: OrderRecorder.Option, _ b: OrderRecorder.Option, store: Int) -> Bool {
        commute(a.footprint, b.footprint, store: store)
    }

    static func commute(_ a: Footprint, _ b: Footprint, store: Int) -> Bool {
        !dependent(a, b, store: store) && !blocks(a, b) && !blocks(b, a)
    }

    /// Whether `a`, while pending, holds `b` back whatever ran (`OrderRecorder.allowed`):
    /// an event that certainly arrives before a step, a step that certainly comes before
    /// an event, or a step that certainly comes before another (by window, then number).
    /// What `a` makes happens no sooner than `a`, so in every order `a` runs before `b`:
    /// the two never race.
    static func blocks(_ a: OrderRecorder.Option, _ b: OrderRecorder.Option) -> Bool { blocks(a.footprint, b.footprint) }

    static func blocks(_ a: Footprint, _ b: Footprint) -> Bool {
        switch (a.isStep, b.isStep) {
        case (false, true): a.latest < b.earliest
        case (true, false): a.latest <= b.earliest
        case (true, true): (a.latest, a.stepNumber) < (b.earliest, b.stepNumber)
        case (false, false): false
        }
    }

    /// What of an event decides whether it races another (`dependent`, `blocks`): numbers
    /// only, so that the race search compares every pair of a run's events without
    /// copying their names.
    struct Footprint {
        var entities: Range<Int>
        var leavesStore: Bool
        var isStep: Bool
        var earliest: Int64
        var latest: Int64
        var stepNumber: Int
    }
}

extension OrderRecorder.Option {
    /// What of it decides whether it races another event (`Explorer.Footprint`).
    var footprint: Explorer.Footprint {
        Explorer.Footprint(entities: entities, leavesStore: leavesStore, isStep: isStep, earliest: earliest, latest: latest,
                           stepNumber: stepNumber)
    }
}

/// The state of an exhaustive search: the branches still to simulate and what was
/// explored from each point of the run being extended.
///
/// By races (the default): optimal dynamic partial-order reduction, with source sets and
/// wakeup trees (Abdulla, Aronis, Jonsson and Sagonas, "Optimal dynamic partial order
/// reduction", POPL 2014). The search keeps the points of the last run (`Level`): at each,
/// the events that could run, the one taken, its sleep set (events explored from an
/// equivalent point) with the events explored from it before, and its wakeup tree: the
/// sequences still to start from it. After each run it looks for races (two events that
/// do not commute, `Explorer.commute`, the later one not already after the earlier through
/// a third); for each, the sequence that reverses it (the events between that do not wait
/// for the earlier one, then the later one) is inserted into the wakeup tree of the point
/// where the earlier event ran, unless an event asleep there could start it (a weak
/// initial: that order was explored from its own branch) or the tree holds a sequence it
/// extends. The next run replays the deepest point with a sequence left and follows that
/// sequence's leftmost path. Every order is reached, and each by one schedule: a run never
/// ends with every remaining event asleep, and no order is counted twice (each counted
/// order's key, `OrderKey`, is new).
///
/// With `everyAlternative`: every alternative of every run is a branch and a branch or a
/// choice whose key was reached before is pruned (the reference the race search is
/// tested against; it simulates several schedules per order).
struct OrderSearch {
    /// A wakeup tree's node: an event to take, then the sequences to follow it (in order:
    /// the first is taken first).
    struct WakeupNode {
        var event: OrderRecorder.Option
        var children: [WakeupNode] = []
        /// Its nodes, itself included (kept as nodes are added, for the memory count).
        private(set) var size = 1

        /// The events of its leftmost sequence after it, by identity: a run's guide.
        var leftmost: [UInt64] {
            var path: [UInt64] = []
            var next = children.first
            while let node = next {
                path.append(node.event.identity)
                next = node.children.first
            }
            return path
        }

        init(event: OrderRecorder.Option, children: [WakeupNode] = []) {
            self.event = event
            self.children = children
            size = children.reduce(1) { $0 + $1.size }
        }

        /// A chain of nodes, one per event of `events`.
        init?(chain events: some Collection<OrderRecorder.Option>) {
            guard let first = events.first else { return nil }
            event = first
            if let rest = WakeupNode(chain: events.dropFirst()) { children = [rest] }
            size = events.count
        }

        /// Adds `nodes` to its count: they were added below it.
        mutating func grew(by nodes: Int) { size += nodes }
    }

    /// One point of the run being extended (race search).
    struct Level {
        /// The events that could run there (from the run that reached it first).
        var options: [OrderRecorder.Option]
        /// The one the current run takes.
        var chosen: Int
        /// The sleep set when the point was reached.
        var sleep: [OrderRecorder.Option]
        /// The events explored from it before the one taken: asleep for the later ones.
        var done: [OrderRecorder.Option] = []
        /// Its wakeup tree: the sequences still to start from it.
        var tree: [WakeupNode] = []

        /// Every event asleep for what starts here next.
        var asleep: [OrderRecorder.Option] { sleep + done }
    }

    let root: OrderKey
    let everyAlternative: Bool
    /// Reference search: the branches to simulate. The race search keeps only its first.
    private(set) var pending: [Explorer.Branch]
    /// Reference search: the prefix keys reached. Race search: the keys of the orders counted.
    private(set) var visited: Set<OrderKey>
    /// Race search: the points of the run being extended.
    private var levels: [Level] = []
    /// Race search: the wakeup tree below the event the branch being simulated starts with.
    private var started: [WakeupNode] = []
    /// Race search: the nodes of every wakeup tree held.
    private var treeNodes = 0
    /// What the branches to simulate hold, in bytes (`SearchMemory`).
    private var pendingBytes = 0
    /// The most bytes the search may hold: one run leaves a branch per alternative at each
    /// of its decisions, each with its prefix, so a run of thousands of decisions would
    /// leave more than memory holds; `push` stops at the branch that passes this.
    private let budget: Int
    /// What the search held when `push` stopped at the budget (then the search is not
    /// complete, and `heldBytes` stays this, over the budget, whatever is taken off).
    private var passed: Int?
    /// What the search holds (branches, keys, points, wakeup trees), in bytes (`SearchMemory`).
    var heldBytes: Int { passed ?? counted }
    private var counted: Int {
        let options = levels.reduce(0) { $0 + $1.options.count + $1.sleep.count + $1.done.count }
        return pendingBytes + visited.count * SearchMemory.key(root) + levels.count * SearchMemory.level
            + options * SearchMemory.option + treeNodes * SearchMemory.wakeupNode
    }

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
        if everyAlternative {
            while let branch = pending.popLast() {
                pendingBytes -= SearchMemory.branch(branch, root)
                if !branch.prefix.isEmpty {
                    guard visited.insert(branch.key).inserted else { continue }
                }
                return (branch, nil)
            }
            return nil
        }
        if let first = pending.popLast() {
            pendingBytes = 0
            return (first, [])
        }
        // The deepest point with a sequence left: the event it took joins those explored
        // there, and the sequence's first event is taken instead, its tree guiding the run.
        while let depth = levels.lastIndex(where: { !$0.tree.isEmpty }) {
            levels.removeSubrange((depth + 1)...)
            var level = levels[depth]
            let node = level.tree.removeFirst()
            // Its subtree guides the run and is held on; a node skipped drops its subtree.
            treeNodes -= 1
            let taken = level.options[level.chosen]
            if !level.done.contains(where: { $0.identity == taken.identity }) { level.done.append(taken) }
            let asleep = level.asleep
            guard let index = level.options.firstIndex(where: { $0.identity == node.event.identity }),
                  !asleep.contains(where: { $0.identity == node.event.identity }) else {
                treeNodes -= node.size - 1
                levels[depth] = level
                continue
            }
            level.chosen = index
            levels[depth] = level
            started = node.children
            let start = level.options[index]
            let branch = Explorer.Branch(prefix: levels.map(\.chosen), key: root, guide: node.leftmost, start: start)
            return (branch, asleep.filter { Explorer.commute($0, start, store: root.store) })
        }
        return nil
    }

    /// Takes in a run of `branch`: records the points it reached first and the sequences
    /// to explore that it leaves. Returns whether it is an order to count (complete and new).
    mutating func record(_ decisions: [OrderRecorder.Decision], sleeps: [[OrderRecorder.Option]], fresh: [OrderKey], stuckAt: Int?,
                         of branch: Explorer.Branch) -> Bool {
        let taken = Array(decisions.prefix { $0.options.indices.contains($0.chosen) })
        let end = min(stuckAt ?? taken.count, taken.count)
        let replayed = branch.prefix.count
        if everyAlternative {
            var keys = [root]
            for decision in taken { keys.append((keys.last ?? root).extended(with: decision.options[decision.chosen])) }
            visited.formUnion(fresh)
            var wanted: [[Int]] = []
            for depth in min(replayed, end)..<end {
                for index in taken[depth].options.indices where index != taken[depth].chosen { wanted.append([depth, index]) }
            }
            push(wanted, taken: taken, keys: keys)
            return stuckAt == nil
        }
        // The points past the replayed prefix, each with what is left of the tree that
        // guided the run there.
        levels.removeSubrange(min(replayed, levels.count)...)
        var guiding = started
        started = []
        for depth in replayed..<end where sleeps.indices.contains(depth - replayed) {
            let chosen = taken[depth].options[taken[depth].chosen]
            var tree = guiding
            guiding = []
            if let followed = tree.firstIndex(where: { $0.event.identity == chosen.identity }) {
                guiding = tree.remove(at: followed).children
                treeNodes -= 1
            }
            levels.append(Level(options: taken[depth].options, chosen: taken[depth].chosen, sleep: sleeps[depth - replayed],
                                tree: tree))
        }
        // What the run did not reach of the tree that guided it is dropped.
        treeNodes -= guiding.reduce(0) { $0 + $1.size }
        races(taken, after: replayed, end: end)
        guard stuckAt == nil else { return false }
        var key = root
        for decision in taken { key = key.extended(with: decision.options[decision.chosen]) }
        return visited.insert(key).inserted
    }

    /// Reference search: a branch for each (depth, option) pair not reached before.
    private mutating func push(_ wanted: [[Int]], taken: [OrderRecorder.Decision], keys: [OrderKey]) {
        var branches: [Explorer.Branch] = []
        var added = 0
        var seen: Set<OrderKey> = []
        for pair in wanted.sorted(by: { ($0[0], $0[1]) < ($1[0], $1[1]) }) {
            let depth = pair[0], index = pair[1]
            let option = taken[depth].options[index]
            let next = keys[depth].extended(with: option)
            guard !visited.contains(next), seen.insert(next).inserted else { continue }
            let branch = Explorer.Branch(prefix: taken[..<depth].map(\.chosen) + [index], key: next, start: option)
            branches.append(branch)
            added += SearchMemory.branch(branch, root)
            let held = counted.addingReportingOverflow(added)
            if held.overflow || held.partialValue > budget {
                passed = held.overflow ? .max : held.partialValue
                break
            }
        }
        // Popped from the end: the shallowest first.
        pending += branches.reversed()
        pendingBytes += added
    }

    /// Finds the races of the run whose later event is the replayed prefix's last or after
    /// it (the races among the events before it were found by the run that took them
    /// first), and inserts the sequence that reverses each into the wakeup tree of the
    /// point where its earlier event ran.
    private mutating func races(_ taken: [OrderRecorder.Decision], after replayed: Int, end: Int) {
        let events = taken.prefix(end).map { $0.options[$0.chosen] }
        let prints = events.map(\.footprint)
        let store = root.store
        var before = Array(repeating: EventSet(count: events.count), count: events.count)
        // Emptied for each event, not made anew: this runs after every schedule.
        var direct: [Int] = []
        var racing: [Int] = []
        for later in events.indices {
            // Held after what made it, let it run or holds it back by its window: no race
            // there; a race with each earlier event it does not commute with otherwise.
            let event = prints[later]
            let since = events[later].since, madeBy = events[later].madeBy
            direct.removeAll(keepingCapacity: true)
            racing.removeAll(keepingCapacity: true)
            for earlier in events.indices.prefix(later) {
                if earlier == since || earlier == madeBy || Explorer.blocks(prints[earlier], event) {
                    direct.append(earlier)
                } else if !Explorer.commute(prints[earlier], event, store: store) {
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
            for earlier in racing where !through.contains(earlier) && levels.indices.contains(earlier) {
                // The events that do not wait for `earlier`, then `later`.
                let reversal = ((earlier + 1)..<later).filter { !before[$0].contains(earlier) } + [later]
                let initial = { (position: Int) in !reversal.contains { before[reversal[position]].contains($0) } }
                // An event asleep there that could start it: explored from its own branch.
                let starts = { (asleep: OrderRecorder.Option) -> Bool in
                    if let position = reversal.firstIndex(where: { events[$0].identity == asleep.identity }) {
                        return initial(position)
                    }
                    let footprint = asleep.footprint
                    return reversal.allSatisfy { Explorer.commute(footprint, prints[$0], store: store) }
                }
                // `Level.asleep`, without joining the two lists for every race.
                let covered = levels[earlier].sleep.contains(where: starts) || levels[earlier].done.contains(where: starts)
                guard !covered else { continue }
                insert(reversal, at: earlier, events: events, before: before)
            }
        }
    }

    /// Inserts the sequence `reversal` (positions in the run) into the wakeup tree of the
    /// point at `depth`: following the nodes whose event could start what is left of it
    /// (one of its events that waits for none of the others, or one that commutes with
    /// all of them), it stops where a sequence of the tree already covers it (a leaf is
    /// explored to the end whatever it meets), else adds the rest as a new last branch.
    private mutating func insert(_ reversal: [Int], at depth: Int, events: [OrderRecorder.Option], before: [EventSet]) {
        let store = root.store
        var sequence = reversal
        // Started by an event that can run at the point: its first one that waits for none
        // of the others and is offered there.
        let options = levels[depth].options
        guard let first = sequence.indices.first(where: { position in
            options.contains { $0.identity == events[sequence[position]].identity }
                && !sequence.contains { before[sequence[position]].contains($0) }
        }) else {
            // None of them can run there (a window holds them): every event there not
            // explored yet starts a branch of its own.
            let asleep = Set(levels[depth].asleep.map(\.identity) + [levels[depth].options[levels[depth].chosen].identity])
            let wanted = Set(levels[depth].tree.map(\.event.identity))
            for option in levels[depth].options where !asleep.contains(option.identity) && !wanted.contains(option.identity) {
                levels[depth].tree.append(WakeupNode(event: option))
                treeNodes += 1
            }
            return
        }
        sequence.insert(sequence.remove(at: first), at: 0)
        /// Returns how many nodes it added.
        func place(_ sequence: [Int], into nodes: inout [WakeupNode], atRoot: Bool) -> Int {
            guard !sequence.isEmpty, atRoot || !nodes.isEmpty else { return 0 }
            for index in nodes.indices {
                let event = nodes[index].event
                var rest = sequence
                if let position = sequence.firstIndex(where: { events[$0].identity == event.identity }) {
                    guard !sequence.prefix(position).contains(where: { before[sequence[position]].contains($0) }) else { continue }
                    rest.remove(at: position)
                } else if !sequence.allSatisfy({ Explorer.commute(event, events[$0], store: store) }) {
                    continue
                }
                let added = place(rest, into: &nodes[index].children, atRoot: false)
                nodes[index].grew(by: added)
                return added
            }
            guard let chain = WakeupNode(chain: sequence.map { events[$0] }) else { return 0 }
            nodes.append(chain)
            return chain.size
        }
        treeNodes += place(sequence, into: &levels[depth].tree, atRoot: true)
    }
}

/// A set of a run's events by position, as bits: the first 128 in place, any after in an
/// array (a run's events are counted after every schedule, most runs have fewer).
struct EventSet: Sendable {
    private var low: UInt64 = 0
    private var high: UInt64 = 0
    private var rest: [UInt64]

    init(count: Int) { rest = count > 128 ? Array(repeating: 0, count: (count - 128 + 63) / 64) : [] }

    mutating func insert(_ event: Int) {
        if event < 64 {
            low |= 1 << UInt64(event)
        } else if event < 128 {
            high |= 1 << UInt64(event - 64)
        } else {
            rest[(event - 128) / 64] |= 1 << UInt64((event - 128) % 64)
        }
    }

    func contains(_ event: Int) -> Bool {
        if event < 64 { return low & (1 << UInt64(event)) != 0 }
        if event < 128 { return high & (1 << UInt64(event - 64)) != 0 }
        return rest[(event - 128) / 64] & (1 << UInt64((event - 128) % 64)) != 0
    }

    mutating func formUnion(_ other: EventSet) {
        low |= other.low
        high |= other.high
        for index in rest.indices { rest[index] |= other.rest[index] }
    }

    func intersects(_ other: EventSet) -> Bool {
        low & other.low != 0 || high & other.high != 0 || rest.indices.contains { rest[$0] & other.rest[$0] != 0 }
    }
}
