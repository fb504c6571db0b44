/// The one process every device's extension runs in for the length of a run, where iOS
/// gives each device a process of its own (M22): the place an app host keeps what it
/// notes across devices (GroupSimMessages keeps the objects the controllers hold, to find
/// state they share). Every device's `AppEnvironment` of a run hands out the same one;
/// the next run gets a new one, so nothing of a run reaches the next.
///
/// Read and written only inside a device's synchronous call into its app, which runs on
/// the main actor while the run's thread waits.
package final class ExtensionProcess: @unchecked Sendable {
    /// What the host keeps for the run, of a type only it knows; nil until it needs it.
    package var hostRecord: AnyObject?

    package init() {}
}
