/// The app's local key-value storage on one device for one installation: what
/// `UserDefaults` holds for an extension on iOS.
///
/// It survives activations (the process ends, the storage stays, M22), it is private to
/// its device, and a reinstall wipes it along with the identifiers (M2). Keys and values
/// are strings, kept in insertion order so that nothing printed depends on hashing
/// (hash order is per process). The method names are `UserDefaults`'s, so one protocol in the
/// app's own code can be met by both with empty conformances.
///
/// Not shared across threads: the device that owns it runs one call at a time.
public final class InstallStorage {
    private var entries: [DataEntry] = []

    /// An empty storage, as a fresh installation has.
    public init() {}

    /// The string stored under `key`, or nil.
    public func string(forKey key: String) -> String? {
        entries.first { $0.key == key }?.value
    }

    /// Stores `value` under `key`; nil removes the key.
    public func set(_ value: String?, forKey key: String) {
        guard let value else { return removeObject(forKey: key) }
        if let index = entries.firstIndex(where: { $0.key == key }) {
            entries[index].value = value
        } else {
            entries.append(DataEntry(key, value))
        }
    }

    /// Removes `key` and its value.
    public func removeObject(forKey key: String) {
        entries.removeAll { $0.key == key }
    }

    /// Every entry, in the order the keys were first stored.
    public var contents: [DataEntry] { entries }
}
