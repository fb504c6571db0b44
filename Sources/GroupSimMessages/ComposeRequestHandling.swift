import GroupSimCore
import GroupSimScenario
import GroupSimSimulation

/// How a scenario step's user intent (`send`, `reply`, `insert` with `data`) reaches
/// your controller: conform your controller to this in your TEST target and call the
/// action method your button calls on iOS. Your app's sources stay portable.
///
/// ```swift
/// // Tests/LunchPollTests/PollViewController+Scenario.swift
/// import GroupSim
/// import GroupSimMessages
/// @testable import LunchPoll
///
/// extension PollViewController: ComposeRequestHandling {
///     public func handle(_ request: ComposeRequest) {
///         for entry in request.data { vote(entry.value, as: entry.key) }   // the button's action
///     }
/// }
/// ```
///
/// GroupSim opens the extension (or taps the session's bubble for a `reply`) before
/// calling this, so `activeConversation` and `selectedMessage` are set (M20, M21). A
/// `send` or `reply` step then taps Send as soon as the app has inserted a message
/// (M16). A controller that does not conform ignores the step.
@MainActor
public protocol ComposeRequestHandling: AnyObject {
    /// Acts on the user's intent, as the app's own interface would.
    func handle(_ request: ComposeRequest)
}
