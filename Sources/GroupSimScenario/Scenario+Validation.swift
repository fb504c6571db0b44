extension Scenario {
    /// Checks the scenario exactly as a scenario file is checked, whether it was read from
    /// a file or built in Swift: one validation path for both.
    ///
    /// The scenario is printed as a file (`ScenarioWriter`) and that text goes through
    /// `ScenarioParser`, so every rule of the format applies and every message is the
    /// file's message. Places are cited by the path of the key in the file form, with
    /// indices counted from 0 (`<swift>:steps[3].device: error: unknown device
    /// "bob-phon"; did you mean "bob-phone"?`), since a scenario built in Swift has no
    /// lines. A few rules concern what only Swift can express and a file cannot get wrong:
    /// `devices` must hold exactly the devices the people list, each owned by the person
    /// who lists it, and steps must be numbered 1, 2, ... in file order.
    ///
    /// `Simulation`, `Explorer` and `Shrinker` call this before they run anything, unless
    /// they are given a `ValidatedScenario`.
    ///
    /// - Parameter registeredApps: the names `app.name` may use.
    /// - Throws: every problem found, in file order.
    public func validate(registeredApps: [String] = []) throws(ScenarioErrors) {
        var errors = consistencyErrors()
        let text = ScenarioWriter.yaml(self)
        do {
            let root = try ScenarioReader.read(text, file: file)
            var paths: [ScenarioParser.Position: String] = [:]
            Self.collectPaths(root, path: "", into: &paths)
            do {
                _ = try ScenarioParser.parse(root, file: file, registeredApps: registeredApps, paths: paths)
            } catch {
                errors += error.errors.map { error in
                    let path = error.location.flatMap { paths[ScenarioParser.Position($0)] } ?? "scenario"
                    return ScenarioError(error.message, file: file, path: path, suggestion: error.suggestion, code: error.code)
                }
            }
        } catch {
            errors.append(ScenarioError(error.message, file: file, path: "scenario", suggestion: error.suggestion,
                                        code: error.code))
        }
        if !errors.isEmpty { throw ScenarioErrors(errors) }
    }

    /// What a file cannot get wrong but Swift can: the device list against the people,
    /// and step numbers.
    private func consistencyErrors() -> [ScenarioError] {
        var errors: [ScenarioError] = []
        let listed = people.flatMap { person in person.devices.map { (person: person.key, device: $0) } }
        for (index, spec) in devices.enumerated() where !listed.contains(where: { $0.device == spec.name && $0.person == spec.person }) {
            errors.append(ScenarioError(
                "device \(ScenarioParser.Context.quoted(spec.name)) (devices[\(index)]) belongs to \(spec.person), who does not list it "
                    + "among their devices",
                file: file, path: "people.\(spec.person)", code: .inconsistent))
        }
        for entry in listed where !devices.contains(where: { $0.name == entry.device }) {
            errors.append(ScenarioError(
                "\(entry.person) lists device \(ScenarioParser.Context.quoted(entry.device)), which devices does not hold",
                file: file, path: "people.\(entry.person)", code: .inconsistent))
        }
        var number = 0
        for (index, item) in timeline.enumerated() {
            let steps: [(Step, String)] = switch item {
            case .step(let step): [(step, "steps[\(index)]")]
            case .race(let race): race.steps.enumerated().map { ($0.element, "steps[\(index)].race.steps[\($0.offset)]") }
            }
            for (step, path) in steps {
                number += 1
                if step.number != number {
                    errors.append(ScenarioError(
                        "step number \(step.number) should be \(number): steps are numbered 1, 2, ... in file order, a race's steps "
                            + "included",
                        file: file, path: path, code: .inconsistent))
                }
            }
        }
        return errors
    }

    /// The path of every key and value of the printed file, by where it starts. A place
    /// shared by a collection and its first key (a block mapping starts at its first
    /// key) is the collection's, since an error there is about the whole of it.
    private static func collectPaths(_ node: Node, path: String, into paths: inout [ScenarioParser.Position: String]) {
        if !path.isEmpty, paths[ScenarioParser.Position(node.location)] == nil {
            paths[ScenarioParser.Position(node.location)] = path
        }
        switch node.value {
        case .scalar:
            break
        case .mapping(let entries):
            for entry in entries {
                let inner = path.isEmpty ? entry.key : path + "." + entry.key
                if paths[ScenarioParser.Position(entry.keyLocation)] == nil {
                    paths[ScenarioParser.Position(entry.keyLocation)] = inner
                }
                collectPaths(entry.value, path: inner, into: &paths)
            }
        case .sequence(let items):
            for (index, item) in items.enumerated() {
                collectPaths(item, path: "\(path)[\(index)]", into: &paths)
            }
        }
    }
}

/// A scenario known to be valid with the registered apps it was checked against: made by
/// `validate` (`init(_:registeredApps:)`) or from what `ScenarioParser` has just read from a
/// file with those apps (`init(parsed:)`), whose parse checks everything `validate` does.
/// What runs a scenario without checking it again takes one: `groupsim run` parses its file
/// once, and exploration and benchmarks check a scenario once for all their runs.
@dynamicMemberLookup
package struct ValidatedScenario: Sendable {
    package let scenario: Scenario

    package init(_ scenario: Scenario, registeredApps: [String] = []) throws(ScenarioErrors) {
        try scenario.validate(registeredApps: registeredApps)
        self.scenario = scenario
    }

    /// A scenario `ScenarioParser` has just read with the registered apps it is run with.
    package init(parsed scenario: Scenario) {
        self.scenario = scenario
    }

    package subscript<Value>(dynamicMember field: KeyPath<Scenario, Value>) -> Value { scenario[keyPath: field] }
}
