import Foundation

/// The three parts of a sundae, chosen in this order, one person per turn.
public enum IceCreamPart: String, CaseIterable, Sendable {
    case base, scoops, topping
}

/// A sundae as far as the group has built it. Its parts travel in the message's URL, so
/// whoever taps the bubble continues from what that bubble shows.
public struct IceCream: Equatable, Sendable {
    public var base: String?
    public var scoops: String?
    public var topping: String?

    public init(base: String? = nil, scoops: String? = nil, topping: String? = nil) {
        self.base = base
        self.scoops = scoops
        self.topping = topping
    }

    /// The sundae a message's URL describes; nil when the URL names no part.
    public init?(url: URL?) {
        guard let url, let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems else { return nil }
        var iceCream = IceCream()
        for item in items {
            guard let part = IceCreamPart(rawValue: item.name), let value = item.value else { continue }
            iceCream[part] = value
        }
        guard iceCream != IceCream() else { return nil }
        self = iceCream
    }

    public subscript(part: IceCreamPart) -> String? {
        get {
            switch part {
            case .base: base
            case .scoops: scoops
            case .topping: topping
            }
        }
        set {
            switch part {
            case .base: base = newValue
            case .scoops: scoops = newValue
            case .topping: topping = newValue
            }
        }
    }

    /// The part the next person chooses; nil once the sundae is complete.
    public var nextPart: IceCreamPart? { IceCreamPart.allCases.first { self[$0] == nil } }

    public var isComplete: Bool { nextPart == nil }

    /// The URL that carries the sundae: its parts as query items, in a fixed order.
    public var url: URL? {
        var components = URLComponents()
        components.queryItems = IceCreamPart.allCases.compactMap { part in self[part].map { URLQueryItem(name: part.rawValue, value: $0) } }
        return components.url
    }

    /// What the bubble's caption says.
    public var caption: String {
        let chosen = IceCreamPart.allCases.compactMap { self[$0] }
        return chosen.isEmpty ? "Let's build a sundae!" : chosen.joined(separator: " + ")
    }
}
