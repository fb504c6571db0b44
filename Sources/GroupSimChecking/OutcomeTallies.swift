extension ExplorationReport {
    /// A report's outcome rows (`outcomes`): per device and session, what it showed in how
    /// many runs. A collection of `OutcomeTally` values, read, changed, compared and hashed
    /// as an array of them would be.
    ///
    /// A report made by exploration reads its rows from the tally's own table as they are
    /// asked for instead of holding one `OutcomeTally` per row: a 1,000-device group with
    /// 10,000 sessions has 10 million rows, 400 MB as values. The first change to a row
    /// turns the rows into values; a report read from JSON or built by hand holds values.
    public struct OutcomeTallies: RandomAccessCollection, MutableCollection, ExpressibleByArrayLiteral, Sendable, Hashable {
        public typealias Index = Int
        public typealias Element = OutcomeTally

        private enum Storage: Sendable {
            case values([OutcomeTally])
            /// Rows of a tally's table, in `order` (positions in the table), or in the
            /// table's own order when nil.
            case counted(OutcomeCounts, names: OutcomeNames, order: [Int32]?)
        }

        private var storage: Storage

        public init(_ rows: [OutcomeTally]) { storage = .values(rows) }

        public init(arrayLiteral rows: OutcomeTally...) { storage = .values(rows) }

        init(counts: OutcomeCounts, names: OutcomeNames, order: [Int32]?) {
            storage = .counted(counts, names: names, order: order)
        }

        public var startIndex: Int { 0 }

        public var endIndex: Int {
            switch storage {
            case .values(let rows): rows.count
            case .counted(let counts, _, let order): order?.count ?? counts.rowCount
            }
        }

        public subscript(position: Int) -> OutcomeTally {
            get {
                switch storage {
                case .values(let rows): rows[position]
                case .counted(let counts, let names, let order): counts.tally(at: order.map { Int($0[position]) } ?? position, names: names)
                }
            }
            set {
                var rows: [OutcomeTally]
                if case .values(let kept) = storage { rows = kept } else { rows = Array(self) }
                // Let go of the old storage first, so that the array is changed in place.
                storage = .values([])
                rows[position] = newValue
                storage = .values(rows)
            }
        }

        /// `summary(sessions:)` read from the tally's table where the rows are read from
        /// one (the order of the rows does not change it); nil for rows held as values.
        func countedSummary(sessions: Set<String>) -> OutcomeSummary? {
            guard case .counted(let counts, _, _) = storage else { return nil }
            return counts.summary(sessions: sessions)
        }

        public static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.count == rhs.count && lhs.indices.allSatisfy { lhs[$0] == rhs[$0] }
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(count)
            for row in self { hasher.combine(row) }
        }
    }
}
