import Foundation
import GroupSimScenario

/// One installation's own key-value storage on a device: what an extension keeps in
/// `UserDefaults` or a file in its container.
///
/// It survives the extension's process (which keeps nothing in memory between
/// activations, M22) but not a reinstall: uninstalling deletes the container, and the
/// new installation starts with an empty store (M2). The built-in app keeps its install
/// id and the install ids it has learned here (`app.identity: install-id`); a registered
/// app gets the same store as `ExtensionEnvironment.storage`.
///
/// Its API is `UserDefaults`'s, signature for signature: `object(forKey:)`,
/// `set(_: Any?, forKey:)` and the typed setters, the typed getters (`string`, `integer`,
/// `bool`, `double`, `float`, `data`, `url`, `array`, `stringArray`, `dictionary`) with
/// `UserDefaults`'s conversions and defaults, `removeObject(forKey:)`,
/// `register(defaults:)` and `dictionaryRepresentation()`. So a protocol in the app's
/// own code, declared with `UserDefaults`'s signatures, is met by both with empty
/// conformances. Values are property-list values (strings, numbers, booleans, dates,
/// data, and arrays and string-keyed dictionaries of them); `UserDefaults` raises an
/// exception for anything else, and this store leaves the key as it was.
///
/// A reference, as `UserDefaults.standard` is: the device and the app it runs share one
/// store per installation. `suite(named:)` is what `UserDefaults(suiteName:)` names: a
/// store of its own inside this one, which a reinstall wipes with it. Not shared across threads: the device that owns it runs one
/// call at a time. Keys are listed sorted, never in hash order, so nothing printed
/// depends on hashing.
public final class LocalStorage {
    private var values: [String: Any] = [:] { didSet { changes &+= 1 } }
    /// How many times a value was stored or removed here: exploration compares it around
    /// an arrival to see whether the app wrote on it (`ScheduleEffect.storageWrite`).
    @exclusivity(unchecked) private var changes = 0
    /// `register(defaults:)`: answers for keys that hold nothing; never stored, never listed.
    @exclusivity(unchecked) private var registered: [String: Any] = [:]
    /// `UserDefaults(suiteName:)`'s stores, made when first named.
    @exclusivity(unchecked) private var suites: [String: LocalStorage] = [:]

    /// An empty store, as a fresh installation has.
    public init() {}

    /// Whether nothing was ever stored, removed, registered or named as a suite here:
    /// the store is still what `init` made.
    var isUntouched: Bool { changes == 0 && registered.isEmpty && suites.isEmpty }

    /// The string stored under `key`, or nil; setting nil removes the key.
    public subscript(key: String) -> String? {
        get { values[key] as? String }
        set { values[key] = newValue }
    }

    // MARK: - UserDefaults's API

    /// The value under `key`, or the registered default, or nil.
    public func object(forKey defaultName: String) -> Any? { values[defaultName] ?? registered[defaultName] }

    /// Stores a property-list value under `key`; nil removes the key.
    public func set(_ value: Any?, forKey defaultName: String) {
        guard let value else { return removeObject(forKey: defaultName) }
        guard Self.isPropertyList(value) else { return }
        values[defaultName] = value
    }

    public func set(_ value: Int, forKey defaultName: String) { values[defaultName] = value }
    public func set(_ value: Float, forKey defaultName: String) { values[defaultName] = value }
    public func set(_ value: Double, forKey defaultName: String) { values[defaultName] = value }
    public func set(_ value: Bool, forKey defaultName: String) { values[defaultName] = value }
    /// Stores the URL (as its absolute string, as `UserDefaults` archives it); nil removes the key.
    public func set(_ url: URL?, forKey defaultName: String) { values[defaultName] = url }

    /// Removes `key` and its value.
    public func removeObject(forKey defaultName: String) { values[defaultName] = nil }

    /// The string under `key`; a number is given as its text. Nil for anything else.
    public func string(forKey defaultName: String) -> String? {
        switch object(forKey: defaultName) {
        case let text as String: text
        case let value as Bool: value ? "1" : "0"
        case let value as Int: String(value)
        case let value as Double: String(value)
        case let value as Float: String(value)
        default: nil
        }
    }

    /// The integer under `key`: a number truncated, a boolean as 0 or 1, a string parsed; 0 otherwise.
    public func integer(forKey defaultName: String) -> Int {
        switch object(forKey: defaultName) {
        case let value as Int: value
        case let value as Bool: value ? 1 : 0
        case let value as Double: value.isFinite && abs(value) < 9.2e18 ? Int(value) : 0
        case let value as Float: value.isFinite && abs(value) < 9.2e18 ? Int(value) : 0
        case let text as String:
            Int(text.trimmingCharacters(in: .whitespaces)) ?? Double(text).map { $0.isFinite && abs($0) < 9.2e18 ? Int($0) : 0 } ?? 0
        default: 0
        }
    }

    /// The number under `key` as a double; a string parsed; 0 otherwise.
    public func double(forKey defaultName: String) -> Double {
        switch object(forKey: defaultName) {
        case let value as Double: value
        case let value as Float: Double(value)
        case let value as Int: Double(value)
        case let value as Bool: value ? 1 : 0
        case let text as String: Double(text.trimmingCharacters(in: .whitespaces)) ?? 0
        default: 0
        }
    }

    /// `double(forKey:)` as a float.
    public func float(forKey defaultName: String) -> Float { Float(double(forKey: defaultName)) }

    /// The boolean under `key`: a number is true unless 0; a string is true when it reads
    /// "YES", "true" or a non-zero number (any case); false otherwise.
    public func bool(forKey defaultName: String) -> Bool {
        switch object(forKey: defaultName) {
        case let value as Bool: value
        case let value as Int: value != 0
        case let value as Double: value != 0
        case let value as Float: value != 0
        case let text as String:
            ["yes", "true"].contains(text.lowercased()) || (Int(text).map { $0 != 0 } ?? false)
        default: false
        }
    }

    /// The data under `key`, or nil.
    public func data(forKey defaultName: String) -> Data? { object(forKey: defaultName) as? Data }

    /// The URL under `key` (stored with `set(_: URL?, forKey:)`, or a path string), or nil.
    public func url(forKey defaultName: String) -> URL? {
        switch object(forKey: defaultName) {
        case let url as URL: url
        case let path as String: URL(fileURLWithPath: (path as NSString).expandingTildeInPath)
        default: nil
        }
    }

    /// The array under `key`, or nil.
    public func array(forKey defaultName: String) -> [Any]? { object(forKey: defaultName) as? [Any] }

    /// The array under `key` if it holds only strings, or nil.
    public func stringArray(forKey defaultName: String) -> [String]? { object(forKey: defaultName) as? [String] }

    /// The dictionary under `key`, or nil.
    public func dictionary(forKey defaultName: String) -> [String: Any]? { object(forKey: defaultName) as? [String: Any] }

    /// Adds answers for keys that hold nothing; they are not stored and a reinstall keeps
    /// them only if the app registers them again (it does, at launch, on iOS).
    public func register(defaults registrationDictionary: [String: Any]) {
        for (key, value) in registrationDictionary where Self.isPropertyList(value) { registered[key] = value }
    }

    /// Every stored and registered key with its value (stored values win).
    public func dictionaryRepresentation() -> [String: Any] { registered.merging(values) { _, stored in stored } }

    // MARK: - Listing, for checks and reports

    /// Every stored key, sorted.
    public var keys: [String] { values.keys.sorted() }

    /// Every stored key and value, sorted by key; values other than strings are written out.
    public var contents: [Scenario.DataEntry] { keys.map { Scenario.DataEntry($0, Self.text(values[$0])) } }

    /// The stored keys and values now, values written out as in `contents`, as a value
    /// that later changes do not affect.
    public var dictionary: [String: String] { values.isEmpty ? [:] : values.mapValues { Self.text($0) } }

    /// How many writes this store and its suites took so far (stores and removals).
    package var writeCount: Int { suites.values.reduce(changes) { $0 &+ $1.writeCount } }

    /// Nothing is stored, here or in a suite.
    public var isEmpty: Bool { values.isEmpty && suites.values.allSatisfy(\.isEmpty) }

    // MARK: - Suites

    /// The store of the suite `name` (`UserDefaults(suiteName:)`): a namespace of its own,
    /// the same object each time, wiped with this store.
    public func suite(named name: String) -> LocalStorage {
        if let known = suites[name] { return known }
        let made = LocalStorage()
        suites[name] = made
        return made
    }

    /// The names of the suites that hold something, sorted.
    public var suiteNames: [String] { suites.keys.sorted().filter { suites[$0]?.isEmpty == false } }

    /// Each suite that holds something, by name, its keys and values written out as in
    /// `dictionary`, as a value that later changes do not affect.
    public var suiteDictionaries: [String: [String: String]] {
        // Every run's snapshot asks, and most stores have no suite.
        guard !suites.isEmpty else { return [:] }
        return Dictionary(uniqueKeysWithValues: suiteNames.compactMap { name in suites[name].map { (name, $0.dictionary) } })
    }

    /// Deletes everything, suites too: what a reinstall does to the container (M2).
    public func removeAll() {
        values.removeAll()
        registered.removeAll()
        suites.removeAll()
    }

    /// Whether `value` is a property-list value.
    static func isPropertyList(_ value: Any) -> Bool {
        switch value {
        case is String, is Int, is Double, is Float, is Bool, is Date, is Data, is URL: true
        case let array as [Any]: array.allSatisfy(isPropertyList)
        case let dictionary as [String: Any]: dictionary.values.allSatisfy(isPropertyList)
        default: false
        }
    }

    /// A stored value as text: strings as they are, numbers in Swift's shortest exact
    /// notation, booleans `true`/`false`, data in hex (`<0a1b>`), dates in ISO 8601, URLs
    /// as their absolute string, arrays and dictionaries (keys sorted) written out the same
    /// way; so the listing is the same in every run that stored the same values.
    static func text(_ value: Any?) -> String {
        switch value {
        case nil: ""
        case let text as String: text
        case let value as Bool: value ? "true" : "false"
        case let data as Data: "<" + data.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() + ">"
        case let date as Date: ISO8601DateFormatter().string(from: date)
        case let url as URL: url.absoluteString
        case let array as [Any]: "[" + array.map { text($0) }.joined(separator: ", ") + "]"
        case let dictionary as [String: Any]:
            "{" + dictionary.keys.sorted().map { "\($0): \(text(dictionary[$0]))" }.joined(separator: ", ") + "}"
        case let value?: "\(value)"
        }
    }
}
