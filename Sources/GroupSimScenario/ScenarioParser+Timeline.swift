extension ScenarioParser.Context {
    /// The checks across steps, in time order (file order breaks ties; a race's steps
    /// count at the race's time): which conversation each session belongs to, that each
    /// step's device belongs to a member, that replies and taps name a session some
    /// `send` or `insert` creates in the same conversation, and that `join` and `leave`
    /// change the membership.
    mutating func checkTimeline() {
        let ordered = drafts.sorted { lhs, rhs in
            (lhs.step.time, lhs.step.number) < (rhs.step.time, rhs.step.number)
        }
        // A session comes into being at its first send or insert.
        for draft in ordered {
            guard let conversation = draft.conversation, draft.step.action.kind.built.timeline == .createsSession,
                  let session = draft.step.action.session else { continue }
            if let origin = sessionOrigins[session] {
                checkSession(session, of: origin, usedIn: conversation, at: draft.subjectLocation)
            } else {
                sessionOrigins[session] = ScenarioParser.SessionOrigin(conversation: conversation, location: draft.subjectLocation)
            }
        }

        var everMembers: [String: Set<String>] = [:]
        var members: [String: Set<String>] = [:]
        for conversation in conversations {
            everMembers[conversation.name] = Set(conversation.members)
            members[conversation.name] = Set(conversation.members)
        }
        for draft in ordered {
            guard let conversation = draft.conversation, let device = device(named: draft.step.device) else { continue }
            let checksMembers = !conversationsWithUnreadMembers.contains(conversation)
            if checksMembers, everMembers[conversation]?.contains(device.person) == false {
                report(
                    "\(device.name) belongs to \(device.person), who is not a member of conversation \(Self.quoted(conversation))",
                    at: draft.deviceLocation
                )
            }
            let action = draft.step.action
            switch action.kind.built.timeline {
            case .none, .createsSession:
                break
            case .usesSession:
                if let session = action.session { checkSessionUse(session, in: conversation, at: draft.subjectLocation) }
            case .joins:
                guard checksMembers, let person = action.member else { break }
                if members[conversation]?.insert(person).inserted == false {
                    report("\(person) is already a member of conversation \(Self.quoted(conversation))", at: draft.subjectLocation)
                }
                everMembers[conversation]?.insert(person)
            case .leaves:
                guard checksMembers, let person = action.member else { break }
                if members[conversation]?.remove(person) == nil {
                    report("\(person) is not a member of conversation \(Self.quoted(conversation))", at: draft.subjectLocation)
                }
            }
        }
    }

    /// A reply or tap: the session must be created by some send or insert, in this conversation.
    private mutating func checkSessionUse(_ session: String, in conversation: String, at location: Scenario.SourceLocation) {
        if let origin = sessionOrigins[session] {
            checkSession(session, of: origin, usedIn: conversation, at: location)
        } else if !sessionNameSet.contains(session) {
            reportUnknownSession(session, at: location)
        }
    }

    private mutating func checkSession(
        _ session: String, of origin: ScenarioParser.SessionOrigin, usedIn conversation: String, at location: Scenario.SourceLocation
    ) {
        guard origin.conversation != conversation else { return }
        report(
            "session \(Self.quoted(session)) belongs to conversation \(Self.quoted(origin.conversation)) "
                + "(created at \(place(origin.location))), not \(Self.quoted(conversation))",
            at: location
        )
    }

    /// Reports `unknown session "NAME"` unless a step that could not be read may create it.
    mutating func reportUnknownSession(_ session: String, at location: Scenario.SourceLocation) {
        guard knowsAllSessions else { return }
        report(
            "unknown session \(Self.quoted(session))", at: location, nearestTo: session, in: [sessionNames],
            otherwise: "; no send or insert creates it"
        )
    }
}
