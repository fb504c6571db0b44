import GroupSimCore
import GroupSimScenario

/// What a run leaves behind besides its devices' state: the trace, the steps that failed,
/// the pitfalls seen as they happened, the state changes made, the ledger of who had seen
/// which change (kept with the trace off too), and the counters.
struct Recorder: RunPart {
    /// False when the run keeps no trace (benchmarks): the digest is then of nothing.
    let keepsTrace: Bool
    private(set) var trace = Simulation.Trace()
    private(set) var failures: [RunOutcome.StepFailure] = []
    private(set) var sightings: [PitfallSighting] = []
    private(set) var changes: [Change] = []
    /// What the pitfall analysis reads of the messages' flow, trace or no trace.
    var ledger: RunLedger
    var copiesDelivered = 0
    var cloudConflicts = 0
    /// Events run so far.
    var eventCount = 0

    init(keepsTrace: Bool, tables: ScenarioTables) {
        self.keepsTrace = keepsTrace
        ledger = RunLedger(tables: tables)
        reset(seed: 0)
    }

    /// Forgets the run, keeping the room its lists and ledger took.
    mutating func reset(seed: UInt64) {
        trace = Simulation.Trace()
        failures.removeAll(keepingCapacity: true)
        sightings.removeAll(keepingCapacity: true)
        changes.removeAll(keepingCapacity: true)
        ledger.reset(seed: seed)
        copiesDelivered = 0
        cloudConflicts = 0
        eventCount = 0
    }

    mutating func record(_ event: Simulation.Trace.Event) {
        if keepsTrace { trace.append(event) }
    }

    mutating func fail(_ failure: RunOutcome.StepFailure) { failures.append(failure) }

    /// Keeps what one device call reported: its trace events, failures, sightings and changes.
    mutating func keep(_ output: DeviceOutput) {
        if keepsTrace { trace.append(contentsOf: output.events) }
        if !output.failures.isEmpty { failures.append(contentsOf: output.failures) }
        if !output.sightings.isEmpty { sightings.append(contentsOf: output.sightings) }
        if !output.changes.isEmpty { changes.append(contentsOf: output.changes) }
    }
}
