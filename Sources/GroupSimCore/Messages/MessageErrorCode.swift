/// Every `MSMessageErrorCode` of the Messages framework, with its number and name,
/// plus GroupSim's own `noBubble`, `noDraft` and `notMember`.
///
/// A step that fails records one of these and the run goes on (docs/scenario-format.md).
public enum MessageErrorCode: Int, Error, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case unknown = -1
    case fileNotFound = 1
    case fileUnreadable = 2
    case improperFileType = 3
    /// Not a local file URL.
    case improperFileURL = 4
    case stickerFileImproperFileAttributes = 5
    /// 500 KB (512,000 bytes) or more: a sticker must be less than 500 KB (M28, M29).
    case stickerFileImproperFileSize = 6
    /// Not PNG, APNG, GIF or JPEG, or not 300 to 618 pixels square (M28, M29).
    case stickerFileImproperFileFormat = 7
    /// A URL over 5,000 characters, at insert or send (M8).
    case urlExceedsMaxSize = 8
    /// Direct send without a recent user interaction (M18).
    case sendWithoutRecentInteraction = 9
    /// Direct send while the app is not visible (M18).
    case sendWhileNotVisible = 10
    /// Direct send outside the messages presentation context (M18).
    case apiUnavailableInPresentationContext = 11
    /// GroupSim's own: a `reply` or `tap` on a device that shows no bubble of the session.
    /// Not an Apple code; its number is outside Apple's range.
    case noBubble = 1000
    /// GroupSim's own: `press-send` or `cancel` with nothing staged in the input field (M16).
    case noDraft = 1001
    /// GroupSim's own: a step or an app's send in a conversation its device's owner is not
    /// a member of (any more): a removed member cannot post (M6).
    case notMember = 1002

    /// The name as docs/behaviour.md and scenario `error:` checks spell it.
    public var name: String {
        switch self {
        case .unknown: "unknown"
        case .fileNotFound: "fileNotFound"
        case .fileUnreadable: "fileUnreadable"
        case .improperFileType: "improperFileType"
        case .improperFileURL: "improperFileURL"
        case .stickerFileImproperFileAttributes: "stickerFileImproperFileAttributes"
        case .stickerFileImproperFileSize: "stickerFileImproperFileSize"
        case .stickerFileImproperFileFormat: "stickerFileImproperFileFormat"
        case .urlExceedsMaxSize: "urlExceedsMaxSize"
        case .sendWithoutRecentInteraction: "sendWithoutRecentInteraction"
        case .sendWhileNotVisible: "sendWhileNotVisible"
        case .apiUnavailableInPresentationContext: "apiUnavailableInPresentationContext"
        case .noBubble: "noBubble"
        case .noDraft: "noDraft"
        case .notMember: "notMember"
        }
    }

    /// Looks a code up by its name (`urlExceedsMaxSize`) or its number (`8`).
    public init?(name: String) {
        if let match = Self.allCases.first(where: { $0.name == name }) {
            self = match
        } else if let number = Int(name), let match = Self(rawValue: number) {
            self = match
        } else {
            return nil
        }
    }

    /// `urlExceedsMaxSize (8)`.
    public var description: String { "\(name) (\(rawValue))" }
}
