/// How the extension is shown (M19): `MSMessagesAppPresentationStyle`, with Apple's raw values.
public enum MSMessagesAppPresentationStyle: UInt, Sendable {
    /// The bottom of the screen, with the input field visible.
    case compact = 0
    /// Most of the screen; the input field is hidden.
    case expanded = 1
    /// A live layout drawn inside the transcript (iOS 11); cannot be requested.
    case transcript = 2
}

extension MSMessagesAppPresentationStyle {
    init(_ style: PresentationStyleValue) {
        switch style {
        case .compact: self = .compact
        case .expanded: self = .expanded
        case .transcript: self = .transcript
        }
    }

    var simulated: PresentationStyleValue {
        switch self {
        case .compact: .compact
        case .expanded: .expanded
        case .transcript: .transcript
        }
    }
}

/// Where Messages shows the extension (iOS 12), with Apple's raw values. GroupSim runs
/// the extension in the Messages app only.
public enum MSMessagesAppPresentationContext: UInt, Sendable {
    /// In the Messages app.
    case messages = 0
    /// Inside a media picker of another app, such as a camera effect.
    case media = 1
}
