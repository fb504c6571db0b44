import GroupSimCore
import GroupSimScenario
import GroupSimSimulation

/// The app's server as GroupSim simulates it: named records of string fields, each with a
/// version that increases by one on every write (M13).
///
/// Every call is a round trip: the request reaches the store after `app.cloud-latency`
/// and the completion handler runs that long after the store answered, in virtual time.
/// A handler runs only if the extension is still active then (the process ends with
/// `didResignActive`, M22). Reach it from portable code through a small protocol of your
/// own, met by CloudKit (or your server) on iOS and by this class in your test target.
public final class SimulatedCloud {
    /// A record as the store answered it.
    public struct Record: Sendable, Hashable {
        /// The record's name (its key in the store).
        public var name: String
        /// The record's fields; empty when nothing is stored yet.
        public var fields: [String: String]
        /// 0 when nothing is stored; one more after every write.
        public var version: Int

        public init(name: String, fields: [String: String], version: Int) {
            self.name = name
            self.fields = fields
            self.version = version
        }

        init(_ record: CloudRecord) {
            name = record.key
            var fields: [String: String] = [:]
            for entry in record.state?.entries ?? [] { fields[entry.key] = entry.value }
            self.fields = fields
            version = record.version
        }
    }

    /// A conditional save found that the record moved since the version the app read: the
    /// shape of CloudKit's `serverRecordChanged`. Nothing was written; merge your change
    /// into `serverRecord` and save again over its version.
    public struct ServerRecordChanged: Error, Sendable, Hashable {
        /// The record the store holds now.
        public var serverRecord: Record
    }

    private let bridge: ExtensionBridge

    init(bridge: ExtensionBridge) { self.bridge = bridge }

    /// Reads the record named `name`; it comes back with version 0 and no fields when
    /// nothing is stored.
    public func fetch(recordNamed name: String, completion: @escaping (Record) -> Void) {
        bridge.awaitCloud(key: name, isFetch: true) { completion(Record($0)) }
        bridge.enqueue(.fetch(key: name))
    }

    /// Writes `fields` over the record whatever it holds: concurrent writers overwrite
    /// each other (M13).
    public func save(_ fields: [String: String], recordNamed name: String, completion: @escaping (Record) -> Void) {
        bridge.awaitCloud(key: name, isFetch: false) { completion(Record($0)) }
        bridge.enqueue(.store(key: name, write: .overwrite(Self.state(fields))))
    }

    /// Writes `fields` only if the record's version is still `expectedVersion` (0 when the
    /// app saw nothing stored); otherwise fails with `ServerRecordChanged` and writes
    /// nothing (M13).
    public func save(_ fields: [String: String], recordNamed name: String, ifVersion expectedVersion: Int,
                     completion: @escaping (Result<Record, ServerRecordChanged>) -> Void) {
        bridge.awaitCloud(key: name, isFetch: false) { record in
            if record.conflict {
                completion(.failure(ServerRecordChanged(serverRecord: Record(record))))
            } else {
                completion(.success(Record(record)))
            }
        }
        bridge.enqueue(.store(key: name, write: .conditional(expectedVersion: expectedVersion, state: Self.state(fields))))
    }

    /// The fields as GroupSim's state map (sorted by key: dictionary order is per process).
    private static func state(_ fields: [String: String]) -> StateMap {
        StateMap(fields.keys.sorted().map { DataEntry($0, fields[$0] ?? "") })
    }
}
