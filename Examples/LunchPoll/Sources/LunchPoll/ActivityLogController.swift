#if canImport(Messages)
import Messages
#else
import GroupSimMessages
#endif
import Foundation

/// A small extension that touches every part of the Messages API GroupSim mirrors: it
/// keeps a log of what the system told it, shares a sticker, text and a file, and turns
/// the system's errors into words. The same file builds against Apple's SDK.
public final class ActivityLogController: MSMessagesAppViewController {
    /// What happened, newest last.
    public private(set) var log: [String] = []

    public override func willBecomeActive(with conversation: MSConversation) {
        log.append("active as \(conversation.localParticipantIdentifier) with \(conversation.remoteParticipantIdentifiers.count) others")
        if let selected = conversation.selectedMessage {
            log.append("opened on a bubble from \(selected.senderParticipantIdentifier), pending \(selected.isPending)")
        }
    }

    public override func didBecomeActive(with conversation: MSConversation) { log.append("did become active") }
    public override func willResignActive(with conversation: MSConversation) { log.append("will resign") }
    public override func didResignActive(with conversation: MSConversation) { log.append("did resign") }
    public override func willSelect(_ message: MSMessage, conversation: MSConversation) { log.append("will select") }
    public override func didSelect(_ message: MSMessage, conversation: MSConversation) { log.append("did select") }
    public override func didReceive(_ message: MSMessage, conversation: MSConversation) {
        log.append("received \(message.summaryText ?? "a bubble") in \(message.session == nil ? "no session" : "a session")")
    }
    public override func didStartSending(_ message: MSMessage, conversation: MSConversation) { log.append("sending") }
    public override func didCancelSending(_ message: MSMessage, conversation: MSConversation) { log.append("cancelled") }
    public override func willTransition(to presentationStyle: MSMessagesAppPresentationStyle) {
        log.append("to \(presentationStyle == .expanded ? "expanded" : "compact") from \(self.presentationStyle.rawValue)")
    }
    public override func didTransition(to presentationStyle: MSMessagesAppPresentationStyle) { log.append("now \(presentationStyle.rawValue)") }

    /// Stages a bubble drawn by the app itself, with a template for devices without it.
    public func shareLiveBubble(title: String) {
        let template = MSMessageTemplateLayout()
        template.caption = title
        template.subcaption = "tap to open"
        template.trailingCaption = "now"
        template.trailingSubcaption = "live"
        template.imageTitle = "Lunch"
        template.imageSubtitle = "today"
        template.mediaFileURL = nil
        let message = MSMessage()
        message.layout = MSMessageLiveLayout(alternateLayout: template)
        message.accessibilityLabel = title
        message.shouldExpire = true
        message.summaryText = title
        if message.error == nil { activeConversation?.insert(message, completionHandler: Self.report) }
        let session = MSSession()
        activeConversation?.send(MSMessage(session: session), completionHandler: Self.report)
    }

    /// Shares a sticker file, some text and a file.
    public func shareExtras(sticker file: URL, attachment: URL) {
        guard let conversation = activeConversation else { return }
        do {
            let sticker = try MSSticker(contentsOfFileURL: file, localizedDescription: "a pickle")
            conversation.insert(sticker, completionHandler: Self.report)
            conversation.send(sticker)
        } catch {
            print(Self.describe(error))
        }
        conversation.insertText("see you at noon")
        conversation.sendText("on my way", completionHandler: Self.report)
        conversation.insertAttachment(attachment, withAlternateFilename: "menu.pdf", completionHandler: Self.report)
        requestPresentationStyle(.expanded)
        dismiss()
    }

    /// Prints a failure the system reported.
    nonisolated static let report: @Sendable ((any Error)?) -> Void = { error in
        if let error { print(describe(error)) }
    }

    /// The system's error in words.
    nonisolated static func describe(_ error: any Error) -> String {
        let error = error as NSError
        guard error.domain == MSMessagesErrorDomain, let code = MSMessageErrorCode(rawValue: error.code) else {
            return "unexpected error \(error)"
        }
        switch code {
        case .urlExceedsMaxSize: return "the poll is too big for one message"
        case .sendWithoutRecentInteraction, .sendWhileNotVisible, .apiUnavailableInPresentationContext:
            return "sending needs a tap from the user"
        case .fileNotFound, .fileUnreadable, .improperFileType, .improperFileURL: return "that file cannot be shared"
        case .stickerFileImproperFileAttributes, .stickerFileImproperFileSize, .stickerFileImproperFileFormat:
            return "that image cannot be a sticker"
        case .unknown: return "something went wrong"
        @unknown default: return "something went wrong"
        }
    }
}
