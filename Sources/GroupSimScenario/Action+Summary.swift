import GroupSimCore

extension Scenario.Action {
    /// A short form of the action for the timeline: `send poll`, `reply poll (direct)`,
    /// `tap poll`, `reinstall`. A trace's step event prints it, and the digest covers
    /// that text: changing a word here changes every digest.
    /// The keyword comes from the kind's descriptor.
    public var summary: String {
        let keyword = self.keyword
        return switch self {
        case .send(let compose), .reply(let compose): "\(keyword) \(compose.session)\(compose.direct ? " (direct)" : "")"
        case .insert(let compose): "\(keyword) \(compose.session)"
        case .open(let style): "\(keyword) \(style.rawValue)"
        case .tap(let session): "\(keyword) \(session)"
        case .join(let person), .leave(let person): "\(keyword) \(person)"
        case .pressSend, .cancel, .close, .text, .sticker, .reinstall, .offline, .online: keyword
        }
    }
}

extension Scenario.Step {
    /// A short form of the step for the timeline: its action's `summary`.
    public var summary: String { action.summary }
}
