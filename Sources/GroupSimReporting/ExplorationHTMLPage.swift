import GroupSimCore
import GroupSimScenario
import GroupSimSimulation
import GroupSimChecking

/// The HTML page of `explore` and `merge`: `ExplorationHTMLReport` with each failing
/// outcome's first run replayed, so the page embeds that run's text report and its page.
package enum ExplorationHTMLPage {
    /// Replays the first run of each failing outcome when `scenario` is known (random
    /// explorations only: an exhaustive order is not a seed).
    package static func render(_ report: ExplorationReport, scenario: Scenario?, apps: AppRegistry) async -> String {
        var failing = ExplorationHTMLReport.failingOutcomes(report)
        if let scenario, case .random = report.mode {
            for index in failing.indices {
                // A scenario that explored is valid; were it not, the page goes without the run.
                guard let run = try? await scenario.run(seed: failing[index].run.seed, apps: apps) else { continue }
                failing[index].runReport = TextReport.render(run)
                failing[index].runPage = HTMLReport.render(run)
            }
        }
        return ExplorationHTMLReport.render(report, failing: failing)
    }
}
