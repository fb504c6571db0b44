import GroupSimCore
import GroupSimScenario

extension Shrinker {
    /// The edits the search tries: each returns a smaller or simpler scenario with its
    /// steps renumbered in file order, or nil when the edit would remove what the target
    /// check names (its device, its `from` person, the step of an `error:` check).
    ///
    /// Edits do not check the result against the format: the search prints and reads
    /// every candidate back, which rejects, say, a reply left without its session.
    enum Edits {
        /// The candidates of one pass, in the order the pass tries them.
        static func candidates(_ pass: Pass, from current: Candidate) -> [Candidate] {
            let scenario = current.scenario
            switch pass {
            case .people:
                guard scenario.people.count > 1 else { return [] }
                return scenario.people.compactMap { person in
                    removing(people: [person.key], devices: Set(person.devices), from: current)
                }
            case .devices:
                return scenario.people.filter { $0.devices.count > 1 }.flatMap { person in
                    person.devices.compactMap { removing(people: [], devices: [$0], from: current) }
                }
            case .steps:
                return []
            case .links:
                let links = scenario.network.links
                guard !links.isEmpty else { return [] }
                var edits = [withLinks([], current)]
                if links.count > 1 {
                    for index in links.indices {
                        var fewer = links
                        fewer.remove(at: index)
                        edits.append(withLinks(fewer, current))
                    }
                }
                return edits
            case .races:
                return racesAsSteps(current)
            case .delays:
                return lowerDelays(current)
            case .fields:
                return fewerFields(current)
            }
        }

        /// Removes the steps with these numbers (a race left with no steps goes too).
        static func removingSteps(_ numbers: Set<Int>, from current: Candidate) -> Candidate? {
            guard !numbers.isEmpty else { return nil }
            var scenario = current.scenario
            scenario.timeline = scenario.timeline.compactMap { item in
                switch item {
                case .step(let step):
                    return numbers.contains(step.number) ? nil : item
                case .race(var race):
                    race.steps.removeAll { numbers.contains($0.number) }
                    return race.steps.isEmpty ? nil : .race(race)
                }
            }
            return renumbered(scenario, target: current.target)
        }

        /// Removes people and devices, with every step on those devices, every `join` or
        /// `leave` of those people, every link that names them, and their memberships.
        static func removing(people: Set<String>, devices: Set<String>, from current: Candidate) -> Candidate? {
            switch current.target {
            case .latest(let device, _, let from, _, _, _):
                if devices.contains(device) || from.map(people.contains) == true { return nil }
            case .summaries(let device, _, _, _), .plain(let device, _, _), .callbacks(let device, _):
                if devices.contains(device) { return nil }
            case .converged, .diverged, .complete, .pitfalls, .noPitfalls, .noPitfallsOf, .error:
                break
            }
            var scenario = current.scenario
            scenario.people = scenario.people.compactMap { person in
                guard !people.contains(person.key) else { return nil }
                var person = person
                person.devices.removeAll { devices.contains($0) }
                return person
            }
            scenario.devices.removeAll { devices.contains($0.name) || people.contains($0.person) }
            for index in scenario.conversations.indices {
                scenario.conversations[index].members.removeAll { people.contains($0) }
            }
            func names(_ endpoint: Scenario.LinkSpec.Endpoint) -> Bool {
                switch endpoint {
                case .device(let name): devices.contains(name)
                case .person(let key): people.contains(key)
                }
            }
            scenario.network.links.removeAll { names($0.from) || names($0.to) }
            let removed = scenario.steps.filter { step in
                devices.contains(step.device) || step.action.member.map(people.contains) == true
            }
            scenario.timeline = scenario.timeline.compactMap { item in
                switch item {
                case .step(let step):
                    return removed.contains(step) ? nil : item
                case .race(var race):
                    race.steps.removeAll { removed.contains($0) }
                    return race.steps.isEmpty ? nil : .race(race)
                }
            }
            return renumbered(scenario, target: current.target)
        }

        /// Numbers the steps 1, 2, ... in file order and renumbers an `error:` target;
        /// nil when the target's step is gone.
        static func renumbered(_ scenario: Scenario, target: Scenario.Check) -> Candidate? {
            var scenario = scenario
            var newNumbers: [Int: Int] = [:]
            var next = 0
            func renumber(_ step: Scenario.Step) -> Scenario.Step {
                var step = step
                next += 1
                newNumbers[step.number] = next
                step.number = next
                return step
            }
            scenario.timeline = scenario.timeline.map { item in
                switch item {
                case .step(let step):
                    return .step(renumber(step))
                case .race(var race):
                    race.steps = race.steps.map(renumber)
                    return .race(race)
                }
            }
            var target = target
            if case .error(let step, let code) = target {
                guard let number = newNumbers[step] else { return nil }
                target = .error(step: number, code: code)
            }
            scenario.checks = [Scenario.CheckSpec(target)]
            return Candidate(scenario: scenario, target: target)
        }

        // MARK: - Links, races, delays, fields

        private static func withLinks(_ links: [Scenario.LinkSpec], _ current: Candidate) -> Candidate {
            var candidate = current
            candidate.scenario.network.links = links
            return candidate
        }

        /// A race of one step becomes that step at the race's time.
        private static func racesAsSteps(_ current: Candidate) -> [Candidate] {
            current.scenario.timeline.indices.compactMap { index in
                guard case .race(let race) = current.scenario.timeline[index], race.steps.count == 1, var step = race.steps.first
                else { return nil }
                step.time = race.time
                var candidate = current
                candidate.scenario.timeline[index] = .step(step)
                return candidate
            }
        }

        /// Each delay of the scenario lowered: latencies, jitters and the cloud latency
        /// to 0 or to half; race windows to 1ms or to half (a window must stay above 0).
        private static func lowerDelays(_ current: Candidate) -> [Candidate] {
            var edits: [Candidate] = []
            func add(_ change: (inout Scenario) -> Void) {
                var candidate = current
                change(&candidate.scenario)
                edits.append(candidate)
            }
            let scenario = current.scenario
            for value in lowered(scenario.network.latency) { add { $0.network.latency = value } }
            for value in lowered(scenario.network.jitter) { add { $0.network.jitter = value } }
            for (index, link) in scenario.network.links.enumerated() {
                for value in link.latency.map(lowered) ?? [] { add { $0.network.links[index].latency = value } }
                for value in link.jitter.map(lowered) ?? [] { add { $0.network.links[index].jitter = value } }
            }
            // The built-in app with `message` state never talks to the cloud: leave its latency alone.
            if scenario.app.name != nil || scenario.app.state != .message {
                for value in lowered(scenario.app.cloudLatency) { add { $0.app.cloudLatency = value } }
            }
            for (index, item) in scenario.timeline.enumerated() {
                guard case .race(let race) = item else { continue }
                for value in loweredWindow(race.within) {
                    add { scenario in
                        guard case .race(var race) = scenario.timeline[index] else { return }
                        race.within = value
                        scenario.timeline[index] = .race(race)
                    }
                }
            }
            return edits
        }

        /// 0, then half of `duration` in whole milliseconds, when lower.
        static func lowered(_ duration: VirtualDuration) -> [VirtualDuration] {
            guard duration > .zero else { return [] }
            let half = wholeMilliseconds(duration.nanoseconds / 2)
            return half > .zero && half < duration ? [.zero, half] : [.zero]
        }

        /// 1ms, then half of `window` in whole milliseconds, when lower than the window.
        static func loweredWindow(_ window: VirtualDuration) -> [VirtualDuration] {
            let floor = VirtualDuration.milliseconds(1)
            guard window > floor else { return [] }
            let half = wholeMilliseconds(window.nanoseconds / 2)
            return half > floor && half < window ? [floor, half] : [floor]
        }

        private static func wholeMilliseconds(_ nanoseconds: Int64) -> VirtualDuration {
            .milliseconds(nanoseconds / 1_000_000)
        }

        /// Each optional field of each send, insert and reply removed: each layout field,
        /// summary, url, `direct`, and each data entry.
        private static func fewerFields(_ current: Candidate) -> [Candidate] {
            var edits: [Candidate] = []
            for (index, item) in current.scenario.timeline.enumerated() {
                switch item {
                case .step(let step):
                    for action in simpler(step.action) {
                        var candidate = current
                        var changed = step
                        changed.action = action
                        candidate.scenario.timeline[index] = .step(changed)
                        edits.append(candidate)
                    }
                case .race(let race):
                    for (inner, step) in race.steps.enumerated() {
                        for action in simpler(step.action) {
                            var candidate = current
                            var changed = race
                            changed.steps[inner].action = action
                            candidate.scenario.timeline[index] = .race(changed)
                            edits.append(candidate)
                        }
                    }
                }
            }
            return edits
        }

        private static func simpler(_ action: Scenario.Action) -> [Scenario.Action] {
            let rebuild: (Scenario.Compose) -> Scenario.Action
            let compose: Scenario.Compose
            switch action {
            case .send(let value):
                (compose, rebuild) = (value, Scenario.Action.send)
            case .insert(let value):
                (compose, rebuild) = (value, Scenario.Action.insert)
            case .reply(let value):
                (compose, rebuild) = (value, Scenario.Action.reply)
            case .pressSend, .cancel, .open, .tap, .close, .text, .sticker, .reinstall, .offline, .online, .join, .leave:
                return []
            }
            var simpler: [Scenario.Compose] = []
            func without(_ change: (inout Scenario.Compose) -> Void) {
                var copy = compose
                change(&copy)
                simpler.append(copy)
            }
            for field in Scenario.Compose.LayoutField.allCases where compose[field] != nil { without { $0[field] = nil } }
            if compose.summary != nil { without { $0.summary = nil } }
            if compose.url != nil { without { $0.url = nil } }
            if compose.direct { without { $0.direct = false } }
            for index in compose.data.indices { without { $0.data.remove(at: index) } }
            return simpler.map(rebuild)
        }
    }
}
