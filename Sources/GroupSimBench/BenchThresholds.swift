import Foundation

/// The targets of the ratios `groupsim bench` prints, one file for all of them
/// (`Benchmarks/Thresholds.json`, shipped with the tool): a ratio of two figures measured
/// in one invocation travels between machines where the absolute figures do not. bench
/// prints each ratio beside its target, met or not; no test asserts one, since each is
/// still a ratio of times that a loaded machine moves.
package struct BenchThresholds: Sendable, Decodable {
    /// One ratio's target: at least `min`, at most `max`.
    package struct Ratio: Sendable, Decodable {
        package var id: String
        package var figure: String
        package var min: Double?
        package var max: Double?

        /// Whether `value` meets the target.
        package func isMet(by value: Double) -> Bool {
            (min.map { value >= $0 } ?? true) && (max.map { value <= $0 } ?? true)
        }

        /// `target >= 0.40`, `target <= 1.3`.
        package var targetText: String {
            let bounds = [min.map { "target >= \(Self.number($0))" }, max.map { "target <= \(Self.number($0))" }].compactMap { $0 }
            return bounds.isEmpty ? "no target" : bounds.joined(separator: ", ")
        }

        /// `0.4`, `30`: a bound as the file gives it.
        private static func number(_ value: Double) -> String {
            value == value.rounded() ? String(Int(value)) : String(value)
        }
    }

    package var ratios: [Ratio]

    /// The thresholds in `json`; throws what the decoder throws for a file not of this shape.
    package init(json: String) throws {
        self = try JSONDecoder().decode(Self.self, from: Data(json.utf8))
    }

    package subscript(id: String) -> Ratio? { ratios.first { $0.id == id } }

    /// `0.263 (target >= 0.40: not met)`: a ratio with its target from the file, or the
    /// ratio alone when the file has no entry for it.
    package func text(_ id: String, _ value: Double, digits: Int = 3) -> String {
        let shown = String(format: "%.\(digits)f", value)
        guard let ratio = self[id] else { return shown }
        return "\(shown) (\(ratio.targetText): \(ratio.isMet(by: value) ? "met" : "not met"))"
    }
}

extension BenchThresholds {
    /// No thresholds: what bench uses when the file is missing.
    package static let none = BenchThresholds(ratios: [])

    package init(ratios: [Ratio]) { self.ratios = ratios }
}
