import GroupSimCore
import GroupSimScenario

/// Why an exploration could not be carried out, or its reports could not be merged.
public enum ExplorationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `--exhaustive` refused up front: the estimated number of distinct delivery orders
    /// is over the limit.
    case tooManyOrders(scenario: String, estimate: Double, limit: Int)
    /// `--exhaustive` gave up while searching: more schedules simulated than the limit
    /// allows (the estimate was too low, as it can be when steps move in time).
    case searchTooLong(scenario: String, simulated: Int, limit: Int)
    /// A shard that is not I/N with 0 <= I < N.
    case invalidShard(String)
    /// A report (JSON) that cannot be read back.
    case invalidReport(String)
    /// Reports that are not shards of one exploration.
    case mismatchedReports(String)
    /// Shard reports of one exploration that do not cover every shard (merge refuses
    /// them unless asked for a partial merge): what they cover, of how many runs.
    case missingShards(covered: ExplorationReport.ShardCoverage, requestedRuns: Int)
    /// The scenario is invalid (`Scenario.validate`): nothing was run.
    case invalidScenario(ScenarioErrors)

    public var description: String {
        switch self {
        case .tooManyOrders(let scenario, let estimate, let limit):
            "\(scenario) has too many delivery orders to enumerate: an estimated \(Self.format(estimate)), over the limit of \(limit); "
                + "explore it with --runs N instead, or raise --limit"
        case .searchTooLong(let scenario, let simulated, let limit):
            "\(scenario): gave up enumerating delivery orders after simulating \(simulated) schedules (limit \(limit)); explore it with "
                + "--runs N instead, or raise --limit"
        case .invalidShard(let message), .invalidReport(let message), .mismatchedReports(let message):
            message
        case .missingShards(let covered, let requested):
            "\(covered.missingDescription()): the reports cover \(covered.indices.count == 1 ? "shard" : "shards") \(covered) of "
                + "\(requested) runs"
        case .invalidScenario(let errors):
            errors.description
        }
    }

    /// A count for people, as reports print counts (`ExactCount.readable`): whole up to 15
    /// digits, else four significant digits and a power of ten (`3.600 × 10^21`).
    static func format(_ count: Double) -> String {
        guard count.isFinite else { return "more than 10^308" }
        guard count >= Double(Int.max) else { return ExactCount(Int(count.rounded())).readable }
        // A double this large is a whole number: its significand times a power of two.
        var exact = ExactCount(UInt64(count.significandBitPattern | (1 << 52)))
        var shift = Int(count.exponent) - 52
        while shift > 0 {
            let step = min(shift, 62)
            exact *= ExactCount(UInt64(1) << UInt64(step))
            shift -= step
        }
        return exact.readable
    }
}
