import Foundation
import GroupSimSimulation

/// Foundation's `UserDefaults`, one per simulated device: in a file that imports
/// `GroupSimMessages`, `UserDefaults.standard` and `UserDefaults(suiteName:)` are the
/// storage of the installation whose controller GroupSim is calling, so shipping code
/// that keeps its settings there is isolated per device without edits, and a `reinstall`
/// step wipes them (M2). A suite is a namespace of its own in that storage.
///
/// Swift prefers this declaration to Foundation's where the file reaches Foundation only
/// through `GroupSimMessages` (which re-exports it). A file that imports Foundation itself
/// sees both and calls the name ambiguous; one file in the app's target settles it for
/// every file of the target, since a module's own declarations come first:
///
/// ```swift
/// #if !canImport(Messages)
/// import GroupSimMessages
/// typealias UserDefaults = GroupSimMessages.UserDefaults
/// #endif
/// ```
///
/// The device is found when the object is used, not when it is made, so a
/// `static let defaults = UserDefaults(suiteName: ...)!` of the app serves every device.
/// Inside a simulated call (a callback, a completion handler, the factory, and a `Task`
/// started in them, which inherits the device) it is that device's store. Anywhere else
/// (a detached task, a queue of the app's own, a test calling the app's code directly)
/// it is one in-memory store of the process, shared by whatever runs there.
///
/// Values are property-list values, as with Foundation (`LocalStorage` describes the
/// conversions of the typed getters); reports show them written out with keys sorted.
open class UserDefaults: NSObject, @unchecked Sendable {
    /// The suite this object names; nil for the standard store.
    private let suite: String?

    private static let standardDefaults = UserDefaults(suite: nil)

    /// The current device's store for the app.
    open class var standard: UserDefaults { standardDefaults }

    /// The standard store (as `UserDefaults.standard`).
    public convenience override init() {
        self.init(suite: nil)
    }

    /// The store of the suite `suitename` on the current device (nil: the standard
    /// store). Never nil here; optional as Foundation's is.
    public init?(suiteName suitename: String?) {
        suite = suitename
        super.init()
    }

    private init(suite: String?) {
        self.suite = suite
        super.init()
    }

    // MARK: - Reading

    open func object(forKey defaultName: String) -> Any? { withStore { $0.object(forKey: defaultName) } }
    open func string(forKey defaultName: String) -> String? { withStore { $0.string(forKey: defaultName) } }
    open func array(forKey defaultName: String) -> [Any]? { withStore { $0.array(forKey: defaultName) } }
    open func dictionary(forKey defaultName: String) -> [String: Any]? { withStore { $0.dictionary(forKey: defaultName) } }
    open func data(forKey defaultName: String) -> Data? { withStore { $0.data(forKey: defaultName) } }
    open func stringArray(forKey defaultName: String) -> [String]? { withStore { $0.stringArray(forKey: defaultName) } }
    open func integer(forKey defaultName: String) -> Int { withStore { $0.integer(forKey: defaultName) } }
    open func float(forKey defaultName: String) -> Float { withStore { $0.float(forKey: defaultName) } }
    open func double(forKey defaultName: String) -> Double { withStore { $0.double(forKey: defaultName) } }
    open func bool(forKey defaultName: String) -> Bool { withStore { $0.bool(forKey: defaultName) } }
    open func url(forKey defaultName: String) -> URL? { withStore { $0.url(forKey: defaultName) } }
    /// Every stored and registered key with its value.
    open func dictionaryRepresentation() -> [String: Any] { withStore { $0.dictionaryRepresentation() } }

    // MARK: - Writing

    /// Stores a property-list value; nil removes the key; anything else leaves the key as it was.
    open func set(_ value: Any?, forKey defaultName: String) { withStore { $0.set(value, forKey: defaultName) } }
    open func set(_ value: Int, forKey defaultName: String) { withStore { $0.set(value, forKey: defaultName) } }
    open func set(_ value: Float, forKey defaultName: String) { withStore { $0.set(value, forKey: defaultName) } }
    open func set(_ value: Double, forKey defaultName: String) { withStore { $0.set(value, forKey: defaultName) } }
    open func set(_ value: Bool, forKey defaultName: String) { withStore { $0.set(value, forKey: defaultName) } }
    open func set(_ url: URL?, forKey defaultName: String) { withStore { $0.set(url, forKey: defaultName) } }
    open func removeObject(forKey defaultName: String) { withStore { $0.removeObject(forKey: defaultName) } }
    /// Answers for keys that hold nothing, until the installation ends.
    open func register(defaults registrationDictionary: [String: Any]) {
        withStore { $0.register(defaults: registrationDictionary) }
    }

    /// Nothing to write out: the store is in memory. True, as Foundation answers.
    @discardableResult
    open func synchronize() -> Bool { true }

    // MARK: - Which store

    /// Runs `body` with this object's store on the current device, or outside a simulated
    /// call with the process's own store (under a lock, since any thread may reach it).
    private func withStore<T>(_ body: (LocalStorage) -> T) -> T {
        if let lent = Self.device {
            return body(suite.map(lent.value.suite(named:)) ?? lent.value)
        }
        Self.outside.lock.lock()
        defer { Self.outside.lock.unlock() }
        return body(suite.map(Self.outside.storage.suite(named:)) ?? Self.outside.storage)
    }

    /// The installation storage of the device whose controller GroupSim is calling; set by
    /// `ControllerApp` around each call, inherited by the tasks started in it.
    @TaskLocal static var device: LentToMainActor<LocalStorage>?

    /// Outside any simulated call: the process's one store.
    private static let outside = OutsideStore()

    private final class OutsideStore: @unchecked Sendable {
        let lock = NSLock()
        let storage = LocalStorage()
    }
}
