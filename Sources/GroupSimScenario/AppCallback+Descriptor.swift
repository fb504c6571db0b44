import GroupSimCore

extension AppCallback {
    /// Everything the tables need to know about this callback.
    ///
    /// To add a callback, add a case to `AppCallback` and follow the compiler: this switch
    /// asks for it, and the `callbacks:` check's names, the schema and the help are derived
    /// from the descriptor.
    package var descriptor: AppCallbackDescriptor {
        switch self {
        case .willBecomeActive:
            AppCallbackDescriptor(name: rawValue, origin: .viewController, rules: ["M20", "M21"],
                about: "the app is about to become active")
        case .didBecomeActive:
            AppCallbackDescriptor(name: rawValue, origin: .viewController, rules: ["M20", "M21"], about: "the app became active")
        case .willResignActive:
            AppCallbackDescriptor(name: rawValue, origin: .viewController, rules: ["M22"], about: "the app is about to be dismissed")
        case .didResignActive:
            AppCallbackDescriptor(name: rawValue, origin: .viewController, rules: ["M22"], about: "the app was dismissed")
        case .willTransition:
            AppCallbackDescriptor(name: rawValue, origin: .viewController, rules: ["M24"], about: "the presentation style is about to "
                + "change")
        case .didTransition:
            AppCallbackDescriptor(name: rawValue, origin: .viewController, rules: ["M24"], about: "the presentation style changed")
        case .willSelect:
            AppCallbackDescriptor(name: rawValue, origin: .viewController, rules: ["M21"], about: "a bubble is about to be selected")
        case .didSelect:
            AppCallbackDescriptor(name: rawValue, origin: .viewController, rules: ["M21"], about: "a bubble was selected")
        case .didReceive:
            AppCallbackDescriptor(name: rawValue, origin: .viewController, rules: ["M23"],
                                  about: "one of the app's messages arrived while the app is active")
        case .didStartSending:
            AppCallbackDescriptor(name: rawValue, origin: .viewController, rules: ["M17"], about: "the user sent the staged message")
        case .didCancelSending:
            AppCallbackDescriptor(name: rawValue, origin: .viewController, rules: ["M17"], about: "the user removed the staged message")
        case .userDidCompose:
            AppCallbackDescriptor(name: rawValue, origin: .groupSim, rules: ["M16"],
                                  about: "the user composed in the app's interface (a send, reply or insert step)")
        case .didFetch:
            AppCallbackDescriptor(name: rawValue, origin: .groupSim, rules: ["M13"], about: "the cloud store answered a read")
        case .didStore:
            AppCallbackDescriptor(name: rawValue, origin: .groupSim, rules: ["M13"], about: "the cloud store answered a write")
        }
    }

    /// Every callback's descriptor, in declaration order.
    package static let descriptors = allCases.map(\.descriptor)
}

/// Everything the tables need to know about one callback (`AppCallback.descriptor`).
package struct AppCallbackDescriptor: Sendable, Equatable {
    /// Where the callback comes from.
    package enum Origin: Sendable, Equatable {
        /// `MSMessagesAppViewController` calls it.
        case viewController
        /// One of GroupSim's own entry points: the user's compose intent, the cloud store's answers.
        case groupSim
    }

    /// The name the timeline prints and a `callbacks:` check takes: the case's raw value.
    package var name: String
    package var origin: Origin
    /// The docs/behaviour.md rules that say when it comes.
    package var rules: [Rule]
    /// One line for the help.
    package var about: String
}
