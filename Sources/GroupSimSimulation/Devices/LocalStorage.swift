import GroupSimScenario

/// One installation's own key-value storage on a device: what an extension keeps in
/// `UserDefaults` or a file in its container.
///
/// It survives the extension's process (which keeps nothing in memory between
/// activations, M22) but not a reinstall: uninstalling deletes the container, and the
/// new installation starts with an empty store (M2). The built-in app keeps its install
/// id and the install ids it has learned here (`app.identity: install-id`); a registered
/// app gets the same store as `ExtensionEnvironment.storage`. The method names are
/// `UserDefaults`'s, so one protocol in the app's own code can be met by both with empty
/// conformances.
///
/// A reference, as `UserDefaults.standard` is: the device and the app it runs share one
/// store per installation. Not shared across threads: the device that owns it runs one
/// call at a time. Keys are listed sorted, never in hash order, so nothing printed
/// depends on hashing.
public final class LocalStorage {
    private var values: [String: String] = [:]

    /// An empty store, as a fresh installation has.
    public init() {}

    /// The value stored under `key`, or nil; setting nil removes the key.
    public subscript(key: String) -> String? {
        get { values[key] }
        set { values[key] = newValue }
    }

    /// The string stored under `key`, or nil (`UserDefaults.string(forKey:)`).
    public func string(forKey key: String) -> String? { values[key] }

    /// Stores `value` under `key`; nil removes the key (`UserDefaults.set(_:forKey:)`).
    public func set(_ value: String?, forKey key: String) { values[key] = value }

    /// Removes `key` and its value (`UserDefaults.removeObject(forKey:)`).
    public func removeObject(forKey key: String) { values[key] = nil }

    /// Every key, sorted.
    public var keys: [String] { values.keys.sorted() }

    /// Every key and value, sorted by key.
    public var contents: [DataEntry] { keys.map { DataEntry($0, values[$0] ?? "") } }

    /// The keys and values now, as a value that later changes do not affect.
    public var dictionary: [String: String] { values }

    /// Nothing is stored.
    public var isEmpty: Bool { values.isEmpty }

    /// Deletes everything: what a reinstall does to the container (M2).
    public func removeAll() { values.removeAll() }
}
