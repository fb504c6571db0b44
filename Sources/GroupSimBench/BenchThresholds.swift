import Foundation
import GroupSimCore

/// The targets `groupsim bench` prints, one file for all of them
/// (`Benchmarks/Thresholds.json`, shipped with the tool): the ratios, which travel between
/// machines because both figures are measured in one invocation, and the limits of
/// `bench --scale` and the vote on absolute figures (seconds, MB, runs/s), which hold for
/// the machine the targets were set on. bench prints each figure beside its target, met
/// or not; no test asserts one, since a loaded machine moves every time.
package struct BenchThresholds: Sendable, Decodable {
    /// One figure's target: at least `min`, at most `max`, in `unit` (none for a ratio).
    package struct Ratio: Sendable, Decodable {
        package var id: String
        package var figure: String
        package var min: Double?
        package var max: Double?
        package var unit: String?

        /// Whether `value` meets the target.
        package func isMet(by value: Double) -> Bool {
            (min.map { value >= $0 } ?? true) && (max.map { value <= $0 } ?? true)
        }

        /// `target >= 0.40`, `target <= 10 s`.
        package var targetText: String {
            let suffix = unit.map { " \($0)" } ?? ""
            let bounds = [min.map { "target >= \(Self.number($0))\(suffix)" }, max.map { "target <= \(Self.number($0))\(suffix)" }]
                .compactMap { $0 }
            return bounds.isEmpty ? "no target" : bounds.joined(separator: ", ")
        }

        /// `0.4`, `30`, `100,000`: a bound as the file gives it.
        private static func number(_ value: Double) -> String {
            value == value.rounded() && abs(value) < 1e15 ? Int(value).grouped : String(value)
        }
    }

    package var ratios: [Ratio]
    /// The targets on absolute figures (`bench --scale`, the vote).
    package var limits: [Ratio] = []

    /// The thresholds in `json`; throws what the decoder throws for a file not of this shape.
    package init(json: String) throws {
        self = try JSONDecoder().decode(Self.self, from: Data(json.utf8))
    }

    private enum CodingKeys: String, CodingKey { case ratios, limits }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        ratios = try container.decode([Ratio].self, forKey: .ratios)
        limits = try container.decodeIfPresent([Ratio].self, forKey: .limits) ?? []
    }

    package subscript(id: String) -> Ratio? { ratios.first { $0.id == id } ?? limits.first { $0.id == id } }

    /// `target <= 10 s: met`: the target of the figure `id` and whether `value` meets
    /// it; nil when the file has no entry for it.
    package func verdict(_ id: String, _ value: Double) -> String? {
        self[id].map { "\($0.targetText): \($0.isMet(by: value) ? "met" : "not met")" }
    }

    /// `0.263 (target >= 0.40: not met)`: a ratio with its target from the file, or the
    /// ratio alone when the file has no entry for it.
    package func text(_ id: String, _ value: Double, digits: Int = 3) -> String {
        let shown = String(format: "%.\(digits)f", value)
        return verdict(id, value).map { "\(shown) (\($0))" } ?? shown
    }
}

extension BenchThresholds {
    /// No thresholds: what bench uses when the file is missing.
    package static let none = BenchThresholds(ratios: [])

    package init(ratios: [Ratio]) { self.ratios = ratios }
}
