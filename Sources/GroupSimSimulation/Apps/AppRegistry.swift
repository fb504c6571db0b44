import GroupSimScenario

/// The apps a run can use, by name: the built-in app and any registered from Swift.
///
/// A scenario picks one with `app: { name: ... }`. The factory is called each time the
/// extension becomes active on a device, because the process keeps nothing between
/// activations (M22).
public struct AppRegistry: Sendable {
    public typealias Factory = @Sendable (Scenario.AppSpec) -> any MessagesApp

    private var factories: [(name: String, make: Factory)] = []
    /// The registered apps whose callbacks wait for main-actor work (controllers).
    private var mainActorApps: Set<String> = []

    /// A registry with the built-in app only.
    public init() {}

    /// Adds (or replaces) the app called `name`.
    public mutating func register(_ name: String, _ make: @escaping Factory) {
        factories.removeAll { $0.name == name }
        factories.append((name, make))
        mainActorApps.remove(name)
    }

    /// Adds an app whose callbacks run code on the main actor and wait for it: a run of
    /// it gets a thread of its own (`Simulation.run()`), so that the tasks that code
    /// resumes always find a free thread on their way back to the main actor.
    package mutating func register(mainActor name: String, _ make: @escaping Factory) {
        register(name, make)
        mainActorApps.insert(name)
    }

    /// Whether the app `spec` names runs code on the main actor and waits for it.
    package func callsMainActor(_ spec: Scenario.AppSpec) -> Bool {
        spec.name.map(mainActorApps.contains) ?? false
    }

    /// Registered names, in registration order (the built-in app is not listed).
    public var names: [String] { factories.map(\.name) }

    /// The factory for `spec.name`, or the built-in app's when the name is nil.
    package func factory(for spec: Scenario.AppSpec) -> Factory? {
        guard let name = spec.name else { return { BuiltInApp(spec: $0) } }
        return factories.last { $0.name == name }?.make
    }
}
