import Foundation
import GroupSimCore
import GroupSimScenario
import GroupSimSimulation

/// `MSConversation`: one device's view of the conversation the extension runs in.
///
/// Identifiers are this device's own and change with a reinstall (M1, M2). Inserting
/// stages content in the input field and sending sends it directly (M16, M18); each
/// completion handler is called by the simulation once the system has validated and
/// carried out the request, with `nil` or an `NSError` in `MSMessagesErrorDomain`
/// (M8, M18). A conversation made with `init()` belongs to no device: its inserts and
/// sends fail with `unknown`.
///
/// Completion handlers run on the main actor, so a handler may update the controller.
/// Each method also has Apple's `async throws` form (`try await conversation.insert(message)`),
/// which returns when the completion handler would be called and throws the error it
/// would get; call it from the main actor, for example in a `Task { ... }` that a
/// controller callback starts. The request reaches the system before the simulation
/// moves on, and the code after the `await` runs on the main actor inside the call that
/// carries the answer, up to its next suspension, at the virtual time the seed decides
/// (see `MainActorCalls`).
open class MSConversation {
    @exclusivity(unchecked) var bridge: ExtensionBridge?

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
    open func insert(_ message: MSMessage, completionHandler: (@MainActor @Sendable ((any Error)?) -> Void)? = nil) {
        place(message, direct: false, completionHandler)
    }

    /// Stages a sticker in the input field (M16).
    open func insert(_ sticker: MSSticker, completionHandler: (@MainActor @Sendable ((any Error)?) -> Void)? = nil) {
        request(.insertSticker(sticker.sticker), completionHandler)
    }

    /// Stages text in the input field (M16).
    open func insertText(_ text: String, completionHandler: (@MainActor @Sendable ((any Error)?) -> Void)? = nil) {
        request(.insertText(text), completionHandler)
    }

    /// Stages a file attachment in the input field (M16). The URL must be a local file
    /// (`improperFileURL`) that exists (`fileNotFound`); GroupSim draws it as a line
    /// naming the file.
    open func insertAttachment(_ URL: URL, withAlternateFilename filename: String?,
                               completionHandler: (@MainActor @Sendable ((any Error)?) -> Void)? = nil) {
        guard URL.isFileURL else { return refuse(.improperFileURL, completionHandler) }
        guard FileManager.default.fileExists(atPath: URL.path) else { return refuse(.fileNotFound, completionHandler) }
        request(.insertAttachment(name: filename ?? URL.lastPathComponent), completionHandler)
    }

    /// Sends `message` directly (iOS 11, M18): once per user interaction, only while the
    /// app is visible, else `sendWithoutRecentInteraction` or `sendWhileNotVisible`.
    open func send(_ message: MSMessage, completionHandler: (@MainActor @Sendable ((any Error)?) -> Void)? = nil) {
        place(message, direct: true, completionHandler)
    }

    /// Sends a sticker directly (M18).
    open func send(_ sticker: MSSticker, completionHandler: (@MainActor @Sendable ((any Error)?) -> Void)? = nil) {
        request(.sendSticker(sticker.sticker), completionHandler)
    }

    /// Sends text directly (M18).
    open func sendText(_ text: String, completionHandler: (@MainActor @Sendable ((any Error)?) -> Void)? = nil) {
        request(.sendText(text), completionHandler)
    }

    /// Sends a file attachment directly (iOS 11, M18), with the checks of
    /// `insertAttachment(_:withAlternateFilename:completionHandler:)`.
    open func sendAttachment(_ URL: URL, withAlternateFilename filename: String?,
                             completionHandler: (@MainActor @Sendable ((any Error)?) -> Void)? = nil) {
        guard URL.isFileURL else { return refuse(.improperFileURL, completionHandler) }
        guard FileManager.default.fileExists(atPath: URL.path) else { return refuse(.fileNotFound, completionHandler) }
        // GroupSim draws an attachment as a line naming the file, sent as that text.
        request(.sendText("[attachment \(filename ?? URL.lastPathComponent)]"), completionHandler)
    }

    // MARK: - The async forms

    /// `insert(_:completionHandler:)`, awaited: throws the error the handler would get.
    @MainActor open func insert(_ message: MSMessage) async throws {
        try await awaitHandler { insert(message, completionHandler: $0) }
    }

    /// `insert(_:completionHandler:)` for a sticker, awaited.
    @MainActor open func insert(_ sticker: MSSticker) async throws {
        try await awaitHandler { insert(sticker, completionHandler: $0) }
    }

    /// `insertText(_:completionHandler:)`, awaited.
    @MainActor open func insertText(_ text: String) async throws {
        try await awaitHandler { insertText(text, completionHandler: $0) }
    }

    /// `insertAttachment(_:withAlternateFilename:completionHandler:)`, awaited.
    @MainActor open func insertAttachment(_ URL: URL, withAlternateFilename filename: String?) async throws {
        try await awaitHandler { insertAttachment(URL, withAlternateFilename: filename, completionHandler: $0) }
    }

    /// `send(_:completionHandler:)`, awaited.
    @MainActor open func send(_ message: MSMessage) async throws {
        try await awaitHandler { send(message, completionHandler: $0) }
    }

    /// `send(_:completionHandler:)` for a sticker, awaited.
    @MainActor open func send(_ sticker: MSSticker) async throws {
        try await awaitHandler { send(sticker, completionHandler: $0) }
    }

    /// `sendText(_:completionHandler:)`, awaited.
    @MainActor open func sendText(_ text: String) async throws {
        try await awaitHandler { sendText(text, completionHandler: $0) }
    }

    /// `sendAttachment(_:withAlternateFilename:completionHandler:)`, awaited.
    @MainActor open func sendAttachment(_ URL: URL, withAlternateFilename filename: String?) async throws {
        try await awaitHandler { sendAttachment(URL, withAlternateFilename: filename, completionHandler: $0) }
    }

    /// Makes the request with a handler that resumes the caller. The continuation is not a
    /// checked one: an extension that closes before the answer never resumes, as its
    /// process ends on iOS, and that is not a misuse to report. The caller's next part
    /// runs inside the call that carries the answer (`SequencedJobs`).
    @MainActor private func awaitHandler(_ start: (@escaping @MainActor @Sendable ((any Error)?) -> Void) -> Void) async throws {
        try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
            start { error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume() }
            }
        }
    }

    // MARK: - Plumbing

    private func place(_ message: MSMessage, direct: Bool, _ completionHandler: Handler?) {
        guard let bridge else { return refuse(.unknown, completionHandler) }
        let simulated = message.simulated(sessionName: bridge.name(of: message.session))
        let local = bridge.view.localParticipantIdentifier
        // A direct send starts inside the request: `didStartSending` ends its pending state.
        if direct { bridge.staged = message }
        // Unowned, not weak: only the bridge holds the handler and calls it, so the bridge is
        // alive whenever it runs, and a weak reference gave every bridge a side table to
        // make and free (one per activation that inserts or sends).
        bridge.enqueue(direct ? .send(simulated) : .insert(simulated)) { [unowned bridge] code in
            if code == nil {
                message.sender = local
                message.isPending = !direct
                // The staged message stops being pending when the user taps Send (M17).
                if !direct { bridge.staged = message }
            }
            Self.call(completionHandler, code.map { MSMessageErrorCode($0).error })
        }
    }

    private func request(_ action: AppAction, _ completionHandler: Handler?) {
        guard let bridge else { return refuse(.unknown, completionHandler) }
        bridge.enqueue(action) { code in Self.call(completionHandler, code.map { MSMessageErrorCode($0).error }) }
    }

    private func refuse(_ code: MSMessageErrorCode, _ completionHandler: Handler?) {
        Self.call(completionHandler, code.error)
    }

    typealias Handler = @MainActor @Sendable ((any Error)?) -> Void

    /// Calls a completion handler on the main actor: at once when the caller is there.
    /// Inside a run that is always so: the simulation calls controllers, and answers
    /// their requests, on the main queue (`MainActorCalls`), so a run's order never
    /// depends on a task. Only a conversation used outside any run (made in a test, with
    /// no device behind it) can be asked off the main actor; its refusal then reaches the
    /// handler in a main-actor task, as Apple's handlers arrive on the main queue later.
    private static func call(_ handler: Handler?, _ error: (any Error)?) {
        guard let handler else { return }
        if MainActorCalls.isOnMainQueue {
            MainActorCalls.onMainActor { handler(error) }
        } else {
            Task { @MainActor in handler(error) }
        }
    }
}
