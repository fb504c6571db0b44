// In the structure of Apple's IceCreamBuilder sample (its extension's files: the model,
// the parts, the history, a sticker cache, a flow-layout subclass, collection cells, a
// stack view, the storyboard-made controllers), with only the import switched to
// `GroupSimMessages`. What needs Interface Builder is replaced as docs/extensions.md
// tells a porter: outlets are views made in code, actions are `UIAction`s.
import GroupSimMessages

/// A part of an ice cream: one of the three kinds below.
protocol IceCreamPart {
    var rawValue: String { get }
    var image: UIImage { get }
    var stickerImage: UIImage { get }
}

/// A value that travels as one query item of the message URL.
protocol QueryItemRepresentable {
    var queryItem: URLQueryItem { get }
    static var queryItemKey: String { get }
}

enum Base: String, IceCreamPart, QueryItemRepresentable, CaseIterable {
    case base01, base02, base03
    static var queryItemKey: String { "Base" }
}

enum Scoops: String, IceCreamPart, QueryItemRepresentable, CaseIterable {
    case scoops01, scoops02, scoops03
    static var queryItemKey: String { "Scoops" }
}

enum Topping: String, IceCreamPart, QueryItemRepresentable, CaseIterable {
    case topping01, topping02, topping03
    static var queryItemKey: String { "Topping" }
}

extension QueryItemRepresentable where Self: IceCreamPart {
    var queryItem: URLQueryItem { URLQueryItem(name: Self.queryItemKey, value: rawValue) }
}

extension IceCreamPart {
    /// The part's picture: the asset of that name when there is one, else a drawn swatch.
    var image: UIImage { Self.picture(named: rawValue, size: CGSize(width: 300, height: 120)) }
    var stickerImage: UIImage { Self.picture(named: "\(rawValue)_sticker", size: CGSize(width: 120, height: 50)) }

    private static func picture(named name: String, size: CGSize) -> UIImage {
        if let asset = UIImage(named: name) { return asset }
        return UIGraphicsImageRenderer(size: size).image { _ in
            UIColor.systemPink.setFill()
            UIRectFill(CGRect(origin: .zero, size: size))
        }
    }
}

/// An ice cream as far as the group has built it.
struct IceCream: Equatable {
    var base: Base?
    var scoops: Scoops?
    var topping: Topping?

    var isComplete: Bool { base != nil && scoops != nil && topping != nil }

    var queryItems: [URLQueryItem] {
        [base?.queryItem, scoops?.queryItem, topping?.queryItem].compactMap { $0 }
    }

    init(base: Base? = nil, scoops: Scoops? = nil, topping: Topping? = nil) {
        self.base = base
        self.scoops = scoops
        self.topping = topping
    }

    init?(queryItems: [URLQueryItem]) {
        var iceCream = IceCream()
        for item in queryItems {
            guard let value = item.value else { continue }
            switch item.name {
            case Base.queryItemKey: iceCream.base = Base(rawValue: value)
            case Scoops.queryItemKey: iceCream.scoops = Scoops(rawValue: value)
            case Topping.queryItemKey: iceCream.topping = Topping(rawValue: value)
            default: continue
            }
        }
        guard iceCream.base != nil else { return nil }
        self = iceCream
    }

    init?(message: MSMessage?) {
        guard let url = message?.url, let components = NSURLComponents(url: url, resolvingAgainstBaseURL: false),
              let queryItems = components.queryItems else { return nil }
        self.init(queryItems: queryItems)
    }
}

/// The ice creams this person finished: the sample's starting set (the sample keeps it
/// in `UserDefaults`).
struct IceCreamHistory: Sequence {
    private var iceCreams: [IceCream]

    static func load() -> IceCreamHistory {
        IceCreamHistory(iceCreams: [IceCream(base: .base01, scoops: .scoops01, topping: .topping01),
                                    IceCream(base: .base02, scoops: .scoops02, topping: .topping02)])
    }

    var count: Int { iceCreams.count }

    mutating func append(_ iceCream: IceCream) {
        iceCreams = iceCreams.filter { $0 != iceCream } + [iceCream]
    }

    func makeIterator() -> IndexingIterator<[IceCream]> { iceCreams.makeIterator() }
}
