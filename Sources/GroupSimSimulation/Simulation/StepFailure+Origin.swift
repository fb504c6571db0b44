import GroupSimCore

extension RunOutcome.StepFailure {
    /// The step a later failure follows from: the user's step that set off the app's work
    /// on this device, and the cloud round trips between that step and the failure.
    ///
    /// A step's effects do not all happen while it runs: an app that fetches from the
    /// cloud store acts again when the answer comes (M13), and a direct send it makes then
    /// may fail (M18) minutes after the tap. The device carries the step through every
    /// cloud request it makes and every answer it hands the app, so that such a failure
    /// belongs to the step, and an `error:` check naming the step expects it. What an app
    /// does on a copy from another device (didReceive, M23) follows no step of this
    /// device's user: a failure there has no origin.
    public struct Origin: Sendable, Hashable {
        /// One round trip between the step and the failure.
        public enum Link: String, Sendable, Hashable {
            case cloudFetch = "cloud fetch"
            case cloudStore = "cloud store"
        }

        /// The step's number (1-based, file order).
        public var step: Int
        /// When the step ran.
        public var stepTime: VirtualTime
        /// The round trips in the order they happened; empty while the step runs.
        public var via: [Link]

        public init(step: Int, stepTime: VirtualTime, via: [Link] = []) {
            self.step = step
            self.stepTime = stepTime
            self.via = via
        }

        /// The same origin one round trip further on.
        package func then(_ link: Link) -> Origin {
            var next = self
            next.via.append(link)
            return next
        }

        /// The round trips as reports print them: `cloud fetch, cloud store` (a link that
        /// repeats is counted: `cloud fetch, cloud store ×3`); `the app` when there are none.
        public var chain: String {
            var parts: [(link: Link, count: Int)] = []
            for link in via {
                if let last = parts.last, last.link == link {
                    parts[parts.count - 1].count += 1
                } else {
                    parts.append((link, 1))
                }
            }
            guard !parts.isEmpty else { return "the app" }
            return parts.map { $0.count == 1 ? $0.link.rawValue : "\($0.link.rawValue) ×\($0.count)" }.joined(separator: ", ")
        }

        /// `via cloud fetch, cloud store, 20m later` for a failure at `time`.
        public func text(failedAt time: VirtualTime) -> String {
            "via \(chain), \(time - stepTime) later"
        }
    }

    /// The step the failure belongs to: the step that ran when it failed, else the step it
    /// follows from (`origin`); nil for an app's own action, which no step set off.
    public var attributedStep: Int? { step ?? origin?.step }

    /// `step 1`, `step 1 (via cloud fetch, cloud store, 20m later)`, or `app action`.
    public var stepText: String { Self.stepText(step: step, origin: origin, failedAt: time) }

    /// A failure's step as reports name it (`stepText`), from a trace event's fields.
    public static func stepText(step: Int?, origin: Origin?, failedAt time: VirtualTime) -> String {
        if let step { return "step \(step)" }
        guard let origin else { return "app action" }
        return "step \(origin.step) (\(origin.text(failedAt: time)))"
    }
}
