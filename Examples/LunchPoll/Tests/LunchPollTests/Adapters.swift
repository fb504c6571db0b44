// The small adapters that connect the portable app to GroupSim. They live in the test
// target so that the app's sources import nothing but Apple's API.
import GroupSim
import GroupSimMessages
import LunchPoll

/// A scenario step's intent (`send` with `data: { q: ... }`, `reply` with
/// `data: { bob: pizza }`) reaches the poll's own button actions.
extension PollViewController: ComposeRequestHandling {
    public func handle(_ request: ComposeRequest) {
        for entry in request.data {
            if entry.key == "q" { ask(entry.value) } else { vote(entry.value, as: entry.key) }
        }
    }
}

extension CloudPollViewController: ComposeRequestHandling {
    public func handle(_ request: ComposeRequest) {
        for entry in request.data {
            if entry.key == "q" { ask(entry.value) } else { vote(entry.value, as: entry.key) }
        }
    }
}

/// A plain completion handler handed to the simulated cloud, whose handlers are
/// `@Sendable`: the poll's handlers (as CloudKit's) are plain closures, and the cloud
/// calls each once, on the main actor, inside the call that carries the answer.
struct Handed<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// The simulated cloud as the poll's store (CloudKit plays this part on iOS).
final class SimulatedPollStore: PollStore {
    let cloud: SimulatedCloud

    init(_ cloud: SimulatedCloud) { self.cloud = cloud }

    func fetch(_ name: String, completion: @escaping (PollRecord) -> Void) {
        let handed = Handed(completion)
        cloud.fetch(recordNamed: name) { handed.value(PollRecord($0)) }
    }

    func save(_ record: PollRecord, completion: @escaping (PollRecord?, PollRecord?) -> Void) {
        let handed = Handed(completion)
        cloud.save(record.fields, recordNamed: record.name, ifVersion: record.version) { result in
            switch result {
            case .success(let saved): handed.value(PollRecord(saved), nil)
            case .failure(let conflict): handed.value(nil, PollRecord(conflict.serverRecord))
            }
        }
    }
}

extension PollRecord {
    init(_ record: SimulatedCloud.Record) {
        self.init(name: record.name, fields: record.fields, version: record.version)
    }
}

/// The install's storage meets the app's `UserDefaults` protocol as is.
extension LocalStorage: PollDefaults {}

/// The two variants under the names the scenarios use.
func lunchApps() -> AppRegistry {
    var apps = AppRegistry()
    apps.register("lunch") { PollViewController() }
    apps.register("lunch-cloud", environment: { environment in
        let controller = CloudPollViewController()
        controller.store = SimulatedPollStore(environment.cloud)
        controller.defaults = environment.storage
        controller.makeRecordName = environment.makeToken
        return controller
    })
    return apps
}
