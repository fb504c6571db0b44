/// A check and whether it held, with what was actually found.
public struct CheckResult: Sendable {
    public var spec: CheckSpec
    public var passed: Bool
    /// The check as written, in one line: `latest alice-phone poll from=carol`.
    public var text: String
    /// What was found, so a failure says why: `alice-phone shows m3 from bob`.
    public var detail: String
}
