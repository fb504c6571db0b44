import GroupSimCore

extension ScenarioParser.Context {
    /// Every action keyword, in the order docs/scenario-format.md lists them (the order of suggestions).
    static let actionKeywords = ScenarioVocabulary.actions.map(\.key)

    /// Actions on the whole device rather than one conversation: they take no `conversation:`.
    static let deviceActions = Set(ScenarioVocabulary.deviceActions)

    static let stepKeys = ScenarioVocabulary.step.keys
    static let raceStepKeys = ScenarioVocabulary.raceStep.keys

    // MARK: steps

    /// `steps:` a list of steps and races. Numbers steps 1, 2, ... in file order,
    /// counting each inner step of a race and not the race.
    mutating func readSteps(_ node: Node) -> [Scenario.TimelineItem] {
        guard let items = list(node, expected: "a list of steps such as [{ at: 0ms, device: alice-phone, send: { session: poll } }]") else {
            knowsStepCount = false
            knowsAllSessions = false
            return []
        }
        var timeline: [Scenario.TimelineItem] = []
        var previous = VirtualTime.zero
        for item in items {
            if let entry = readTimelineItem(item, previous: &previous) { timeline.append(entry) }
        }
        return timeline
    }

    /// One entry of `steps:`: a step or a race, with its time.
    private mutating func readTimelineItem(_ node: Node, previous: inout VirtualTime) -> Scenario.TimelineItem? {
        guard let fields = fields(
            node, expected: "a step such as { at: 0ms, device: alice-phone, send: { session: poll } }",
            place: "a step", allowed: Self.stepKeys
        ) else {
            stepCount += 1
            knowsAllSessions = false
            return nil
        }
        let time = readTime(fields, previous: previous)
        if let time { previous = time }

        guard let race = fields.entry("race") else {
            stepCount += 1
            return readStep(fields, number: stepCount, time: time, location: node.location).map(Scenario.TimelineItem.step)
        }
        for entry in fields.entries where entry.key != "race" && entry.key != "at" && entry.key != "after" {
            guard Self.raceStepKeys.contains(entry.key) else { continue }
            report(
                "a race takes only at: or after: beside race:; move \(Self.quoted(entry.key)) into one of the race's steps",
                at: entry.keyLocation
            )
        }
        return readRace(race.value, time: time, location: node.location).map(Scenario.TimelineItem.race)
    }

    /// The step's time from `at:` (absolute) or `after:` (the previous step's time plus
    /// this); nil (reported) when neither, both, or an unreadable one is given.
    private mutating func readTime(_ fields: ScenarioParser.Fields, previous: VirtualTime) -> VirtualTime? {
        switch (fields.entry("at"), fields.entry("after")) {
        case (nil, nil):
            report("a step needs a time: at: (from the start) or after: (from the previous step)", at: fields.node.location)
            return nil
        case let (at?, after?):
            let later = Self.precedes(at.keyLocation, after.keyLocation) ? after : at
            report("give either at: or after:, not both", at: later.keyLocation)
            return nil
        case let (at?, nil):
            // A duration is at most ScenarioLimits.maximumDuration, which is also the latest time.
            return duration(at.value).map { VirtualTime(nanoseconds: $0.nanoseconds) }
        case let (nil, after?):
            guard let delay = duration(after.value) else { return nil }
            let time = previous + delay
            guard time <= ScenarioLimits.maximumTime else {
                report(
                    "time too late: the previous step's \(previous) plus \(delay) is past the latest step time, "
                        + "\(ScenarioLimits.maximumTime) (365 days)",
                    at: after.value.location
                )
                return nil
            }
            return time
        }
    }

    // MARK: race

    /// `race: {within, steps}`: the inner steps take the race's time and no at/after.
    private mutating func readRace(_ node: Node, time: VirtualTime?, location: Scenario.SourceLocation) -> Scenario.Race? {
        let place = "race"
        guard let fields = fields(
            node, expected: "a race such as { within: 5ms, steps: [...] }", place: place, allowed: ScenarioVocabulary.race.keys
        ) else {
            knowsStepCount = false
            knowsAllSessions = false
            return nil
        }
        var within: VirtualDuration?
        if let node = required("within", in: fields, place: place), let duration = duration(node) {
            if duration == .zero {
                report("a race's within must be longer than 0ms: each step starts at an offset drawn from [0, within)", at: node.location)
            } else {
                within = duration
            }
        }
        guard let stepsNode = required("steps", in: fields, place: place),
              let items = list(stepsNode, expected: "a list of the race's steps such as [{ device: bob-phone, reply: { session: poll } }]")
        else {
            knowsStepCount = false
            knowsAllSessions = false
            return nil
        }
        if items.isEmpty {
            report("a race needs at least one step", at: stepsNode.location)
        }
        let misplaced = [
            "at": "a step inside a race starts at the race's time; remove \"at\"",
            "after": "a step inside a race starts at the race's time; remove \"after\"",
            "race": "a race cannot contain another race",
        ]
        var steps: [Scenario.Step] = []
        for item in items {
            stepCount += 1
            guard let inner = self.fields(
                item, expected: "a step such as { device: bob-phone, reply: { session: poll } }",
                place: "a race's step", allowed: Self.raceStepKeys, misplaced: misplaced
            ) else {
                knowsAllSessions = false
                continue
            }
            if let step = readStep(inner, number: stepCount, time: time, location: item.location) { steps.append(step) }
        }
        guard let time, let within, steps.count == items.count else { return nil }
        return Scenario.Race(time: time, within: within, steps: steps, location: location)
    }

    // MARK: step

    /// The device, conversation and single action of a step (its keys already checked).
    private mutating func readStep(_ fields: ScenarioParser.Fields, number: Int, time: VirtualTime?, location: Scenario.SourceLocation) -> Scenario.Step? {
        let actions = fields.entries.filter { Self.actionKeywords.contains($0.key) }
        if actions.isEmpty {
            report("a step needs an action: \(Self.alternatives(Self.actionKeywords))", at: location)
            knowsAllSessions = false
        }
        for extra in actions.dropFirst() {
            report(
                "a step has one action, but this one has both \(Self.quoted(actions[0].key)) and \(Self.quoted(extra.key)); "
                    + "write two steps",
                at: extra.keyLocation
            )
        }
        let deviceNode = required("device", in: fields, place: "a step")
        let device = deviceNode.flatMap { knownDevice($0) }
        guard let actionEntry = actions.first else { return nil }
        let conversation = readStepConversation(fields, keyword: actionEntry.key, location: location)
        let action = readAction(actionEntry)
        guard actions.count == 1, let time, let device, let deviceNode, let conversation, let action else { return nil }

        let step = Scenario.Step(
            number: number, time: time, device: device, conversation: conversation.written, action: action.action, location: location
        )
        drafts.append(ScenarioParser.StepDraft(
            step: step, deviceLocation: deviceNode.location, conversation: conversation.resolved, subjectLocation: action.subject
        ))
        return step
    }

    /// The conversation a step names (`written`) and the one it acts in (`resolved`: the
    /// only conversation when it names none; nil for device actions, or when the
    /// conversations could not be read). nil (reported) when the step is wrong.
    private mutating func readStepConversation(
        _ fields: ScenarioParser.Fields, keyword: String, location: Scenario.SourceLocation
    ) -> (written: String?, resolved: String?)? {
        let entry = fields.optionalEntry("conversation")
        if Self.deviceActions.contains(keyword) {
            guard let entry else { return (nil, nil) }
            report("\(keyword) acts on the whole device, not on one conversation; remove \"conversation\"", at: entry.keyLocation)
            return nil
        }
        let names = conversations.map(\.name)
        guard let entry else {
            if names.count == 1 { return (nil, names[0]) }
            if knowsAllConversations, names.count > 1 {
                report(
                    "a \(keyword) step needs conversation: when there are several (\(Self.alternatives(names)))", at: location
                )
                return nil
            }
            return (nil, nil)
        }
        guard let name = name(entry.value, expected: "a conversation name") else { return nil }
        if names.contains(name) { return (name, name) }
        if knowsAllConversations {
            reportUnknown("conversation", name, at: entry.value.location, candidates: names)
            return nil
        }
        return (name, nil)
    }
}
