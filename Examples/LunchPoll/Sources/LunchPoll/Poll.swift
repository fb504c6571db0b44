import Foundation

/// The poll: a question and one choice per voter, as URL query items.
public struct Poll: Equatable, Sendable {
    /// Voter (or `q` for the question) to choice, as the app shows them.
    public var entries: [String: String] = [:]

    public init() {}

    /// The poll a message URL carries; empty for nil.
    public init(url: URL?) {
        guard let url, let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems else { return }
        for item in items { entries[item.name] = item.value ?? "" }
    }

    /// The poll as a URL of query items, sorted so every device writes the same text.
    public var url: URL? {
        var components = URLComponents()
        components.queryItems = entries.keys.sorted().map { URLQueryItem(name: $0, value: entries[$0]) }
        return components.url
    }
}
