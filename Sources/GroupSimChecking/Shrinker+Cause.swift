import GroupSimScenario
import GroupSimSimulation

extension Shrinker {
    /// What made the original run fail its check, which a smaller scenario must keep so
    /// that it fails for the same reason and not trivially (a `complete` check fails
    /// at once when nobody writes the entry it expects at all).
    ///
    /// Taken from the original run's report:
    /// - `complete` and `latest` with `data`: the entries some change of the session
    ///   wrote (`RunOutcome.changes`); each must still be written (M12: an update that
    ///   is lost, not one never made).
    /// - `latest` with `from`: when that person sent in the session, they still must.
    /// - `no-pitfalls`: the first pitfall reported must still be reported.
    /// Other checks keep nothing beyond failing.
    struct FailureCause: Sendable {
        var writtenEntries: [Scenario.DataEntry] = []
        var session: String?
        var sender: String?
        var pitfall: Scenario.PitfallKind?

        init(check: Scenario.Check, report: RunReport) {
            let outcome = report.outcome
            switch check {
            case .complete(let session, let data), .latest(_, let session, _, let data, _, _):
                self.session = session
                writtenEntries = data.filter { Self.wrote($0, in: session, outcome) }
                if case .latest(_, _, let from?, _, _, _) = check, Self.sent(from, in: session, outcome) {
                    sender = from
                }
            case .noPitfalls:
                pitfall = report.pitfalls.first?.kind
            case .noPitfallsOf(let kinds):
                pitfall = report.pitfalls.first { kinds.contains($0.kind) }?.kind
            case .summaries, .plain, .converged, .diverged, .pitfalls, .callbacks, .error:
                break
            }
        }

        /// Whether a candidate's failing run kept the cause.
        func holds(in report: RunReport) -> Bool {
            let outcome = report.outcome
            if let session {
                guard writtenEntries.allSatisfy({ Self.wrote($0, in: session, outcome) }) else { return false }
                if let sender, !Self.sent(sender, in: session, outcome) { return false }
            }
            if let pitfall, !report.pitfalls.contains(where: { $0.kind == pitfall }) { return false }
            return true
        }

        /// Whether some change of the session set `entry`.
        private static func wrote(_ entry: Scenario.DataEntry, in session: String, _ outcome: RunOutcome) -> Bool {
            outcome.changes.contains { $0.session == session && $0.entries.contains(entry) }
        }

        /// Whether a device of `person` sent a message of the session.
        private static func sent(_ person: String, in session: String, _ outcome: RunOutcome) -> Bool {
            outcome.trace.events.contains { event in
                guard case .sent(_, let sentIn?, _) = event.kind, sentIn == session else { return false }
                return outcome.scenario.device(event.subject)?.person == person
            }
        }
    }
}
