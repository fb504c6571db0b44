import GroupSimBench
import GroupSimScenarios

/// The ratios `groupsim bench` prints beside its absolute figures, with their targets from
/// `Benchmarks/Thresholds.json`: a ratio of two figures measured in one invocation
/// travels between machines, an absolute figure holds only for the machine that printed it.
extension BenchCommand {
    /// The thresholds shipped with the tool; none (ratios printed without targets) when
    /// the file cannot be found or read.
    static func thresholds() -> BenchThresholds {
        guard let text = BundledScenarios.benchThresholds, let read = try? BenchThresholds(json: text) else {
            return BenchThresholds.none
        }
        return read
    }

    /// The line that says which figures travel, and where the targets come from.
    static func machineNote(_ thresholds: BenchThresholds) -> String {
        let source = thresholds.ratios.isEmpty
            ? "Benchmarks/Thresholds.json was not found, so the ratios print without targets"
            : "targets from Benchmarks/Thresholds.json"
        return "absolute figures (per second, seconds, MB) hold for this machine only; the ratios travel (\(source))"
    }

    /// `numerator / denominator`, 0 when the denominator is not positive.
    static func ratio(_ numerator: Double, _ denominator: Double) -> Double {
        denominator > 0 ? numerator / denominator : 0
    }
}
