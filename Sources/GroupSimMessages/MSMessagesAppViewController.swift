import Foundation

/// `MSMessagesAppViewController`: the extension's entry point, a `UIViewController` on
/// the main actor. Subclass it and override the callbacks you need, exactly as on iOS
/// (M19-M24); contain child controllers in its `view` as on iOS (nothing is drawn).
///
/// GroupSim makes a fresh instance each time the extension becomes active on a device
/// and drops it after `didResignActive`: keep nothing in memory you need later (M22).
///
/// The calls come in iOS's order: the view loads (`loadView`, `viewDidLoad`) before
/// `willBecomeActive(with:)`; `viewWillAppear` and `viewDidAppear` follow
/// `didBecomeActive(with:)`; `viewWillDisappear` comes before `willResignActive(with:)`
/// and `viewDidDisappear` after `didResignActive(with:)`. Every call, and every
/// completion handler, runs on the main actor at a point the run's seed decides.
@MainActor
open class MSMessagesAppViewController: UIViewController {
    /// The conversation the extension runs in while it is active (M20).
    @exclusivity(unchecked) open internal(set) var activeConversation: MSConversation?
    /// How the extension is shown now (M19).
    @exclusivity(unchecked) open internal(set) var presentationStyle: MSMessagesAppPresentationStyle = .compact
    /// Where Messages shows the extension (iOS 12): always `.messages` here.
    @exclusivity(unchecked) open internal(set) var presentationContext: MSMessagesAppPresentationContext = .messages

    @exclusivity(unchecked) var bridge: ExtensionBridge?

    /// Asks to move to `compact` or `expanded` (M24); asking for `transcript` fails the
    /// request, as it raises an exception on iOS (M19).
    open func requestPresentationStyle(_ presentationStyle: MSMessagesAppPresentationStyle) {
        bridge?.enqueue(.requestPresentationStyle(presentationStyle.simulated))
    }

    /// Closes the extension and marks it for termination: `willResignActive` and
    /// `didResignActive` follow, and the process ends (M22). Content the app staged stays
    /// in the input field; when the user then taps Send, Messages sends it without the
    /// extension, which gets no `didStartSending`.
    open func dismiss() {
        bridge?.enqueue(.dismiss)
    }

    /// The size of the view for a live layout in the transcript (iOS 11,
    /// `MSMessagesAppTranscriptPresentation`); GroupSim draws no transcript view, so the
    /// default answers `size`.
    open func contentSizeThatFits(_ size: CGSize) -> CGSize { size }

    /// The extension is about to become active in `conversation` (M20, M21); the view is loaded.
    open func willBecomeActive(with conversation: MSConversation) {}
    /// The extension became active (M20, M21); the view appears next.
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
