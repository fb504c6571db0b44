import GroupSimMessages
import GroupSimSimulation

extension ExtensionHarness {
    /// The controller of the current activation, as the type the test names; nil while
    /// the extension is not running or runs another class. A new activation makes a new
    /// controller (M22), so ask again after `open` or `tap`:
    ///
    /// ```swift
    /// await harness.open(.expanded)
    /// let controller = try #require(await harness.controller(as: MessagesViewController.self))
    /// #expect(await controller.children.count == 1)
    /// ```
    public func controller<Controller: MSMessagesAppViewController>(as type: Controller.Type = Controller.self) -> Controller? {
        withCurrentApp { ($0 as? any HostsController)?.hostedController as? Controller }
    }
}
