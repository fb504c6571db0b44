/// Which runs of a random exploration one process takes: those whose index `i` has
/// `i % count == index`, so `count` processes (or machines) given `0/count` to
/// `count-1/count` share the runs without overlap, and their reports merge into the
/// report of the whole (`ExplorationReport.merge`).
package struct Shard: Sendable, Hashable, CustomStringConvertible {
    /// 0-based, below `count`.
    package let index: Int
    /// How many shards the runs are split into (at least 1).
    package let count: Int

    /// Throws `ExplorationError.invalidShard` unless `0 <= index < count`.
    package init(index: Int, count: Int) throws(ExplorationError) {
        guard count >= 1, index >= 0, index < count else {
            throw .invalidShard("a shard is I/N with 0 <= I < N, found \(index)/\(count)")
        }
        self.index = index
        self.count = count
    }

    /// Reads `I/N` as written on the command line (`--shard 0/4`).
    package init(parsing text: String) throws(ExplorationError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
            throw .invalidShard("a shard is written I/N, such as 0/4, found \"\(text)\"")
        }
        try self.init(index: index, count: count)
    }

    /// `1/4`.
    package var description: String { "\(index)/\(count)" }

    /// Whether run number `run` (0-based) belongs to this shard.
    package func contains(run: Int) -> Bool { run % count == index }

    /// The run numbers below `runs` that belong to this shard, in increasing order.
    package func runs(below runs: Int) -> StrideTo<Int> { stride(from: index, to: max(runs, index), by: count) }
}
