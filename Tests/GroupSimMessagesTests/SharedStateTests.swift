import Foundation
import GroupSim
import GroupSimMessages
import Testing

/// A cache of votes, as an app might keep one in memory: the devices it serves are the
/// question. Its `static let shared` is one object for the whole process.
@MainActor
final class LunchCache {
    static let shared = LunchCache(storage: nil)
    var votes: [String: String] = [:]
    let storage: LocalStorage?

    init(storage: LocalStorage?) { self.storage = storage }
}

/// What the controller reads its votes through: the cache hangs one property below it.
@MainActor
final class LunchStore {
    let cache: LunchCache
    /// Points back at its owner: the walk must not go round.
    weak var owner: CachingLunchController?

    init(cache: LunchCache) { self.cache = cache }
}

/// A controller that keeps a cache; whether the devices share it depends on the factory.
final class CachingLunchController: MSMessagesAppViewController {
    let store: LunchStore
    /// Kept whole by a controller that wants the device's parts later: GroupSim's own, not walked.
    let environment: ExtensionEnvironment?

    init(cache: LunchCache, environment: ExtensionEnvironment? = nil) {
        store = LunchStore(cache: cache)
        self.environment = environment
        super.init(nibName: nil, bundle: nil)
        store.owner = self
    }

    required init?(coder: NSCoder) { nil }
}

/// A controller that keeps Foundation's `UserDefaults.standard`, named past GroupSim's
/// per-device one, instead of the device's storage: one object for the whole process.
final class StandardDefaultsController: MSMessagesAppViewController {
    let defaults = Foundation.UserDefaults.standard
}

@Suite struct SharedStateTests {
    static func apps() -> AppRegistry {
        var apps = AppRegistry()
        // The static cache, handed to every device's controller.
        apps.register("lunch-static") { CachingLunchController(cache: .shared) }
        // A cache per activation, over the device's own storage from its `ExtensionEnvironment`.
        apps.register("lunch-per-device", environment: { environment in
            CachingLunchController(cache: LunchCache(storage: environment.storage), environment: environment)
        })
        apps.register("standard-defaults") { StandardDefaultsController() }
        return apps
    }

    /// Three phones open the app; alice opens it twice, which on the same installation
    /// shares nothing with another device.
    static let threePhones = """
          - { at: 0ms, device: alice-phone, open: compact }
          - { at: 100ms, device: alice-phone, close: true }
          - { at: 200ms, device: alice-phone, open: compact }
          - { at: 300ms, device: bob-phone, open: compact }
          - { at: 400ms, device: carol-phone, open: expanded }
        """

    static func scenario(app: String, steps: String = threePhones) throws -> Scenario {
        try ScenarioParser.parse(text: """
            name: shared-\(app)
            people: { alice: [alice-phone], bob: [bob-phone], carol: [carol-phone] }
            app: { name: \(app) }
            steps:
            \(steps)
            expect:
              - no-pitfalls: true
            """, file: "shared.yaml", registeredApps: apps().names)
    }

    /// The static cache is one object on every device: bob's and carol's activations find
    /// the object alice's controller reached first, each reported once, on the device
    /// where it was found, naming the type, the path and both devices; alice's second
    /// activation, on the same installation, is no finding. Text and JSON reports say so.
    @Test func aStaticCacheHeldByEveryDevicesControllerIsReported() async throws {
        let apps = Self.apps()
        let report = try await Self.scenario(app: "lunch-static").run(apps: apps)
        let found = report.pitfalls.filter { $0.kind == .sharedState }
        #expect(found.map(\.devices) == [["bob-phone"], ["carol-phone"]])
        #expect(found.map(\.summary) == [
            "bob-phone's controller.store.cache and alice-phone's controller.store.cache are the same LunchCache: state shared between "
                + "simulated devices",
            "carol-phone's controller.store.cache and alice-phone's controller.store.cache are the same LunchCache: state shared between "
                + "simulated devices",
        ])
        #expect(found.allSatisfy { $0.rule == "M22" && $0.message == nil })
        #expect(found.first?.explanation.contains("its own process") == true)
        #expect(found.first?.fix.contains("ExtensionEnvironment") == true)
        #expect(report.pitfalls.count == found.count)
        #expect(!report.passed, "no-pitfalls: true must fail on shared state")

        let text = TextReport.render(report)
        #expect(text.contains("shared-state (M22): bob-phone's controller.store.cache and alice-phone's controller.store.cache"), "\(text)")
        let json = JSONReport.render(report)
        #expect(json.contains("\"shared-state\""), "\(json)")
        #expect(json.contains("carol-phone's controller.store.cache and alice-phone's controller.store.cache are the same LunchCache"))
    }

    /// The same controller with a cache made per activation from the device's
    /// `ExtensionEnvironment` (kept whole, and with a store pointing back at its
    /// controller) reports nothing: the environment's parts are GroupSim's, per device.
    @Test func aCachePerDeviceThroughTheEnvironmentIsNoFinding() async throws {
        let report = try await Self.scenario(app: "lunch-per-device").run(apps: Self.apps())
        #expect(report.outcome.sightings.isEmpty, "\(report.outcome.sightings.map(\.detail))")
        #expect(report.passed, "\(report.checks.map(\.detail))")
    }

    /// A reinstall ends the app's process on iOS: the static cache surviving it here is
    /// reported on the reinstalled device, as memory iOS would not keep.
    @Test func aStaticCacheSurvivingAReinstallIsReportedOnThatDevice() async throws {
        let report = try await Self.scenario(app: "lunch-static", steps: """
              - { at: 0ms, device: alice-phone, open: compact }
              - { at: 100ms, device: alice-phone, close: true }
              - { at: 200ms, device: alice-phone, reinstall: true }
              - { at: 300ms, device: alice-phone, open: compact }
              - { at: 400ms, device: bob-phone, open: compact }
            """).run(apps: Self.apps())
        #expect(report.outcome.sightings.map { "\($0.device): \($0.detail)" } == [
            "alice-phone: alice-phone's controller.store.cache is the LunchCache its installation before the reinstall held at "
                + "controller.store.cache: memory that survives a reinstall here, not on iOS",
            "bob-phone: bob-phone's controller.store.cache and alice-phone's controller.store.cache are the same LunchCache: state shared "
                + "between simulated devices",
        ])
    }

    /// A system object that keeps state for its callers is one per process too.
    @Test func standardUserDefaultsIsSharedState() async throws {
        let report = try await Self.scenario(app: "standard-defaults").run(apps: Self.apps())
        #expect(report.outcome.sightings.map(\.detail) == [
            "bob-phone's controller.defaults and alice-phone's controller.defaults are the same UserDefaults: state shared between "
                + "simulated devices",
            "carol-phone's controller.defaults and alice-phone's controller.defaults are the same UserDefaults: state shared between "
                + "simulated devices",
        ])
    }
}
