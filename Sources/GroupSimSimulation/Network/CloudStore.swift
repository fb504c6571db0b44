/// The app's server (CloudKit or its own) that Apple recommends keeping state on (M13).
///
/// A value the `Simulation` owns, like a device (determinism rule 5, README): requests
/// reach it after `app.cloud-latency` and answers take as long again. `overwrite`
/// replaces a record whole, so concurrent writers lose each other's changes; `merge`
/// applies the changed keys atomically, so they converge;
/// `conditional` writes only over the version the app read and otherwise answers with a
/// conflict and the current record, so the app can merge and retry.
package struct CloudStore: Sendable {
    package struct Entry: Sendable {
        package var state: StateMap
        package var version: Int
        var provenance: Provenance
    }

    private var records: [String: Entry] = [:]

    package init() {}

    /// Carries out one request and returns the answer for the device.
    package mutating func handle(_ request: CloudRequest) -> CloudResponse {
        switch request.operation {
        case .fetch:
            break
        case .store(.conditional(let expected, _)) where (records[request.key]?.version ?? 0) != expected:
            let entry = records[request.key]
            return CloudResponse(request: request,
                                 record: AppAction.CloudRecord(key: request.key, state: entry?.state, version: entry?.version ?? 0, conflict: true),
                                 provenance: entry?.provenance ?? Provenance())
        case .store(let write):
            var entry = records[request.key] ?? Entry(state: StateMap(), version: 0, provenance: Provenance())
            var provenance = request.provenance
            if let change = request.change { provenance.insert(change.id) }
            switch write {
            case .overwrite(let state), .conditional(_, let state):
                entry.state = state
                entry.provenance = provenance
            case .merge(let changes):
                entry.state.apply(changes)
                entry.provenance = entry.provenance.union(provenance)
            }
            entry.version += 1
            records[request.key] = entry
        }
        let entry = records[request.key]
        return CloudResponse(request: request,
                             record: AppAction.CloudRecord(key: request.key, state: entry?.state, version: entry?.version ?? 0),
                             provenance: entry?.provenance ?? Provenance())
    }

    /// Whether `request` would change the store if it were handled now: false for a fetch
    /// and for a conditional write over a version the record no longer has.
    package func changes(by request: CloudRequest) -> Bool {
        switch request.operation {
        case .fetch: false
        case .store(.conditional(let expected, _)): (records[request.key]?.version ?? 0) == expected
        case .store: true
        }
    }

    /// Every record, sorted by key (determinism rule 4, README).
    func contents() -> [(key: String, entry: Entry)] {
        records.keys.sorted().compactMap { key in records[key].map { (key, $0) } }
    }
}
