/// `MSMessagesAppViewController`: the extension's entry point. Subclass it and override
/// the callbacks you need, exactly as on iOS (M19-M24).
///
/// GroupSim makes a fresh instance each time the extension becomes active on a device
/// and drops it after `didResignActive`: keep nothing in memory you need later (M22).
/// It draws nothing (there is no UIKit here): only the logic runs.
///
/// Isolation: on iOS this class is `@MainActor`, and so is your subclass. Here it is a
/// plain class that the simulation calls one callback at a time inside its own
/// isolation, so do not mark your subclass `@MainActor` yourself: the same source then
/// compiles against both, in Swift 5 and Swift 6 language modes.
open class MSMessagesAppViewController {
    /// The conversation the extension runs in while it is active (M20).
    open internal(set) var activeConversation: MSConversation?
    /// How the extension is shown now (M19).
    open internal(set) var presentationStyle: MSMessagesAppPresentationStyle = .compact

    var bridge: ExtensionBridge?

    /// A controller; GroupSim makes one per activation through the registered factory.
    public init() {}

    /// Asks to move to `compact` or `expanded` (M24); asking for `transcript` fails the
    /// request, as it raises an exception on iOS (M19).
    open func requestPresentationStyle(_ presentationStyle: MSMessagesAppPresentationStyle) {
        bridge?.enqueue(.requestPresentationStyle(presentationStyle.simulated))
    }

    /// Closes the extension: `willResignActive`, `didResignActive`, and the process ends (M22).
    open func dismiss() {
        bridge?.enqueue(.dismiss)
    }

    /// The extension is about to become active in `conversation` (M20, M21).
    open func willBecomeActive(with conversation: MSConversation) {}
    /// The extension became active (M20, M21).
    open func didBecomeActive(with conversation: MSConversation) {}
    /// The extension is about to close (M22).
    open func willResignActive(with conversation: MSConversation) {}
    /// The extension closed; the process ends soon after (M22).
    open func didResignActive(with conversation: MSConversation) {}
    /// The user tapped one of the app's bubbles while it was active (M21).
    open func willSelect(_ message: MSMessage, conversation: MSConversation) {}
    /// `selectedMessage` now is the tapped bubble (M21).
    open func didSelect(_ message: MSMessage, conversation: MSConversation) {}
    /// A message of this app arrived while the app was active and not in transcript
    /// style (M23).
    open func didReceive(_ message: MSMessage, conversation: MSConversation) {}
    /// The user tapped Send, or a direct send started; not delivery (M17).
    open func didStartSending(_ message: MSMessage, conversation: MSConversation) {}
    /// The user removed the staged message (M17).
    open func didCancelSending(_ message: MSMessage, conversation: MSConversation) {}
    /// The style is about to change (M24).
    open func willTransition(to presentationStyle: MSMessagesAppPresentationStyle) {}
    /// The style changed (M24).
    open func didTransition(to presentationStyle: MSMessagesAppPresentationStyle) {}
}
