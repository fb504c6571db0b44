import Foundation

/// The few members of `UserDefaults` the history needs, with Foundation's signatures:
/// `UserDefaults` meets it with an empty extension on iOS, GroupSim's `LocalStorage` in
/// the tests.
public protocol IceCreamDefaults: AnyObject {
    func stringArray(forKey defaultName: String) -> [String]?
    func set(_ value: Any?, forKey defaultName: String)
    func integer(forKey defaultName: String) -> Int
    func set(_ value: Int, forKey defaultName: String)
}

/// The sundaes this person finished, newest last, kept across activations.
@MainActor
public final class IceCreamHistory {
    static let key = "completed"
    static let countKey = "sent-parts"
    private let defaults: (any IceCreamDefaults)?

    public init(defaults: (any IceCreamDefaults)?) {
        self.defaults = defaults
    }

    public var completed: [String] { defaults?.stringArray(forKey: Self.key) ?? [] }

    /// How many parts this person has added, over all sundaes.
    public var partsAdded: Int { defaults?.integer(forKey: Self.countKey) ?? 0 }

    func record(_ iceCream: IceCream) {
        defaults?.set(partsAdded + 1, forKey: Self.countKey)
        guard iceCream.isComplete else { return }
        defaults?.set(completed + [iceCream.caption], forKey: Self.key)
    }
}
