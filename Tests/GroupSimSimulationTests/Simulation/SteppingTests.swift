import Foundation
import Testing
@testable import GroupSimCore
@testable import GroupSimScenario
@testable import GroupSimSimulation
@testable import GroupSimChecking
import GroupSimTesting

/// A test may stop a run anywhere and look: `step()` and `advance(to:)` run the same events
/// as `run()`, in the same order, and between two events `now`, `traceSoFar`, `pending`
/// and `snapshot(of:)` show the run as it stands; the run then ends as if it had never stopped.
@Suite struct SteppingTests {
    static let files = ["pickles-race.yaml", "pickles-race-cloud-merge.yaml", "offline-catch-up.yaml"]

    static func scenario(_ file: String) throws -> Scenario {
        try ScenarioParser.load(path: ScenarioFiles.root.appendingPathComponent("Scenarios").appendingPathComponent(file).path)
    }

    /// The file's uninterrupted run's report, and a fresh simulation of its scenario.
    static func whole(_ file: String) async throws -> (whole: RunReport, fresh: Simulation) {
        let scenario = try Self.scenario(file)
        return (RunReport(outcome: try await Simulation(scenario: scenario).run()), Simulation(scenario: scenario))
    }

    /// After each step the trace so far is the whole run's up to there, and the clock
    /// stands at its last event.
    @Test(arguments: files)
    func eachStepShowsTheRunsTraceUpToThere(_ file: String) async throws {
        let (whole, stepped) = try await Self.whole(file)
        let events = whole.outcome.trace.events
        var steps = 0
        while try await stepped.step() {
            steps += 1
            let soFar = await stepped.traceSoFar.events
            #expect(soFar == Array(events.prefix(soFar.count)), "\(file): step \(steps)")
            #expect(await stepped.now == soFar.last?.time ?? .zero, "\(file): step \(steps)")
        }
        #expect(try await stepped.step() == false)
        let outcome = try await stepped.run()
        #expect(steps == outcome.eventCount)
        #expect(steps == whole.outcome.eventCount)
        #expect(RunReport(outcome: outcome).digest == whole.digest)
    }

    /// Each slice runs exactly the events due by its instant and leaves the clock there.
    @Test(arguments: files)
    func eachSliceShowsTheEventsDueByItsInstant(_ file: String) async throws {
        let (whole, sliced) = try await Self.whole(file)
        var ran = 0
        var instant = VirtualTime.zero
        // 37 ms slices until the end of the whole run.
        while instant < whole.outcome.endTime {
            instant = instant + .milliseconds(37)
            ran += try await sliced.advance(to: instant)
            #expect(await sliced.now == instant)
            let due = whole.outcome.trace.events.filter { $0.time <= instant }
            #expect(await sliced.traceSoFar.events == due, "\(file): at \(instant)")
        }
        #expect(ran == whole.outcome.eventCount)
        #expect(try await sliced.step() == false)
        #expect(await sliced.pending.isEmpty)
        let outcome = try await sliced.run()
        #expect(RunReport(outcome: outcome).digest == whole.digest)
    }

    /// pickles-race between its last step and the first arrival: the three replies are
    /// all in flight, each device shows its own reply (or the question), and one arrival
    /// at a time changes one device's live bubble.
    @Test func betweenEventsTheCopiesInFlightAndTheLiveBubblesShow() async throws {
        let simulation = Simulation(scenario: try Self.scenario("pickles-race.yaml"))
        func bubble(_ device: String) async throws -> Int? {
            try await simulation.snapshot(of: device)?.session("poll")?.message
        }
        #expect(try await simulation.snapshot(of: "nobody-phone") == nil)
        #expect(try await bubble("alice-phone") == nil)
        try await simulation.advance(to: .zero + .milliseconds(502))
        // m2 from Bob at 500ms, m3 from Alice at 501ms, m4 from Carol at 502ms; 50ms each,
        // 60ms on the slow bob-phone -> alice-phone link. Bob's own iPad gets his copy too.
        func copy(_ ms: Int64, to device: String, _ message: Int, from sender: String) -> Simulation.InFlight {
            .init(due: .zero + .milliseconds(ms), destination: device, kind: .copy(message: message, from: sender))
        }
        let inFlight = [
            copy(550, to: "bob-ipad", 2, from: "bob-phone"), copy(550, to: "carol-phone", 2, from: "bob-phone"),
            copy(551, to: "bob-phone", 3, from: "alice-phone"), copy(551, to: "bob-ipad", 3, from: "alice-phone"),
            copy(551, to: "carol-phone", 3, from: "alice-phone"),
            copy(552, to: "alice-phone", 4, from: "carol-phone"), copy(552, to: "bob-phone", 4, from: "carol-phone"),
            copy(552, to: "bob-ipad", 4, from: "carol-phone"),
            copy(560, to: "alice-phone", 2, from: "bob-phone"),
        ]
        #expect(await simulation.pending == inFlight)
        #expect(try await bubble("alice-phone") == 3)
        #expect(try await bubble("bob-phone") == 2)
        #expect(try await bubble("bob-ipad") == 1)
        #expect(try await bubble("carol-phone") == 4)
        let carol = try #require(try await simulation.snapshot(of: "carol-phone")?.session("poll"))
        #expect(carol.senderPerson == "carol" && carol.urlState.description == "{carol: pickles, q: topping}")

        // One event: Bob's reply reaches his iPad, and nothing else moves.
        #expect(try await simulation.step())
        #expect(await simulation.now == .zero + .milliseconds(550))
        #expect(await simulation.pending == Array(inFlight.dropFirst()))
        #expect(try await bubble("bob-ipad") == 2)
        #expect(try await bubble("carol-phone") == 4)

        // By 551ms Carol has had Bob's reply, then Alice's, which she keeps (M12).
        #expect(try await simulation.advance(to: .zero + .milliseconds(551)) == 4)
        #expect(await simulation.pending == Array(inFlight.dropFirst(5)))
        #expect(try await bubble("carol-phone") == 3)
        let outcome = try await simulation.run()
        #expect(outcome.device("carol-phone")?.session("poll")?.message == 3)
        #expect(outcome.device("alice-phone")?.session("poll")?.message == 2)
        #expect(await simulation.pending.isEmpty)
    }

    /// A request to the cloud store and its answer are in flight too, each to where it goes.
    @Test func cloudRequestsAndAnswersShowInFlight() async throws {
        let simulation = Simulation(scenario: try Self.scenario("pickles-race-cloud-merge.yaml"))
        var seen: Set<String> = []
        while try await simulation.step() {
            for flight in await simulation.pending {
                switch flight.kind {
                case .cloudRequest: seen.insert("request to \(flight.destination)")
                case .cloudAnswer: seen.insert("answer to \(flight.destination)")
                case .copy: break
                }
                #expect(flight.due >= (await simulation.now))
            }
        }
        #expect(seen.contains("request to cloud"))
        #expect(seen.contains("answer to alice-phone"))
        #expect(!seen.contains("answer to cloud"))
    }

    /// A scenario with problems is refused by the first `step()` or `snapshot(of:)`, as
    /// `run()` refuses it.
    @Test func steppingAScenarioWithProblemsThrowsItsErrors() async throws {
        var scenario = try Self.scenario("pickles-race.yaml")
        scenario.checks.append(Scenario.CheckSpec(.latest(device: "nobody-phone", session: "poll", from: nil, data: [], caption: nil)))
        var runErrors: [String] = []
        do { _ = try await Simulation(scenario: scenario).run() } catch { runErrors = error.errors.map(\.description) }
        #expect(!runErrors.isEmpty)
        var stepErrors: [String] = []
        do { _ = try await Simulation(scenario: scenario).step() } catch { stepErrors = error.errors.map(\.description) }
        #expect(stepErrors == runErrors)
        var lookErrors: [String] = []
        do { _ = try await Simulation(scenario: scenario).snapshot(of: "alice-phone") } catch { lookErrors = error.errors.map(\.description) }
        #expect(lookErrors == runErrors)
    }
}
