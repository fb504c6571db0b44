import Foundation
import GroupSim
import Testing

/// The members of `UserDefaults` an app's settings code uses, declared with Foundation's
/// own signatures, as an app would declare its protocol.
protocol DefaultsShaped: AnyObject {
    func object(forKey defaultName: String) -> Any?
    func set(_ value: Any?, forKey defaultName: String)
    func set(_ value: Int, forKey defaultName: String)
    func set(_ value: Double, forKey defaultName: String)
    func set(_ value: Float, forKey defaultName: String)
    func set(_ value: Bool, forKey defaultName: String)
    func set(_ url: URL?, forKey defaultName: String)
    func removeObject(forKey defaultName: String)
    func string(forKey defaultName: String) -> String?
    func array(forKey defaultName: String) -> [Any]?
    func dictionary(forKey defaultName: String) -> [String: Any]?
    func data(forKey defaultName: String) -> Data?
    func stringArray(forKey defaultName: String) -> [String]?
    func integer(forKey defaultName: String) -> Int
    func float(forKey defaultName: String) -> Float
    func double(forKey defaultName: String) -> Double
    func bool(forKey defaultName: String) -> Bool
    func url(forKey defaultName: String) -> URL?
    func register(defaults registrationDictionary: [String: Any])
    func dictionaryRepresentation() -> [String: Any]
}

// The claim of the docs: both meet it with empty conformances.
extension UserDefaults: DefaultsShaped {}
extension LocalStorage: DefaultsShaped {}

/// `LocalStorage` has `UserDefaults`'s API and answers as it does.
@Suite struct UserDefaultsShapeTests {
    /// Reads that find nothing give `UserDefaults`'s answers on both. Nothing is written
    /// to Foundation's store: a suite's registered defaults live in memory only.
    @Test func emptyKeysAnswerAsUserDefaultsDoes() throws {
        let suite = "groupsim-shape-\(UUID().uuidString)"
        let defaults = try #require(UserDefaults(suiteName: suite))
        let stores: [any DefaultsShaped] = [defaults, LocalStorage()]
        for store in stores {
            #expect(store.object(forKey: "missing") == nil)
            #expect(store.string(forKey: "missing") == nil)
            #expect(store.integer(forKey: "missing") == 0)
            #expect(store.double(forKey: "missing") == 0)
            #expect(store.bool(forKey: "missing") == false)
            #expect(store.data(forKey: "missing") == nil)
            #expect(store.array(forKey: "missing") == nil)
            #expect(store.dictionary(forKey: "missing") == nil)
            store.register(defaults: ["flavor": "vanilla", "scoops": 2, "sprinkles": true])
            #expect(store.string(forKey: "flavor") == "vanilla")
            #expect(store.integer(forKey: "scoops") == 2)
            #expect(store.bool(forKey: "sprinkles"))
        }
    }

    /// Typed values go in and come back with `UserDefaults`'s conversions, and the listing
    /// a check prints is sorted and written out.
    @Test func typedValuesRoundTrip() {
        let store: any DefaultsShaped = LocalStorage()
        store.set(3, forKey: "count")
        store.set(true, forKey: "done")
        store.set(2.5, forKey: "ratio")
        store.set("7", forKey: "text")
        store.set(Data([1, 2, 3]), forKey: "blob")
        store.set(["a", "b"], forKey: "parts")
        store.set(["b": 2, "a": 1], forKey: "map")
        #expect(store.integer(forKey: "count") == 3 && store.string(forKey: "count") == "3")
        #expect(store.bool(forKey: "done") && store.integer(forKey: "done") == 1)
        #expect(store.double(forKey: "ratio") == 2.5 && store.integer(forKey: "ratio") == 2)
        #expect(store.integer(forKey: "text") == 7 && store.bool(forKey: "text"))
        #expect(store.data(forKey: "blob") == Data([1, 2, 3]))
        #expect(store.stringArray(forKey: "parts") == ["a", "b"] && store.array(forKey: "parts")?.count == 2)
        #expect(store.dictionary(forKey: "map")?["b"] as? Int == 2)
        store.set(nil, forKey: "text")
        #expect(store.object(forKey: "text") == nil)
        store.removeObject(forKey: "blob")
        store.set(NSObject(), forKey: "count")   // not a property-list value: the key keeps its value
        #expect(store.integer(forKey: "count") == 3)
        let storage = store as? LocalStorage
        #expect(storage?.contents.map(\.key) == ["count", "done", "map", "parts", "ratio"])
        #expect(storage?.dictionary["map"] == "{a: 1, b: 2}" && storage?.dictionary["done"] == "true")
    }
}
