import GroupSimCore

extension Action {
    /// A short form of the action for the timeline: `send poll`, `reply poll (direct)`,
    /// `tap poll`, `reinstall`. A trace's step event prints it, and the digest covers
    /// that text: changing a word here changes every digest.
    public var summary: String {
        switch self {
        case .send(let compose): "send \(compose.session)\(compose.direct ? " (direct)" : "")"
        case .reply(let compose): "reply \(compose.session)\(compose.direct ? " (direct)" : "")"
        case .insert(let compose): "insert \(compose.session)"
        case .pressSend: "press-send"
        case .cancel: "cancel"
        case .open(let style): "open \(style.rawValue)"
        case .tap(let session): "tap \(session)"
        case .close: "close"
        case .text: "text"
        case .sticker: "sticker"
        case .reinstall: "reinstall"
        case .offline: "offline"
        case .online: "online"
        case .join(let person): "join \(person)"
        case .leave(let person): "leave \(person)"
        }
    }
}

extension Step {
    /// A short form of the step for the timeline: its action's `summary`.
    public var summary: String { action.summary }
}
