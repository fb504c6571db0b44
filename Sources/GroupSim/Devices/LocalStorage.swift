/// One installation's own key-value storage on a device: what an extension keeps in
/// `UserDefaults` or a file in its container.
///
/// It survives the extension's process (which keeps nothing in memory between
/// activations, M22) but not a reinstall: uninstalling deletes the container, and the
/// new installation starts with an empty store (M2). The built-in app keeps its install
/// id and the install ids it has learned here (`app.identity: install-id`); any app that
/// needs per-install state can use the same store.
///
/// Keys are listed sorted, never in hash order, so nothing printed depends on hashing.
public struct LocalStorage: Sendable, Hashable {
    private var values: [String: String] = [:]

    /// An empty store, as a fresh installation has.
    public init() {}

    /// The value stored under `key`, or nil.
    public subscript(key: String) -> String? {
        get { values[key] }
        set { values[key] = newValue }
    }

    /// Every key, sorted.
    public var keys: [String] { values.keys.sorted() }

    public var isEmpty: Bool { values.isEmpty }

    /// Deletes everything: what a reinstall does to the container (M2).
    public mutating func removeAll() { values.removeAll() }
}
