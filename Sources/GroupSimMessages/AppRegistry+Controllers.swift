import GroupSimCore
import GroupSimScenario
import GroupSimSimulation

extension AppRegistry {
    /// Registers a controller class under `name`, for scenario files that say
    /// `app: { name: NAME }`. GroupSim calls `make` each time the extension becomes
    /// active on a device (M22), on the main actor:
    ///
    /// ```swift
    /// var apps = AppRegistry()
    /// apps.register("lunch") { PollViewController() }
    /// ```
    public mutating func register<Controller: MSMessagesAppViewController>(
        _ name: String, _ make: @escaping @MainActor @Sendable () -> Controller
    ) {
        register(name, environment: { _ in make() })
    }

    /// Registers a controller whose factory gets the device's `ExtensionEnvironment`:
    /// the installation's storage, the cloud and seeded tokens, to hand to the controller
    /// through its own small protocols.
    ///
    /// ```swift
    /// apps.register("lunch-cloud", environment: { environment in
    ///     let controller = CloudPollViewController()
    ///     controller.store = environment.cloud        // conforms to the app's PollStore
    ///     return controller
    /// })
    /// ```
    public mutating func register<Controller: MSMessagesAppViewController>(
        _ name: String, environment make: @escaping @MainActor @Sendable (ExtensionEnvironment) -> Controller
    ) {
        register(mainActor: name) { (_: Scenario.AppSpec) -> any MessagesApp in ControllerApp(make: make) }
    }
}
