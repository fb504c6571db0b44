import GroupSimCore
import GroupSimScenario
import GroupSimSimulation

/// Checks code GroupSim does not control for determinism, the way FoundationDB's
/// simulator checks itself: run one seed twice and compare.
///
/// A scenario whose app is registered from Swift runs the user's controller, which may
/// read the wall clock, call `UUID()`, draw from the system's random generator, start
/// work on a queue or thread of its own, or keep state that every simulated device
/// shares. Then one seed no longer gives one run, and a verdict or a replay line means
/// nothing. `groupsim run`, `explore` and `test` run such a scenario's seeds twice (with
/// the trace on) and refuse the result when the runs differ, naming the first event
/// where they parted.
package enum DeterminismCheck {
    /// Two runs of one seed that came out differently, and where they parted.
    package struct Divergence: Error, Sendable, Hashable, CustomStringConvertible {
        package var scenario: String
        package var seed: UInt64
        /// Where the runs parted, in one line (`event 14 of 212, at 2.345s on bob-phone`).
        package var place: String
        /// What each run had there.
        package var first: String
        package var second: String
        /// What the exploration this check follows had recorded for the seed, when the
        /// difference is between it and the runs made again.
        package var context: String?

        package var description: String { summary + "\n" + Self.advice }

        /// What differed, without the advice: four lines.
        package var summary: String {
            var text = "the app is not deterministic: seed \(seed) of \(scenario) gave two different runs"
            if let context { text += " (\(context))" }
            return text + ".\n  They parted at \(place):\n    first run:  \(first)\n    second run: \(second)"
        }

        /// The likely causes and the remedy, the same for every divergence.
        package static let advice = """
              Likely causes, in the app's own code: an `await` on something GroupSim does not sequence
              (a DispatchQueue or Thread of the app's own, Task.sleep, a timer), UUID(), Date(), random
              numbers from the system generator, or state shared between devices (a static, a singleton,
              a global). GroupSim sequences the app's tasks only when they start or resume inside one of
              its calls (a callback, a completion handler, an async form).
              Remedy: draw tokens from `environment.makeToken()` and numbers from `environment.random`,
              reach every shared service through `ExtensionEnvironment`, and keep the app's async work on
              the main actor or on its own actors and async functions. docs/extensions.md, "Determinism",
              walks through each cause. --no-determinism-check skips this check (verdicts may then
              change from run to run).
            """
    }

    /// Whether `scenario` runs code GroupSim does not control: an app registered from Swift.
    package static func applies(to scenario: ValidatedScenario, apps: AppRegistry) -> Bool {
        guard let name = scenario.app.name else { return false }
        return apps.names.contains(name)
    }

    /// Runs `seed` once more with the trace on and compares it with `outcome`, a traced run
    /// of the same seed: nil when they agree.
    package static func compare(_ outcome: RunOutcome, rerunning scenario: ValidatedScenario,
                                apps: AppRegistry) async throws(ScenarioErrors) -> Divergence? {
        let again = try await Simulation(scenario, seed: outcome.seed, apps: apps).run()
        return difference(outcome, again)
    }

    /// Runs `seed` twice with the trace on: the first run's report, or where the two parted.
    package static func twice(_ scenario: ValidatedScenario, seed: UInt64,
                              apps: AppRegistry) async throws(ScenarioErrors) -> Result<RunReport, Divergence> {
        let first = try await Simulation(scenario, seed: seed, apps: apps).run()
        if let divergence = try await compare(first, rerunning: scenario, apps: apps) { return .failure(divergence) }
        return .success(RunReport(outcome: first))
    }

    /// The first difference between two runs of one seed, or nil when their digests agree
    /// and nothing outside the digest (a device's storage) differs either.
    package static func difference(_ first: RunOutcome, _ second: RunOutcome) -> Divergence? {
        let parts = firstDifference(first, second)
        guard let parts else { return nil }
        return Divergence(scenario: first.scenario.name, seed: first.seed, place: parts.place, first: parts.first,
                          second: parts.second)
    }

    /// The most runs of an exploration that `verify(_:scenario:apps:)` runs again: the
    /// failing runs the report keeps (each printed with its replay line) and a sample of
    /// passing ones.
    package static let passingSample = 2

    /// Runs again, twice each, the seeds an exploration report prints (its failing runs,
    /// or for an exhaustive search the scenario's own seed) and a sample of its other
    /// runs: nil when each pair agrees and each failing run fails the same checks again.
    package static func verify(_ report: ExplorationReport, scenario: ValidatedScenario,
                               apps: AppRegistry) async throws(ScenarioErrors) -> Divergence? {
        guard case .random(let base, let requested) = report.mode else {
            if case .failure(let divergence) = try await twice(scenario, seed: scenario.seed, apps: apps) { return divergence }
            return nil
        }
        let failing = Set(report.failures.map(\.reference.run))
        let passing = (0..<requested).lazy.filter { !failing.contains($0) }.prefix(passingSample)
        for run in passing {
            let seed = Explorer.seed(forRun: run, base: base)
            if case .failure(let divergence) = try await twice(scenario, seed: seed, apps: apps) { return divergence }
        }
        for failure in report.failures {
            switch try await twice(scenario, seed: failure.reference.seed, apps: apps) {
            case .failure(var divergence):
                divergence.context = "run \(failure.reference.run) of the exploration"
                return divergence
            case .success(let again):
                let failedAgain = again.checks.indices.filter { !again.checks[$0].passed }
                let unexpectedAgain = again.unexpectedFailures.map(\.text)
                guard failedAgain != failure.failedChecks || unexpectedAgain != failure.unexpected else { continue }
                let verdict = { (failed: [Int], unexpected: [String]) -> String in
                    let checks = failed.map { $0 < report.checks.count ? report.checks[$0].text : "check \($0 + 1)" }
                    let all = checks + unexpected
                    return all.isEmpty ? "every check held" : "failed " + all.joined(separator: "; ")
                }
                return Divergence(scenario: scenario.name, seed: failure.reference.seed, place: "the verdict",
                                  first: "in the exploration (run \(failure.reference.run)): "
                                      + verdict(failure.failedChecks, failure.unexpected),
                                  second: "run again: " + verdict(failedAgain, unexpectedAgain),
                                  context: "run \(failure.reference.run) of the exploration")
            }
        }
        return nil
    }

    // MARK: - Finding where two runs parted

    private typealias Parting = (place: String, first: String, second: String)

    private static func firstDifference(_ first: RunOutcome, _ second: RunOutcome) -> Parting? {
        if let parting = tracesParting(first.trace.events, second.trace.events) { return parting }
        for (left, right) in zip(first.devices, second.devices) {
            if let parting = devicesParting(left, right) { return parting }
        }
        if first.devices.count != second.devices.count {
            return ("the devices", "\(first.devices.count) devices", "\(second.devices.count) devices")
        }
        if let parting = listsParting("the cloud store's records", first.cloud.map(recordText), second.cloud.map(recordText)) {
            return parting
        }
        if let parting = listsParting("the step failures", first.failures.map(failureText), second.failures.map(failureText)) {
            return parting
        }
        let members = { (outcome: RunOutcome) in outcome.members.map { "\($0.conversation): \($0.members.joined(separator: ", "))" } }
        if let parting = listsParting("the members", members(first), members(second)) { return parting }
        if first.quiet != second.quiet {
            return ("the end of the run", first.quiet ? "went quiet" : "hit the event limit",
                    second.quiet ? "went quiet" : "hit the event limit")
        }
        // Everything compared above agrees; the digest covers nothing else.
        guard first.digest != second.digest else { return nil }
        return ("the trace digest", first.digest, second.digest)
    }

    private static func tracesParting(_ first: [Simulation.Trace.Event], _ second: [Simulation.Trace.Event]) -> Parting? {
        for index in 0..<max(first.count, second.count) {
            let left = index < first.count ? first[index] : nil
            let right = index < second.count ? second[index] : nil
            guard left != right else { continue }
            let shown = left ?? right
            var place = "event \(index + 1) of \(first.count)"
            if second.count != first.count { place += " (\(second.count) in the second run)" }
            if let shown { place += ", at \(shown.time) on \(shown.subject)" }
            return (place, left.map(eventText) ?? "(the run had ended)", right.map(eventText) ?? "(the run had ended)")
        }
        return nil
    }

    private static func eventText(_ event: Simulation.Trace.Event) -> String {
        "\(event.time) \(event.subject) \(event.printedText)"
    }

    private static func devicesParting(_ first: DeviceSnapshot, _ second: DeviceSnapshot) -> Parting? {
        let name = first.name
        if let parting = listsParting("\(name)'s identifiers", first.identifiers.map { "\($0.person) \($0.id.uuidString)" },
                                      second.identifiers.map { "\($0.person) \($0.id.uuidString)" }) { return parting }
        if let parting = listsParting("\(name)'s callbacks", first.callbacks.map(\.rawValue), second.callbacks.map(\.rawValue)) {
            return parting
        }
        let entries = { (device: DeviceSnapshot) in
            device.transcripts.flatMap { transcript in transcript.entries.map { "\(transcript.conversation): \(entryText($0))" } }
        }
        if let parting = listsParting("\(name)'s transcript", entries(first), entries(second)) { return parting }
        let drafts = { (device: DeviceSnapshot) in device.drafts.map { "\($0.conversation): \($0.message.url ?? "-")" } }
        if let parting = listsParting("\(name)'s draft", drafts(first), drafts(second)) { return parting }
        let storage = { (device: DeviceSnapshot) in device.localStorage.keys.sorted().map { "\($0) = \(device.localStorage[$0] ?? "")" } }
        return listsParting("\(name)'s storage", storage(first), storage(second))
    }

    private static func entryText(_ entry: DeviceSnapshot.DrawnEntry) -> String {
        var text = "\(entry.kind.rawValue) m\(entry.message) from \(entry.senderPerson)"
        if let session = entry.session { text += " session=\(session)" }
        if let caption = entry.text { text += " \"\(caption)\"" }
        if let url = entry.url { text += " url=\(url)" }
        return text
    }

    private static func recordText(_ record: RunOutcome.CloudEntry) -> String {
        "\(record.key) v\(record.version) \(record.state.entries.map { "\($0.key)=\($0.value)" }.joined(separator: "&"))"
    }

    private static func failureText(_ failure: RunOutcome.StepFailure) -> String {
        "step \(failure.step.map(String.init) ?? "-") on \(failure.device) at \(failure.time): \(failure.code.name)"
    }

    /// The first position where two lists of lines differ, named after `what`.
    private static func listsParting(_ what: String, _ first: [String], _ second: [String]) -> Parting? {
        for index in 0..<max(first.count, second.count) {
            let left = index < first.count ? first[index] : nil
            let right = index < second.count ? second[index] : nil
            guard left != right else { continue }
            return ("\(what), entry \(index + 1)", left ?? "(none)", right ?? "(none)")
        }
        return nil
    }
}
