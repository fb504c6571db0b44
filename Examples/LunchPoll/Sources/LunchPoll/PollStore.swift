/// A poll record on the app's server: its fields and the version the server gave it.
public struct PollRecord: Equatable, Sendable {
    public var name: String
    public var fields: [String: String]
    /// 0 when nothing is stored yet; the server adds one on every write.
    public var version: Int

    public init(name: String, fields: [String: String], version: Int) {
        self.name = name
        self.fields = fields
        self.version = version
    }
}

/// The app's server, as the poll needs it. On iOS a small class meets it with CloudKit
/// (`CKDatabase.fetch`, `CKModifyRecordsOperation` with `.ifServerRecordUnchanged`); in
/// the tests, GroupSim's simulated cloud does.
public protocol PollStore: AnyObject {
    /// Reads the record (version 0 and no fields when nothing is stored).
    func fetch(_ name: String, completion: @escaping (PollRecord) -> Void)
    /// Writes `record.fields` only if the server's version is still `record.version`.
    /// Otherwise nothing is written and the completion gets the server's current record
    /// to merge into (CloudKit's `serverRecordChanged`).
    func save(_ record: PollRecord, completion: @escaping (_ saved: PollRecord?, _ serverRecord: PollRecord?) -> Void)
}

/// The few methods of `UserDefaults` the poll uses: `UserDefaults` meets it with an empty
/// extension on iOS, GroupSim's `LocalStorage` in the tests.
public protocol PollDefaults: AnyObject {
    func string(forKey key: String) -> String?
    func set(_ value: Any?, forKey key: String)
}
