/// Every callback the simulated extension receives, named as `MessagesApp` names them: the
/// one list that the timeline (`--callbacks`), `DeviceSnapshot.callbacks` and the
/// `callbacks:` check share, so every name the timeline prints can be checked.
///
/// The first eleven are `MSMessagesAppViewController`'s (M17, M20 to M24); the last three
/// are GroupSim's own entry points: the user's compose intent and the cloud store's
/// answers (M13).
public enum AppCallback: String, Sendable, Hashable, CaseIterable {
    case willBecomeActive, didBecomeActive, willResignActive, didResignActive, willTransition, didTransition
    case willSelect, didSelect, didReceive, didStartSending, didCancelSending
    case userDidCompose, didFetch, didStore

    /// Every name, in declaration order (the order of suggestions for a misspelt one).
    public static let names = descriptors.map(\.name)
}
