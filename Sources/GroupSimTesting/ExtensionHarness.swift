import GroupSimCore
import GroupSimScenario
import GroupSimSimulation

/// Drives one device's extension step by step and lets a test assert on everything it
/// did, in the spirit of swift-composable-architecture's `TestStore`.
///
/// The device under test is `PERSON-phone` of the first person (`me-phone` by default),
/// in one conversation with the other people, each on one phone. Each action (`open`,
/// `tap`, `send`, `reply`, `receive`, `answerCloud`...) runs the real device path: the
/// same lifecycle, identifiers, collapse and validation as a scenario run (M1-M30).
/// What it caused collects until the next `expect`, which compares the fields it is
/// given and throws a `HarnessMismatch` that shows expected and received side by side.
///
/// ```swift
/// let harness = try ExtensionHarness(apps: apps, app: "lunch")
/// await harness.open(.compact)
/// try await harness.expect(callbacks: [.willBecomeActive, .didBecomeActive])
/// await harness.send("poll", data: ["q": "lunch"])
/// try await harness.expect(callbacks: [.didStartSending], sent: ["?q=lunch"])
/// ```
public actor ExtensionHarness {
    /// The device the harness drives.
    public nonisolated let device: String
    /// The run of the harness's scenario, with no steps: the same devices, cloud store,
    /// clock and device calls as a scenario run, with the test in place of the scheduler,
    /// driving its first device. The harness runs on the run's executor (`unownedExecutor`).
    private let run: Simulation
    private var pendingCloud: [CloudRequest] = []
    private var stepNumber = 0
    /// Effects since the last `expect`.
    private var callbacksSeen = 0
    private var effects = HarnessEffects()

    /// - Parameters:
    ///   - apps: the registered apps; `app` names one (nil: the built-in app).
    ///   - people: the conversation's members; the first one's phone is driven.
    ///   - state: where checks and the built-in app keep state (`app.state`).
    ///   - cloudLatency: one-way delay to the cloud store.
    public init(apps: AppRegistry = AppRegistry(), app: String? = nil, people: [String] = ["me", "bob", "carol"],
                state: Scenario.AppSpec.StateMode = .message, cloudLatency: VirtualDuration = .milliseconds(20)) throws(HarnessMismatch) {
        guard let first = people.first else { throw HarnessMismatch("the harness needs at least one person") }
        device = "\(first)-phone"
        let spec = Scenario.AppSpec(name: app, state: state, cloudLatency: cloudLatency)
        let scenario = Scenario(name: "harness", people: people.map { Scenario.Person(key: $0, devices: ["\($0)-phone"]) },
                            devices: people.map { Scenario.DeviceSpec(name: "\($0)-phone", person: $0) },
                            conversations: [Scenario.ConversationSpec(members: people)], app: spec, timeline: [])
        do {
            run = Simulation(try ValidatedScenario(scenario, registeredApps: apps.names), apps: apps)
        } catch {
            throw HarnessMismatch("the harness cannot make that conversation: \(error)")
        }
    }

    public nonisolated var unownedExecutor: UnownedSerialExecutor { run.unownedExecutor }

    /// Lends the run's world and clock to `body`: the harness shares the run's executor.
    private func onWorld<T: Sendable>(_ body: @Sendable (inout World, inout DeviceContext) -> T) -> T {
        run.assumeIsolated { $0.withWorld(body) }
    }

    // MARK: - What the user and the system do

    /// Opens the app from the drawer (M20).
    public func open(_ style: Scenario.PresentationStyle = .compact) async { await perform(.open(style)) }
    /// Taps the session's live bubble (M21).
    public func tap(_ session: String) async { await perform(.tap(session: session)) }
    /// Closes the app (M22).
    public func close() async { await perform(.close) }
    /// The user taps Send on the staged draft (M16).
    public func pressSend() async { await perform(.pressSend) }
    /// The user removes the staged draft (M17).
    public func cancel() async { await perform(.cancel) }
    /// Uninstalls and reinstalls the app (M2).
    public func reinstall() async { await perform(.reinstall) }

    /// A `send` step: the user composes in `session` and taps Send (or sends directly).
    public func send(_ session: String, data: KeyValuePairs<String, String> = [:], caption: String? = nil,
                     summary: String? = nil, direct: Bool = false) async {
        await perform(.send(compose(session, data, caption, summary, direct)))
    }

    /// A `reply` step: the user taps the session's bubble, composes and taps Send.
    public func reply(_ session: String, data: KeyValuePairs<String, String> = [:], caption: String? = nil,
                      summary: String? = nil, direct: Bool = false) async {
        await perform(.reply(compose(session, data, caption, summary, direct)))
    }

    /// An `insert` step: the user composes; the app stages; nothing is sent (M16).
    public func insert(_ session: String, data: KeyValuePairs<String, String> = [:], caption: String? = nil) async {
        await perform(.insert(compose(session, data, caption, nil, false)))
    }

    /// A message of the app arrives from `person`'s phone, carrying `url` (M11, M23).
    public func receive(from person: String, session: String, url: String?, caption: String? = nil, summary: String? = nil) async {
        let sender = "\(person)-phone"
        let message = Message(session: Session(name: session), url: url, layout: TemplateLayout(caption: caption), summaryText: summary)
        let conversation = run.scenario.conversations[0].name
        let envelope = onWorld { world, context in
            defer { context.nextMessageID += 1 }
            return Envelope(id: context.nextMessageID, conversation: conversation, senderDevice: sender, senderPerson: person,
                            sentAt: context.now, content: .app(message),
                            senderMap: world.facts.mintIdentifiers(device: sender, generation: 0), provenance: Provenance(),
                            change: nil, senderPosition: world.facts.personIndex[person] ?? -1)
        }
        collect { $0.receive(envelope) }
    }

    /// Moves virtual time on.
    public func advance(by duration: VirtualDuration) {
        onWorld { _, context in context.now = context.now + duration }
    }

    /// Carries every cloud request made so far to the store and brings the answers back,
    /// each a round trip later (M13). Answers may ask for more; those wait for the next call.
    public func answerCloud() async {
        let requests = pendingCloud
        pendingCloud = []
        let latency = run.scenario.app.cloudLatency
        for request in requests {
            let response = onWorld { world, context in
                context.now = context.now + latency + latency
                return world.cloud.handle(request)
            }
            collect { $0.receive(response) }
        }
    }

    // MARK: - What the test reads

    /// The key-value storage of the app's current installation.
    public var storage: [Scenario.DataEntry] { get async { onWorld { world, _ in world.devices[0].storageContents() } } }

    /// Reads the app instance of the current activation with `read`; nil while the
    /// extension is not running. `controller(as:)` is built on it.
    public func withCurrentApp<Value: Sendable>(_ read: @Sendable (any MessagesApp) -> Value?) -> Value? {
        onWorld { world, _ in world.devices[0].app.flatMap(read) }
    }

    /// The device as a check or report sees it (transcript, identifiers, callbacks, draft).
    public func snapshot() async -> DeviceSnapshot { onWorld { world, _ in world.snapshot(ofDevice: 0) } }

    /// Compares what happened since the last `expect` with the given fields (nil: not
    /// compared), then starts collecting afresh. Throws, naming every field that
    /// differs, expected and received.
    ///
    /// - Parameters:
    ///   - callbacks: the framework callbacks the app got, in order (`willBecomeActive`...).
    ///   - sent: the URLs of the app messages the device sent, in order ("" for none).
    ///   - staged: the URL of the draft in the input field now ("" for a draft without
    ///     one); `.some(nil)` expects no draft.
    ///   - failures: the error codes of what failed, in order.
    ///   - storage: every key and value the installation's storage holds now.
    public func expect(callbacks: [AppCallback]? = nil, sent: [String]? = nil, staged: String?? = nil,
                       failures: [MessageErrorCode]? = nil, storage: [String: String]? = nil) async throws(HarnessMismatch) {
        let (snapshot, stored) = onWorld { world, _ in (world.snapshot(ofDevice: 0), world.devices[0].storageContents()) }
        let received = effects
        effects = HarnessEffects()
        var differences: [String] = []
        func compare(_ name: String, _ expected: String?, _ actual: String) {
            guard let expected, expected != actual else { return }
            differences.append("  \(name):\n    expected: \(expected)\n    received: \(actual)")
        }
        compare("callbacks", callbacks.map(Self.names), Self.names(received.callbacks))
        compare("sent", sent.map(Self.list), Self.list(received.sent))
        if let staged {
            compare("staged", staged.map { "draft \(Self.quoted($0))" } ?? "no draft",
                    snapshot.draft.map { "draft \(Self.quoted($0.url ?? ""))" } ?? "no draft")
        }
        compare("failures", failures.map { $0.map(\.description).joined(separator: ", ") },
                received.failures.map(\.description).joined(separator: ", "))
        compare("storage", storage.map { entries in entries.keys.sorted().map { "\($0)=\(entries[$0] ?? "")" }.joined(separator: ", ") },
                stored.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", "))
        guard differences.isEmpty else {
            throw HarnessMismatch("\(device) did not do what the test expected:\n" + differences.joined(separator: "\n"))
        }
    }

    // MARK: - Plumbing

    private static func names(_ callbacks: [AppCallback]) -> String { callbacks.map(\.rawValue).joined(separator: ", ") }
    private static func quoted(_ text: String) -> String { "\"\(text)\"" }
    private static func list(_ items: [String]) -> String { "[" + items.map(quoted).joined(separator: ", ") + "]" }

    private func compose(_ session: String, _ data: KeyValuePairs<String, String>, _ caption: String?, _ summary: String?,
                         _ direct: Bool) -> Scenario.Compose {
        Scenario.Compose(session: session, data: data.map { Scenario.DataEntry($0.key, $0.value) }, caption: caption, summary: summary, direct: direct)
    }

    private func perform(_ action: Scenario.Action) async {
        stepNumber += 1
        let (number, device, conversation) = (stepNumber, device, run.scenario.conversations[0].name)
        let (step, isNew) = onWorld { world, context in
            (Scenario.Step(number: number, time: context.now, device: device, action: action),
             action.compose.map { world.usedSessions.insert($0.session).inserted } ?? false)
        }
        collect { $0.perform(step, conversation: conversation, sessionIsNew: isNew) }
    }

    /// Makes one call into the device and takes in what it did.
    private func collect(_ call: @Sendable (inout DeviceCall) -> Void) {
        let (output, callbacks) = onWorld { world, context in
            var output = DeviceOutput()
            world.call(0, context: &context, output: &output, call)
            return (output, world.devices[0].callbacks)
        }
        effects.callbacks += callbacks.dropFirst(callbacksSeen)
        callbacksSeen = callbacks.count
        for envelope in output.outgoing {
            if case .app(let message) = envelope.content { effects.sent.append(message.url ?? "") }
        }
        effects.failures += output.failures.map(\.code)
        pendingCloud += output.cloudRequests
    }
}

/// What the driven device did since the last `expect`.
struct HarnessEffects: Sendable {
    var callbacks: [AppCallback] = []
    var sent: [String] = []
    var failures: [MessageErrorCode] = []
}

/// The driven extension did not do what the test expected; the description says what
/// differed, expected and received.
public struct HarnessMismatch: Error, Sendable, CustomStringConvertible {
    public let description: String

    init(_ description: String) { self.description = description }
}
