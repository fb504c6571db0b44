import Foundation
import GroupSimCore
import GroupSimScenario
import GroupSimSimulation

/// The app's server as GroupSim simulates it: named records of string fields, each with a
/// version that increases by one on every write (M13).
///
/// Every call is a round trip: the request reaches the store after `app.cloud-latency`
/// and the completion handler runs that long after the store answered, in virtual time.
/// A handler runs only if the extension is still active then (the process ends with
/// `didResignActive`, M22). Every method may be called from any isolation (the class is
/// `Sendable`); completion handlers run on the main actor, and each has an `async throws`
/// form whose caller resumes inside the call that carries the answer. Reach it from
/// portable code through a small protocol of your own, met by CloudKit (or your server)
/// on iOS and by this class in your test target.
public final class SimulatedCloud: @unchecked Sendable {
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

        init(_ record: AppAction.CloudRecord) {
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

    /// The activation's line to its device. Touched only on the main queue, where the
    /// simulation calls the controller (`MainActorCalls`): that is what makes the class
    /// safe to share with the app's own types and actors.
    private let bridge: ExtensionBridge

    init(bridge: ExtensionBridge) { self.bridge = bridge }

    /// A completion handler: it runs on the main actor, inside the call that carries the
    /// store's answer.
    public typealias Completion<Value> = @MainActor @Sendable (Value) -> Void

    /// Reads the record named `name`; it comes back with version 0 and no fields when
    /// nothing is stored.
    public func fetch(recordNamed name: String, completion: @escaping Completion<Record>) {
        request(key: name, isFetch: true, .fetch(key: name)) { completion(Record($0)) }
    }

    /// Writes `fields` over the record whatever it holds: concurrent writers overwrite
    /// each other (M13).
    public func save(_ fields: [String: String], recordNamed name: String, completion: @escaping Completion<Record>) {
        request(key: name, isFetch: false, .store(key: name, write: .overwrite(Self.state(fields)))) { completion(Record($0)) }
    }

    /// Writes `fields` only if the record's version is still `expectedVersion` (0 when the
    /// app saw nothing stored); otherwise fails with `ServerRecordChanged` and writes
    /// nothing (M13).
    public func save(_ fields: [String: String], recordNamed name: String, ifVersion expectedVersion: Int,
                     completion: @escaping Completion<Result<Record, ServerRecordChanged>>) {
        let write = AppAction.CloudWrite.conditional(expectedVersion: expectedVersion, state: Self.state(fields))
        request(key: name, isFetch: false, .store(key: name, write: write)) { record in
            completion(record.conflict ? .failure(ServerRecordChanged(serverRecord: Record(record))) : .success(Record(record)))
        }
    }

    // MARK: - The async forms

    /// `fetch(recordNamed:completion:)`, awaited. The code after the `await` runs inside
    /// the call that carries the answer, at the virtual time the seed decides; if the
    /// extension closes first (M22), the caller is never resumed, as its process ends on iOS.
    @MainActor public func fetch(recordNamed name: String) async throws -> Record {
        await withUnsafeContinuation { continuation in
            fetch(recordNamed: name) { continuation.resume(returning: $0) }
        }
    }

    /// `save(_:recordNamed:completion:)`, awaited: an overwrite (M13).
    @MainActor @discardableResult
    public func save(_ fields: [String: String], recordNamed name: String) async throws -> Record {
        await withUnsafeContinuation { continuation in
            save(fields, recordNamed: name) { continuation.resume(returning: $0) }
        }
    }

    /// `save(_:recordNamed:ifVersion:completion:)`, awaited: throws `ServerRecordChanged`
    /// when the record moved past `expectedVersion`, and then wrote nothing (M13).
    @MainActor @discardableResult
    public func save(_ fields: [String: String], recordNamed name: String, ifVersion expectedVersion: Int) async throws -> Record {
        try await withUnsafeThrowingContinuation { continuation in
            save(fields, recordNamed: name, ifVersion: expectedVersion) { continuation.resume(with: $0) }
        }
    }

    // MARK: - Plumbing

    /// Queues `action` for the device with `answer` waiting for the store's reply. Called
    /// off the main queue (from a thread of the app's own), the request waits for the main
    /// queue and joins whichever call runs then, which no seed decides: the determinism
    /// check reports it.
    private func request(key: String, isFetch: Bool, _ action: AppAction, _ answer: @escaping @MainActor (AppAction.CloudRecord) -> Void) {
        let bridge = LentToMainActor(bridge)
        let send = LentToMainActor({
            bridge.value.awaitCloud(key: key, isFetch: isFetch) { record in MainActor.assumeIsolated { answer(record) } }
            bridge.value.enqueue(action)
        })
        if MainActorCalls.isOnMainQueue {
            send.value()
        } else {
            DispatchQueue.main.async { send.value() }
        }
    }

    /// The fields as GroupSim's state map (sorted by key: dictionary order is per process).
    private static func state(_ fields: [String: String]) -> StateMap {
        StateMap(fields.keys.sorted().map { Scenario.DataEntry($0, fields[$0] ?? "") })
    }
}
