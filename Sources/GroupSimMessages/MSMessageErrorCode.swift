import Foundation
import GroupSimCore
import GroupSimScenario
import GroupSimSimulation

/// The error domain of the Messages framework: every error a completion handler or
/// `MSSticker`'s initializer gives is an `NSError` in this domain, with an
/// `MSMessageErrorCode` raw value as its code.
public let MSMessagesErrorDomain: String = "com.apple.messages.MSMessagesErrorDomain"

/// The codes of Messages framework errors, with Apple's raw values (M8, M18, M29).
public enum MSMessageErrorCode: Int, Sendable {
    case unknown = -1
    case fileNotFound = 1
    case fileUnreadable = 2
    case improperFileType = 3
    case improperFileURL = 4
    case stickerFileImproperFileAttributes = 5
    case stickerFileImproperFileSize = 6
    case stickerFileImproperFileFormat = 7
    case urlExceedsMaxSize = 8
    case sendWithoutRecentInteraction = 9
    case sendWhileNotVisible = 10
    case apiUnavailableInPresentationContext = 11
}

extension MSMessageErrorCode {
    /// Apple's code for GroupSim's; GroupSim's own codes (`noBubble`, `noDraft`) are `unknown`.
    init(_ code: MessageErrorCode) {
        self = MSMessageErrorCode(rawValue: code.rawValue) ?? .unknown
    }

    /// This code as the `NSError` the framework hands a completion handler.
    var error: NSError {
        NSError(domain: MSMessagesErrorDomain, code: rawValue,
                userInfo: [NSLocalizedDescriptionKey: MessageErrorCode(rawValue: rawValue)?.description ?? "unknown (-1)"])
    }
}
