// A lunch-vote iMessage extension as it ships to the App Store, with only the import
// switched from `Messages`/`UIKit` to `GroupSimMessages`: no other GroupSim name, no
// `import Foundation` (UIKit re-exports it), no shims.
import GroupSimMessages

/// A lunch vote: the options, in order, and each voter's choice; the message URL carries it.
struct LunchVote: Equatable {
    var options: [String]
    /// Voter identifier to the option chosen.
    var ballots: [String: String] = [:]

    static let standard = LunchVote(options: ["Pizza", "Tacos", "Sushi"])

    init(options: [String], ballots: [String: String] = [:]) {
        self.options = options
        self.ballots = ballots
    }

    init?(url: URL?) {
        guard let url, let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems else { return nil }
        var options: [String] = []
        var ballots: [String: String] = [:]
        for item in items {
            guard let value = item.value else { continue }
            if item.name == "option" {
                options.append(value)
            } else if item.name.hasPrefix("voter.") {
                ballots[String(item.name.dropFirst("voter.".count))] = value
            }
        }
        guard !options.isEmpty else { return nil }
        self.init(options: options, ballots: ballots)
    }

    func votes(for option: String) -> Int { ballots.values.filter { $0 == option }.count }

    /// The options, then the ballots by voter, in a fixed order.
    var url: URL? {
        var components = URLComponents()
        components.queryItems = options.map { URLQueryItem(name: "option", value: $0) }
            + ballots.keys.sorted().map { URLQueryItem(name: "voter.\($0)", value: ballots[$0]) }
        return components.url
    }

    var summary: String {
        let leader = options.max { votes(for: $0) < votes(for: $1) } ?? ""
        return String(format: NSLocalizedString("%@ leads with %d", comment: ""), leader, votes(for: leader))
    }
}
