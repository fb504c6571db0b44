// The adapters that connect the portable extension to GroupSim, in the test target so
// that the extension's sources use nothing but Apple's API.
import GroupSim
import GroupSimMessages
import IceCreamBuilder

/// A scenario step's intent (`data: { scoops: mint }`) is the user's tap on a choice.
extension MessagesViewController: ComposeRequestHandling {
    public func handle(_ request: ComposeRequest) {
        for entry in request.data where IceCreamPart(rawValue: entry.key) != nil {
            tapChoice(entry.value)
        }
    }
}

/// The install's storage meets the history's `UserDefaults` protocol as is.
extension LocalStorage: IceCreamDefaults {}

/// The extension under the name the scenarios use.
func iceCreamApps() -> AppRegistry {
    var apps = AppRegistry()
    apps.register("icecream", environment: { environment in
        let controller = MessagesViewController()
        controller.defaults = environment.storage
        return controller
    })
    return apps
}
