import Foundation
import GroupSim
import GroupSimMessages

// A group "lunch vote" extension written as an App Store extension is: a `@MainActor`
// controller that works in `Task { }`s, and a store with `async` methods whose adapter
// bridges GroupSim's completion handlers with `withCheckedContinuation`, behind an actor
// that caches what it read. Nothing in it knows it runs in a simulation but the adapter.

/// A poll as the app's server keeps it.
struct LunchPoll: Sendable, Equatable {
    var id: String
    var fields: [String: String]
    var version: Int
}

/// Someone saved the poll first: merge into `current` and save again.
struct LunchPollChanged: Error, Sendable {
    var current: LunchPoll
}

/// The app's store, as its iOS code declares it (CloudKit meets it there).
protocol LunchStore: Sendable {
    func poll(_ id: String) async throws -> LunchPoll
    func save(_ poll: LunchPoll) async throws -> LunchPoll
}

/// The adapter: `SimulatedCloud`'s completion handlers bridged with checked continuations,
/// from nonisolated async functions (so each call starts on Swift's shared executor).
struct BridgedLunchStore: LunchStore {
    let cloud: SimulatedCloud

    func poll(_ id: String) async throws -> LunchPoll {
        await withCheckedContinuation { continuation in
            cloud.fetch(recordNamed: id) { record in
                continuation.resume(returning: LunchPoll(id: record.name, fields: record.fields, version: record.version))
            }
        }
    }

    func save(_ poll: LunchPoll) async throws -> LunchPoll {
        try await withCheckedThrowingContinuation { continuation in
            cloud.save(poll.fields, recordNamed: poll.id, ifVersion: poll.version) { result in
                switch result {
                case .success(let record):
                    continuation.resume(returning: LunchPoll(id: record.name, fields: record.fields, version: record.version))
                case .failure(let changed):
                    let record = changed.serverRecord
                    continuation.resume(throwing: LunchPollChanged(
                        current: LunchPoll(id: record.name, fields: record.fields, version: record.version)))
                }
            }
        }
    }
}

/// The app's caching layer: an actor in front of the store, as shipping apps keep one.
actor CachedLunchStore: LunchStore {
    private let store: any LunchStore
    private var cache: [String: LunchPoll] = [:]

    init(_ store: any LunchStore) { self.store = store }

    func poll(_ id: String) async throws -> LunchPoll {
        let fresh = try await store.poll(id)
        cache[id] = fresh
        return fresh
    }

    func save(_ poll: LunchPoll) async throws -> LunchPoll {
        let saved = try await store.save(poll)
        cache[poll.id] = saved
        return saved
    }
}

/// The extension's controller. A compose (the user's vote) fetches the poll, merges the
/// vote, saves with a conditional write (merging and retrying when someone saved first)
/// and inserts a bubble naming the poll; every bubble that arrives fetches the poll again.
@MainActor
final class AsyncLunchController: MSMessagesAppViewController, ComposeRequestHandling {
    nonisolated static let name = "lunch-async"

    private let store: any LunchStore
    private let newPollID: () -> String
    /// The poll as this device last read it.
    private(set) var shown: LunchPoll?

    /// `newPollID` names a new poll: `environment.makeToken` replays; `UUID().uuidString`
    /// does not.
    init(store: any LunchStore, newPollID: @escaping () -> String) {
        self.store = store
        self.newPollID = newPollID
        super.init(nibName: nil, bundle: nil)
    }

    required init?(coder: NSCoder) { nil }

    func handle(_ request: ComposeRequest) {
        let id = activeConversation?.selectedMessage?.url.flatMap(Self.pollID) ?? newPollID()
        let changes = request.data.map { ($0.key, $0.value) }
        Task { await self.vote(changes, in: id) }
    }

    override func didReceive(_ message: MSMessage, conversation: MSConversation) {
        guard let id = message.url.flatMap(Self.pollID) else { return }
        Task { self.shown = try? await self.store.poll(id) }
    }

    private func vote(_ changes: [(String, String)], in id: String) async {
        do {
            var poll = try await store.poll(id)
            for _ in 0..<5 {
                for (key, value) in changes { poll.fields[key] = value }
                do {
                    poll = try await store.save(poll)
                    break
                } catch let changed as LunchPollChanged {
                    poll = changed.current
                }
            }
            shown = poll
            try await insertBubble(for: poll)
        } catch {
            return
        }
    }

    private func insertBubble(for poll: LunchPoll) async throws {
        guard let conversation = activeConversation else { return }
        let message = MSMessage(session: conversation.selectedMessage?.session ?? MSSession())
        var components = URLComponents()
        components.queryItems = [URLQueryItem(name: "session", value: poll.id)]
        message.url = components.url
        let layout = MSMessageTemplateLayout()
        layout.caption = "Lunch: \(poll.fields.count - 1) votes"
        message.layout = layout
        try await conversation.insert(message)
    }

    nonisolated private static func pollID(_ url: URL) -> String? {
        URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "session" }?.value
    }

    /// The app registered twice: naming polls with the run's seeded tokens, and with
    /// `UUID()`, which no seed decides.
    nonisolated static func apps() -> AppRegistry {
        var apps = AppRegistry()
        apps.register(name, environment: { environment in
            AsyncLunchController(store: CachedLunchStore(BridgedLunchStore(cloud: environment.cloud)),
                                 newPollID: { environment.makeToken() })
        })
        apps.register(name + "-uuid", environment: { environment in
            AsyncLunchController(store: CachedLunchStore(BridgedLunchStore(cloud: environment.cloud)),
                                 newPollID: { UUID().uuidString })
        })
        return apps
    }

    /// Alice asks on her phone; the seven other devices of four people vote within half a
    /// second of each other, over a network with jitter.
    nonisolated static func scenario(app: String = name) -> String {
        """
        name: lunch-async
        seed: 5
        people:
          alice: [alice-phone, alice-pad]
          bob: [bob-phone, bob-pad]
          carol: [carol-phone, carol-pad]
          dan: [dan-phone, dan-pad]
        app: { name: \(app), state: cloud-cas, cloud-latency: 120ms }
        network: { latency: 200ms, jitter: 300ms }
        steps:
          - { at: 0ms, device: alice-phone, send: { session: lunch, data: { q: lunch } } }
          - at: 3s
            race:
              within: 500ms
              steps:
                - { device: bob-phone, reply: { session: lunch, data: { bob: pizza } } }
                - { device: carol-phone, reply: { session: lunch, data: { carol: tacos } } }
                - { device: dan-pad, reply: { session: lunch, data: { dan: sushi } } }
                - { device: alice-pad, reply: { session: lunch, data: { alice: pizza } } }
        expect:
          - converged: lunch
          - complete: { session: lunch, data: { q: lunch, alice: pizza, bob: pizza, carol: tacos, dan: sushi } }
        """
    }
}
