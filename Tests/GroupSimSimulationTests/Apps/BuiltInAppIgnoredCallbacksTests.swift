import Testing
@testable import GroupSimCore
@testable import GroupSimScenario
@testable import GroupSimSimulation

/// `BuiltInApp.ignores`: a device records the callbacks it names without making them, so
/// each must be one the built-in app answers with no action and no change of state, in
/// every mode and whatever the app went through before.
@Suite struct BuiltInAppIgnoredCallbacksTests {
    static let view = Conversation(name: "group", localParticipantIdentifier: ParticipantID(bits: 1, 2), remoteParticipantIdentifiers: [],
                                   selectedMessage: Message(id: 3, session: Session(name: "poll"), url: "?session=poll&q=topping"),
                                   draft: nil, presentationStyle: .expanded)
    static let message = Message(id: 4, session: Session(name: "poll"), url: "?session=poll&q=topping")

    /// The app as each mode leaves it after a compose, a fetch's answer and a received
    /// bubble: a request pending, a staged write waiting for Send, the newest bubble kept.
    static func apps(mode: Scenario.AppSpec.StateMode) -> [BuiltInApp] {
        var apps: [BuiltInApp] = []
        for selection in Scenario.AppSpec.Selection.allCases {
            for push in Scenario.AppSpec.Push.allCases {
                var app = BuiltInApp(mode: mode, selection: selection, push: push)
                apps.append(app)
                _ = app.didReceive(message, conversation: view)
                let request = ComposeRequest(kind: .reply, session: Session(name: "poll"), isNewSession: false,
                                             data: [Scenario.DataEntry("carol", "pickles")])
                _ = app.userDidCompose(request, conversation: view)
                apps.append(app)
                _ = app.didFetch(AppAction.CloudRecord(key: "poll", state: StateMap([Scenario.DataEntry("q", "topping")]), version: 1),
                                 conversation: view)
                apps.append(app)
            }
        }
        return apps
    }

    /// Makes the callback `name` on `app`.
    static func call(_ name: AppCallback, on app: inout BuiltInApp) -> [AppAction] {
        let record = AppAction.CloudRecord(key: "poll", state: nil, version: 2)
        return switch name {
        case .willBecomeActive: app.willBecomeActive(view)
        case .didBecomeActive: app.didBecomeActive(view)
        case .willResignActive: app.willResignActive(view)
        case .didResignActive: app.didResignActive(view)
        case .willTransition: app.willTransition(to: .compact, conversation: view)
        case .didTransition: app.didTransition(to: .compact, conversation: view)
        case .willSelect: app.willSelect(message, conversation: view)
        case .didSelect: app.didSelect(message, conversation: view)
        case .didReceive: app.didReceive(message, conversation: view)
        case .didStartSending: app.didStartSending(message, conversation: view)
        case .didCancelSending: app.didCancelSending(message, conversation: view)
        case .userDidCompose: app.userDidCompose(ComposeRequest(kind: .send, session: Session(name: "poll"), isNewSession: false), conversation: view)
        case .didFetch: app.didFetch(record, conversation: view)
        case .didStore: app.didStore(record, conversation: view)
        }
    }

    @Test func anIgnoredCallbackAsksForNothingAndChangesNothing() {
        for mode in Scenario.AppSpec.StateMode.allCases {
            for app in Self.apps(mode: mode) {
                for name in AppCallback.allCases where BuiltInApp.ignores(name, mode: mode) {
                    var called = app
                    let actions = Self.call(name, on: &called)
                    #expect(actions.isEmpty, "\(mode) \(name): \(actions)")
                    #expect(String(reflecting: called) == String(reflecting: app), "\(mode) \(name) changed the app")
                }
            }
        }
    }

    /// The message mode's send is the one the path every send takes skips; the cloud
    /// modes' Send pushes the staged write, so it is made.
    @Test func onlyTheMessageModeIgnoresSendingAndActivation() {
        #expect(BuiltInApp.ignores(.didStartSending, mode: .message))
        #expect(BuiltInApp.ignores(.didBecomeActive, mode: .message))
        for mode in Scenario.AppSpec.StateMode.allCases where mode != .message {
            #expect(!BuiltInApp.ignores(.didStartSending, mode: mode))
            #expect(!BuiltInApp.ignores(.didBecomeActive, mode: mode))
            #expect(!BuiltInApp.ignores(.didCancelSending, mode: mode))
        }
        for mode in Scenario.AppSpec.StateMode.allCases {
            #expect(!BuiltInApp.ignores(.userDidCompose, mode: mode))
            #expect(!BuiltInApp.ignores(.didSelect, mode: mode))
        }
    }
}
