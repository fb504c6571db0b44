import GroupSimCore
import GroupSimScenario
import GroupSimSimulation

/// Finds state that a device's controller shares with another device's controller (M22).
///
/// On iOS each device runs the extension in its own process; here every device's
/// controller lives in one process, so an object kept in a `static` property, a `shared`
/// singleton or a global is the same object on every simulated device. Statics cannot be
/// reflected, but the object a controller holds can: once per activation, after
/// `didBecomeActive`, the walk follows the controller's stored properties with `Mirror`
/// (breadth first, so each object is named by its shortest path) and notes every object
/// it reaches in the run's `SharedObjectLedger`. An object another device's controller
/// reached too, or this device's before a reinstall, is a `shared-state` pitfall.
///
/// Not followed: GroupSim's own types (the bridge, `MSConversation`, `SimulatedCloud`,
/// `ExtensionEnvironment` and its parts, UIKit's controllers and views), closures, and
/// the insides of system types; of those only the ones that keep state for their callers
/// (`UserDefaults`, `NotificationCenter`, `NSCache`) are noted. An object the app reaches
/// only through a static in its methods, never in a stored property, is not found.
@MainActor
enum SharedStateWalk {
    /// How many properties deep the walk goes from the controller.
    static let depthLimit = 6
    /// The most objects one walk notes.
    static let objectLimit = 1_000
    /// The most values (objects, structures, elements) one walk looks at.
    static let valueLimit = 5_000

    /// One object the walk reached, and the path it reached it by (`controller.store.cache`).
    struct Reached {
        let object: AnyObject
        let path: String
    }

    /// Walks what `controller` holds and leaves, in `environment.hostSightings`, a
    /// sighting for each object another device's controller held before.
    static func note(_ controller: AnyObject, in environment: AppEnvironment) {
        let ledger: SharedObjectLedger
        if let kept = environment.process.hostRecord as? SharedObjectLedger {
            ledger = kept
        } else {
            ledger = SharedObjectLedger()
            environment.process.hostRecord = ledger
        }
        for reached in reachable(from: controller) {
            if let detail = ledger.note(reached, device: environment.device, installation: environment.installation) {
                environment.hostSightings.append((.sharedState, detail))
            }
        }
    }

    /// The objects `root` reaches through stored properties, itself first, breadth first.
    static func reachable(from root: AnyObject) -> [Reached] {
        var found: [Reached] = []
        var seen: Set<ObjectIdentifier> = []
        var queue: [(value: Any, path: String, depth: Int)] = [(root, "controller", 0)]
        var next = 0
        while next < queue.count, next < valueLimit, found.count < objectLimit {
            let (value, path, depth) = queue[next]
            next += 1
            let kind = kind(of: value)
            var children: [(label: String, value: Any)] = []
            switch kind {
            case .leaf:
                continue
            case .object(let walked):
                let object = value as AnyObject
                guard seen.insert(ObjectIdentifier(object)).inserted else { continue }
                found.append(Reached(object: object, path: path))
                if walked { children = storedProperties(of: object) }
            case .container(let style):
                children = elements(of: value, style: style)
            }
            guard depth < depthLimit else { continue }
            // Past the bound the rest of a large collection is not looked at (for a dictionary
            // or a set, which of its entries are is up to its hash order).
            for child in children.prefix(max(0, valueLimit - queue.count)) {
                // An optional's value is the property itself, a step no deeper.
                if child.label.isEmpty {
                    queue.append((child.value, path, depth))
                } else {
                    queue.append((child.value, child.label.hasPrefix("[") ? path + child.label : path + "." + child.label, depth + 1))
                }
            }
        }
        return found
    }

    /// What the walk does with a value of a type: skips it, notes an object (and follows
    /// its properties, or not), or looks inside a structure, enum, tuple or collection.
    enum Kind {
        case leaf
        case object(walked: Bool)
        case container(Mirror.DisplayStyle)
    }

    /// Each type's `Kind`, worked out once: the walk runs on every activation.
    private static var kinds: [ObjectIdentifier: Kind] = [:]

    static func kind(of value: Any) -> Kind {
        let type = Swift.type(of: value)
        if let known = kinds[ObjectIdentifier(type)] { return known }
        let kind = workOutKind(of: value, type: type)
        kinds[ObjectIdentifier(type)] = kind
        return kind
    }

    private static func workOutKind(of value: Any, type: Any.Type) -> Kind {
        let module = String(reflecting: type).prefix { $0 != "." }
        if groupSimModules.contains(String(module)) { return .leaf }
        if type is AnyClass {
            if systemModules.contains(String(module)) {
                let name = String(describing: type)
                return keepsStateForCallers.contains { name == $0 || name.hasPrefix($0 + "<") } ? .object(walked: false) : .leaf
            }
            // An actor's properties are its own to read.
            return .object(walked: !(value is any Actor))
        }
        guard let style = Mirror(reflecting: value).displayStyle else { return .leaf }
        switch style {
        case .struct, .enum, .tuple, .optional, .collection, .dictionary, .set:
            // A system structure (a String, a Date) holds no object of the app's; its
            // collections and optionals are looked into.
            if systemModules.contains(String(module)), style == .struct || style == .enum { return .leaf }
            return .container(style)
        default:
            return .leaf
        }
    }

    /// The stored properties of `object`, its own class's and its superclasses' up to
    /// GroupSim's (`MSMessagesAppViewController`, `UIViewController`, `UIView`) or the
    /// system's (`NSObject`).
    static func storedProperties(of object: AnyObject) -> [(label: String, value: Any)] {
        var properties: [(label: String, value: Any)] = []
        var mirror: Mirror? = Mirror(reflecting: object)
        while let current = mirror, isTheApps(current.subjectType) {
            for (index, child) in current.children.enumerated() {
                properties.append((propertyName(child.label, index: index), child.value))
            }
            mirror = current.superclassMirror
        }
        return properties
    }

    /// The parts of a structure, enum payload, tuple or collection, named as in Swift
    /// (`.name`, `.0`, `[2]`, `["key"]`). A dictionary's entries and a set's elements come
    /// sorted by their description, so no hash order decides a path.
    static func elements(of value: Any, style: Mirror.DisplayStyle) -> [(label: String, value: Any)] {
        let children = Mirror(reflecting: value).children.prefix(valueLimit)
        switch style {
        case .optional:
            return children.first.map { [("", $0.value)] } ?? []
        case .collection:
            return children.enumerated().map { ("[\($0.offset)]", $0.element.value) }
        case .set:
            return children.map { (String(describing: $0.value), $0.value) }.sorted { $0.0 < $1.0 }.map { ("[\($0.0)]", $0.1) }
        case .dictionary:
            return children.compactMap { entry -> (label: String, value: Any)? in
                let pair = Array(Mirror(reflecting: entry.value).children)
                guard pair.count == 2 else { return nil }
                return ("[\(String(reflecting: pair[0].value))]", pair[1].value)
            }.sorted { $0.label < $1.label }
        default:
            return children.enumerated().map { (propertyName($0.element.label, index: $0.offset), $0.element.value) }
        }
    }

    /// A stored property's name as the app's source spells it.
    static func propertyName(_ label: String?, index: Int) -> String {
        guard let label else { return String(index) }
        return label.hasPrefix(lazyPrefix) ? String(label.dropFirst(lazyPrefix.count)) : label
    }

    private static let lazyPrefix = "$__lazy_storage_$_"

    /// Whether `type` is declared by the app, not by GroupSim or the system; worked out once per type.
    static func isTheApps(_ type: Any.Type) -> Bool {
        if let known = theApps[ObjectIdentifier(type)] { return known }
        let module = String(String(reflecting: type).prefix { $0 != "." })
        let apps = !groupSimModules.contains(module) && !systemModules.contains(module)
        theApps[ObjectIdentifier(type)] = apps
        return apps
    }

    private static var theApps: [ObjectIdentifier: Bool] = [:]

    /// GroupSim's libraries: what they hold is the simulation's, made per device.
    private static let groupSimModules: Set<String> = [
        "GroupSim", "GroupSimCore", "GroupSimScenario", "GroupSimSimulation", "GroupSimChecking", "GroupSimReporting",
        "GroupSimUIKit", "GroupSimMessages", "GroupSimTesting", "GroupSimBench", "GroupSimCLI",
    ]

    private static let systemModules: Set<String> = [
        "Swift", "_Concurrency", "Foundation", "FoundationEssentials", "FoundationInternationalization", "CoreFoundation",
        "Dispatch", "ObjectiveC", "__C", "Synchronization",
    ]

    /// System classes whose one instance keeps state for whoever holds it: shared by the
    /// devices here, one per device on iOS.
    private static let keepsStateForCallers = ["UserDefaults", "NSUserDefaults", "NotificationCenter", "NSNotificationCenter", "NSCache"]
}

/// The objects the run's controllers reached, each with the first device and path that
/// reached it: kept in the run's `ExtensionProcess`, so one run's objects are never
/// compared with another's. Objects are held weakly, so the walk keeps nothing alive
/// longer than the app does; an object that died no longer counts, whatever later takes
/// its address.
@MainActor
final class SharedObjectLedger {
    private struct Holder {
        weak var object: AnyObject?
        let device: String
        let installation: Int
        let path: String
        /// The installations already told of it, as `device#installation`.
        var told: Set<String> = []
    }

    private var holders: [ObjectIdentifier: Holder] = [:]

    /// Notes that `device`'s controller reached `reached`; returns the sighting's words
    /// when another device's controller, or this device's before a reinstall, reached the
    /// same object first. Each installation is told of an object once per run.
    func note(_ reached: SharedStateWalk.Reached, device: String, installation: Int) -> String? {
        let id = ObjectIdentifier(reached.object)
        guard var holder = holders[id], holder.object != nil else {
            holders[id] = Holder(object: reached.object, device: device, installation: installation, path: reached.path)
            return nil
        }
        guard holder.device != device || holder.installation != installation,
              holder.told.insert("\(device)#\(installation)").inserted else { return nil }
        holders[id] = holder
        let type = String(describing: Swift.type(of: reached.object))
        if holder.device == device {
            return "\(device)'s \(reached.path) is the \(type) its installation before the reinstall held at \(holder.path): memory "
                + "that survives a reinstall here, not on iOS"
        }
        return "\(device)'s \(reached.path) and \(holder.device)'s \(holder.path) are the same \(type): state shared between simulated "
            + "devices"
    }
}
