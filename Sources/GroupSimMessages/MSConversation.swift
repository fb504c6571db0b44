import Foundation
import GroupSim

/// `MSConversation`: one device's view of the conversation the extension runs in.
///
/// Identifiers are this device's own and change with a reinstall (M1, M2). Inserting
/// stages content in the input field and sending sends it directly (M16, M18); each
/// completion handler is called by the simulation once the system has validated and
/// carried out the request, with `nil` or an `NSError` in `MSMessagesErrorDomain`
/// (M8, M18). A conversation made with `init()` belongs to no device: its inserts and
/// sends fail with `unknown`.
open class MSConversation {
    var bridge: ExtensionBridge?

    /// A conversation attached to no device (for an app's own unit-test doubles).
    public init() {}

    init(bridge: ExtensionBridge) { self.bridge = bridge }

    /// This device's identifier for its owner (M1, M2).
    open var localParticipantIdentifier: UUID {
        bridge.map { UUID($0.view.localParticipantIdentifier) } ?? UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    }

    /// One identifier per other member, in this device's order (M1, M6).
    open var remoteParticipantIdentifiers: [UUID] {
        bridge.map { $0.view.remoteParticipantIdentifiers.map(UUID.init(_:)) } ?? []
    }

    /// The bubble the user tapped, if any; not refreshed when newer messages of its session
    /// arrive (M15).
    open var selectedMessage: MSMessage? { bridge?.selectedMessage() }

    /// Stages `message` in the input field (M16); the user then taps Send. The handler
    /// gets `urlExceedsMaxSize` for a URL over 5,000 characters (M8).
    open func insert(_ message: MSMessage, completionHandler: (@Sendable ((any Error)?) -> Void)? = nil) {
        place(message, direct: false, completionHandler)
    }

    /// Stages a sticker in the input field (M16).
    open func insert(_ sticker: MSSticker, completionHandler: (@Sendable ((any Error)?) -> Void)? = nil) {
        request(.insertSticker(sticker.sticker), completionHandler)
    }

    /// Stages text in the input field (M16).
    open func insertText(_ text: String, completionHandler: (@Sendable ((any Error)?) -> Void)? = nil) {
        request(.insertText(text), completionHandler)
    }

    /// Stages a file attachment in the input field (M16). The URL must be a local file
    /// (`improperFileURL`) that exists (`fileNotFound`); GroupSim draws it as a line
    /// naming the file.
    open func insertAttachment(_ URL: URL, withAlternateFilename filename: String?,
                               completionHandler: (@Sendable ((any Error)?) -> Void)? = nil) {
        guard URL.isFileURL else { return refuse(.improperFileURL, completionHandler) }
        guard FileManager.default.fileExists(atPath: URL.path) else { return refuse(.fileNotFound, completionHandler) }
        request(.insertAttachment(name: filename ?? URL.lastPathComponent), completionHandler)
    }

    /// Sends `message` directly (iOS 11, M18): once per user interaction, only while the
    /// app is visible, else `sendWithoutRecentInteraction` or `sendWhileNotVisible`.
    open func send(_ message: MSMessage, completionHandler: (@Sendable ((any Error)?) -> Void)? = nil) {
        place(message, direct: true, completionHandler)
    }

    /// Sends a sticker directly (M18).
    open func send(_ sticker: MSSticker, completionHandler: (@Sendable ((any Error)?) -> Void)? = nil) {
        request(.sendSticker(sticker.sticker), completionHandler)
    }

    /// Sends text directly (M18).
    open func sendText(_ text: String, completionHandler: (@Sendable ((any Error)?) -> Void)? = nil) {
        request(.sendText(text), completionHandler)
    }

    // MARK: - Plumbing

    private func place(_ message: MSMessage, direct: Bool, _ completionHandler: (@Sendable ((any Error)?) -> Void)?) {
        guard let bridge else { return refuse(.unknown, completionHandler) }
        let simulated = message.simulated(sessionName: bridge.name(of: message.session))
        let local = UUID(bridge.view.localParticipantIdentifier)
        // A direct send starts inside the request: `didStartSending` ends its pending state.
        if direct { bridge.staged = message }
        bridge.enqueue(direct ? .send(simulated) : .insert(simulated)) { [weak bridge] code in
            if code == nil {
                message.sender = local
                message.isPending = !direct
                // The staged message stops being pending when the user taps Send (M17).
                if !direct { bridge?.staged = message }
            }
            completionHandler?(code.map { MSMessageErrorCode($0).error })
        }
    }

    private func request(_ action: AppAction, _ completionHandler: (@Sendable ((any Error)?) -> Void)?) {
        guard let bridge else { return refuse(.unknown, completionHandler) }
        bridge.enqueue(action) { code in completionHandler?(code.map { MSMessageErrorCode($0).error }) }
    }

    private func refuse(_ code: MSMessageErrorCode, _ completionHandler: (@Sendable ((any Error)?) -> Void)?) {
        completionHandler?(code.error)
    }
}
