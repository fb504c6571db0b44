/// The memory budget a scenario is checked against before it runs: without it, a valid
/// file of 20,000 people each sending 5 messages asks for 2 billion copies and runs until
/// the process is killed.
///
/// The estimate counts what a run keeps for its whole length: every copy a send fans out
/// to (each becomes an envelope, a transcript entry on its receiver and trace events),
/// the network's table of device-to-device links, and the text each copy carries. The
/// budget is a number of copies, `maximumCopies` (`--max-copies N` on the command line);
/// the memory estimate must also stay within what that many copies would use, so a
/// scenario with few sends but a huge link table or huge captions is refused too.
///
/// The default, 12,000,000 copies (about 8 GB at `bytesPerCopy`), fits comfortably in
/// half of a 24 GiB machine; a 1,000-device group in which everyone sends 10 messages
/// (9,990,000 copies) is within it.
package struct ScenarioBudget: Sendable, Hashable {
    /// The default budget: 12,000,000 copies.
    package static let defaultMaximumCopies = 12_000_000
    /// Measured memory per delivered copy, in bytes (envelope, transcript entry, trace
    /// events, the report's share), rounded up.
    package static let bytesPerCopy = 700
    /// Memory per entry of the link table (latency, jitter, random stream): one per ordered
    /// pair of devices.
    package static let bytesPerLink = 32

    /// The most copies a run may deliver.
    package var maximumCopies: Int

    package init(maximumCopies: Int = ScenarioBudget.defaultMaximumCopies) {
        self.maximumCopies = max(0, maximumCopies)
    }

    /// The memory the budget allows: `maximumCopies × bytesPerCopy`.
    package var maximumBytes: Int { Self.product(maximumCopies, Self.bytesPerCopy) }

    /// What one run of a scenario is expected to hold.
    package struct Estimate: Sendable, Hashable {
        /// Copies delivered: for each send, every other device of every person who is
        /// ever a member of its conversation (an upper bound: leaves are not subtracted).
        package var copies: Int
        /// Sends: `send`, `reply`, `text`, `sticker` and `press-send` steps.
        package var sends: Int
        package var devices: Int
        /// Distinct sessions named by the steps.
        package var sessions: Int
        /// Trace events: about two per copy and one per step.
        package var traceEvents: Int
        /// Entries of the link table: devices × devices.
        package var links: Int
        /// The memory estimate in bytes.
        package var bytes: Int
        /// The biggest term of the estimate, in words: `20,000 devices × 100,000 sends`.
        package var largestContributor: String
    }

    /// Estimates one run of `scenario`, in time linear in its size.
    package static func estimate(_ scenario: Scenario) -> Estimate {
        // The devices of everyone who is ever a member of each conversation.
        var devicesOfPerson: [String: Int] = [:]
        for person in scenario.people { devicesOfPerson[person.key] = person.devices.count }
        var members: [String: Set<String>] = [:]
        for conversation in scenario.conversations { members[conversation.name, default: []].formUnion(conversation.members) }
        let fallback = scenario.conversations.first?.name ?? Scenario.ConversationSpec.defaultName
        let steps = scenario.steps
        for step in steps {
            if case .join(let person) = step.action { members[step.conversation ?? fallback, default: []].insert(person) }
        }
        // Per conversation, in the order conversations are listed (then first use).
        var order: [String] = scenario.conversations.map(\.name)
        var sendsIn: [String: Int] = [:]
        var sessions: Set<String> = []
        var sends = 0
        for step in steps {
            if let compose = step.action.compose { sessions.insert(compose.session) }
            guard step.action.delivers else { continue }
            sendsIn[step.conversation ?? fallback, default: 0] += 1
            sends += 1
        }
        var listed = Set(order)
        for step in steps where step.action.delivers {
            let name = step.conversation ?? fallback
            if listed.insert(name).inserted { order.append(name) }
        }
        var devicesIn: [String: Int] = [:]
        for name in order {
            devicesIn[name] = (members[name] ?? []).reduce(0) { sum($0, devicesOfPerson[$1] ?? 0) }
        }
        var copies = 0
        var contentBytes = 0
        var largest = (size: 0, text: "nothing")
        for name in order {
            let count = sendsIn[name] ?? 0
            let devices = devicesIn[name] ?? 0
            let receivers = max(0, devices - 1)
            let conversationCopies = product(count, receivers)
            copies = sum(copies, conversationCopies)
            if conversationCopies > largest.size {
                let place = order.count > 1 ? " in conversation \"\(name)\"" : ""
                largest = (conversationCopies, "\(devices.grouped) devices × \(count.grouped) sends\(place)")
            }
        }
        for step in steps where step.action.delivers {
            let devices = devicesIn[step.conversation ?? fallback] ?? 0
            contentBytes = sum(contentBytes, product(step.action.contentBytes, max(0, devices - 1)))
        }
        let links = product(scenario.devices.count, scenario.devices.count)
        let traceEvents = sum(product(copies, 2), steps.count)
        let copyBytes = sum(product(copies, bytesPerCopy), contentBytes)
        let linkBytes = product(links, bytesPerLink)
        if linkBytes > product(largest.size, bytesPerCopy) {
            largest = (links, "\(scenario.devices.count.grouped) devices × \(scenario.devices.count.grouped) devices (the link table)")
        }
        if contentBytes > product(copies, bytesPerCopy), contentBytes > linkBytes {
            largest = (contentBytes, "\(bytesText(contentBytes)) of message text copied to every receiver")
        }
        return Estimate(
            copies: copies, sends: sends, devices: scenario.devices.count, sessions: sessions.count, traceEvents: traceEvents,
            links: links, bytes: sum(copyBytes, linkBytes), largestContributor: largest.text
        )
    }

    /// Refuses a scenario whose estimate is beyond the budget, with an error that gives
    /// the estimate, its largest contributor and how to raise the budget.
    package func check(_ scenario: Scenario) throws(ScenarioErrors) {
        let estimate = Self.estimate(scenario)
        guard estimate.copies > maximumCopies || estimate.bytes > maximumBytes else { return }
        let message = "the scenario is too large to run: about \(estimate.copies.grouped) copies to deliver "
            + "to \(estimate.devices.grouped) devices, about \(Self.bytesText(estimate.bytes)) of memory; "
            + "the budget is \(maximumCopies.grouped) copies (about \(Self.bytesText(maximumBytes))); "
            + "the largest contributor is \(estimate.largestContributor); "
            + "to run it anyway, raise the budget with --max-copies N (N at least \(requiredCopies(for: estimate).grouped))"
        throw ScenarioErrors([ScenarioError(message, at: Scenario.SourceLocation(file: scenario.file, line: 1, column: 1), code: .overBudget)])
    }

    /// The smallest `maximumCopies` that admits the estimate.
    func requiredCopies(for estimate: Estimate) -> Int {
        let forBytes = estimate.bytes / Self.bytesPerCopy + (estimate.bytes % Self.bytesPerCopy == 0 ? 0 : 1)
        return max(estimate.copies, forBytes)
    }

    // MARK: Arithmetic that cannot overflow, and numbers for people

    static func sum(_ lhs: Int, _ rhs: Int) -> Int {
        let (value, overflow) = lhs.addingReportingOverflow(rhs)
        return overflow ? .max : value
    }

    static func product(_ lhs: Int, _ rhs: Int) -> Int {
        let (value, overflow) = lhs.multipliedReportingOverflow(by: rhs)
        return overflow ? .max : value
    }

    /// `8.4 GB`, `512 MB`, `20 KB`: decimal units, for an estimate.
    static func bytesText(_ bytes: Int) -> String {
        let units: [(String, Double)] = [("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("KB", 1e3)]
        for (name, size) in units where Double(bytes) >= size {
            let value = Double(bytes) / size
            let rounded = value >= 100 ? String(Int(value.rounded())) : String((value * 10).rounded() / 10)
            return "\(rounded.hasSuffix(".0") ? String(rounded.dropLast(2)) : rounded) \(name)"
        }
        return "\(bytes) bytes"
    }
}

extension Scenario.Action {
    /// Whether the step sends something that fans out to the other devices: its kind's
    /// descriptor says (`StepDescriptor.sends`).
    var delivers: Bool { kind.built.sends }

    /// The text a send carries to each receiver, in bytes (captions, summary, data, URL).
    var contentBytes: Int {
        switch self {
        case .send(let compose), .reply(let compose):
            var total = compose.session.utf8.count + (compose.url?.utf8.count ?? 0)
            for field in Scenario.Compose.LayoutField.allCases { total += compose[field]?.utf8.count ?? 0 }
            total += compose.summary?.utf8.count ?? 0
            for entry in compose.data { total += entry.key.utf8.count + entry.value.utf8.count }
            return total
        case .text(let text): return text.utf8.count
        case .insert, .pressSend, .cancel, .open, .tap, .close, .sticker, .reinstall, .offline, .online, .join, .leave: return 0
        }
    }
}
