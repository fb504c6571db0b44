import Foundation
import GroupSimCore
import GroupSimSimulation
import GroupSimChecking

/// The message flow as an SVG Lamport diagram: one vertical lane per device (and one for
/// the cloud store when the app used it), virtual time running downward, each copy of a
/// message an arrow from the instant its sender tapped Send to the instant it reached the
/// device (M11, M30), each session collapse (M10), step failure and pitfall marked on
/// its lane.
///
/// Rows are the distinct instants of the run, not to scale: the gap above a row grows
/// with the number of digits of the milliseconds since the previous one, so a race
/// within 2ms and a reply 500ms later both stay readable. Coordinates are integers, so
/// the SVG text is the same on every machine.
extension HTMLReport {
    /// A lane's width when the lanes fit the page at it (up to six).
    static let laneWidth = 190
    /// The narrowest a lane gets so that more lanes fit: eight devices and the cloud store.
    static let narrowestLane = 124
    /// The widest diagram the page shows without scrolling: its 1280px less its padding
    /// and the diagram's border.
    static let fittingWidth = 1222
    static let axisWidth = 84
    static let diagramTop = 64
    static let labelStep = 13
    /// At most this many copies are drawn; a note says so when a run has more.
    public static let maximumArrows = 2_000
    static let palette = ["#2563eb", "#dc2626", "#16a34a", "#9333ea", "#ea580c", "#0891b2", "#a16207", "#db2777"]

    /// A label next to a lane at an instant.
    struct Mark {
        enum Kind: String {
            case step, send, collapse, failure, pitfall, note, cloud
        }

        var lane: Int
        var time: VirtualTime
        var kind: Kind
        var text: String
        var message: Int?
    }

    /// The colour of message `mN`: m1 blue, m2 red, m3 green, m4 purple, and round again.
    static func color(_ message: Int) -> String { palette[paletteIndex(message)] }

    static func paletteIndex(_ message: Int) -> Int { ((message - 1) % palette.count + palette.count) % palette.count }

    /// Where the diagram put things, for the page's time cursor: the y of each instant's
    /// row, and each drawn copy's arrow with its send and arrival instants.
    struct FlowGeometry {
        var rows: [(time: VirtualTime, y: Int)] = []
        var copies: [(copy: MessageFlow.Copy, x1: Int, y1: Int, x2: Int, y2: Int)] = []
        var width = 0
    }

    static func flowDiagram(_ outcome: RunOutcome, flow: MessageFlow) -> String {
        var geometry = FlowGeometry()
        return flowDiagram(outcome, flow: flow, geometry: &geometry)
    }

    static func flowDiagram(_ outcome: RunOutcome, flow: MessageFlow, geometry: inout FlowGeometry) -> String {
        var lanes = outcome.scenario.devices.map(\.name)
        if !flow.cloudTrips.isEmpty { lanes.append("cloud") }
        var laneOf: [String: Int] = [:]
        for (index, name) in lanes.enumerated() where laneOf[name] == nil { laneOf[name] = index }
        let marks = flowMarks(outcome, flow: flow, laneOf: laneOf)
        let copies = Array(flow.copies.prefix(maximumArrows))

        var times: [VirtualTime] = marks.map(\.time) + copies.flatMap { [$0.sentAt, $0.arrivedAt] }
        times += flow.cloudTrips.flatMap { [$0.requestedAt] + [$0.arrivedAt, $0.answeredAt].compactMap { $0 } }
        times = Array(Set(times)).sorted()
        guard !times.isEmpty else { return "<p class=\"none\">No messages were sent.</p>\n" }

        var labelsAt: [String: Int] = [:]
        for mark in marks { labelsAt["\(mark.lane)|\(mark.time.nanoseconds)", default: 0] += 1 }
        var rowY: [VirtualTime: Int] = [:]
        var y = diagramTop
        var previous: VirtualTime?
        var lastHeight = 0
        for time in times {
            if let previous { y += lastHeight + gap(time - previous) }
            rowY[time] = y
            let most = lanes.indices.map { labelsAt["\($0)|\(time.nanoseconds)"] ?? 0 }.max() ?? 0
            lastHeight = max(26, most * labelStep + 12)
            previous = time
        }
        let height = y + lastHeight + 16
        // Lanes narrow, down to `narrowestLane`, to fit the page; their labels are clipped
        // in proportion (the whole text is each label's tooltip).
        let span = max(narrowestLane, min(laneWidth, (fittingWidth - axisWidth - 8) / max(1, lanes.count)))
        func clipped(_ text: String, _ length: Int) -> String { clip(text, length * (span - 14) / (laneWidth - 14)) }
        let width = axisWidth + lanes.count * span + 8
        func x(_ lane: Int) -> Int { axisWidth + lane * span + 14 }
        func rowOf(_ time: VirtualTime) -> Int { rowY[time] ?? diagramTop }
        geometry.rows = times.map { ($0, rowOf($0)) }
        geometry.width = width

        var svg = "<div class=\"flow-wrap\">\n"
        svg += "<svg class=\"flow\" xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) "
            + "\(height)\" role=\"img\" aria-label=\"message flow: one lane per device, time downward\">\n"
        svg += "<defs>\n"
        for (index, color) in palette.enumerated() {
            svg += "<marker id=\"head\(index)\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" "
                + "orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"\(color)\"/></marker>\n"
        }
        svg += "<marker id=\"headcloud\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"6\" markerHeight=\"6\" "
            + "orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#64748b\"/></marker>\n"
        svg += "</defs>\n"

        // Time axis and row lines.
        svg += "<g class=\"axis\">\n"
        for time in times {
            let rowTop = rowOf(time)
            svg += "<line class=\"row\" x1=\"\(axisWidth - 4)\" y1=\"\(rowTop)\" x2=\"\(width - 4)\" y2=\"\(rowTop)\"/>"
            svg += "<text class=\"time\" x=\"\(axisWidth - 8)\" y=\"\(rowTop + 4)\" text-anchor=\"end\">\(esc(time.description))</text>\n"
        }
        svg += "</g>\n"

        // Lanes.
        let people = outcome.scenario.devices
        svg += "<g class=\"lanes\">\n"
        for (index, name) in lanes.enumerated() {
            let laneX = x(index)
            let title = index < people.count ? people[index] : nil
            let caption = title.map { spec in
                "\(outcome.scenario.person(spec.person)?.contactName ?? spec.person) · "
                    + "\(spec.platform.rawValue)\(spec.hasApp ? "" : ", no app")"
            } ?? "the app's server (M13)"
            svg += "<g class=\"lane\"><title>\(esc(name))</title>"
            svg += "<text class=\"lane-name\" x=\"\(laneX)\" y=\"22\" "
                + "text-anchor=\"middle\">\(esc(clipped(index < people.count ? name : "cloud store", 26)))</text>"
            svg += "<text class=\"lane-who\" x=\"\(laneX)\" y=\"38\" text-anchor=\"middle\">\(esc(clipped(caption, 30)))</text>"
            svg += "<line class=\"lane-line\" x1=\"\(laneX)\" y1=\"\(diagramTop - 14)\" x2=\"\(laneX)\" y2=\"\(height - 8)\"/></g>\n"
        }
        svg += "</g>\n"

        // Cloud round trips (M13).
        if let cloudLane = laneOf["cloud"], !flow.cloudTrips.isEmpty {
            svg += "<g class=\"cloud-trips\">\n"
            for trip in flow.cloudTrips {
                guard let lane = laneOf[trip.device], let arrived = trip.arrivedAt else { continue }
                let version = trip.version.map { " v\($0)" } ?? ""
                let refused = trip.refused ? ", refused: the record had moved (M13)" : ""
                let title = "\(trip.device) \(trip.operation.rawValue) \(trip.key): asked \(trip.requestedAt), "
                    + "reached the store \(arrived)\(version)\(refused)"
                svg += "<g><title>\(esc(title))</title>"
                svg += "<line class=\"cloud-request\" x1=\"\(x(lane))\" y1=\"\(rowOf(trip.requestedAt))\" x2=\"\(x(cloudLane))\" "
                    + "y2=\"\(rowOf(arrived))\" marker-end=\"url(#headcloud)\"/>"
                if let answered = trip.answeredAt {
                    svg += "<line class=\"cloud-answer\" x1=\"\(x(cloudLane))\" y1=\"\(rowOf(arrived))\" x2=\"\(x(lane))\" "
                        + "y2=\"\(rowOf(answered))\" marker-end=\"url(#headcloud)\"/>"
                }
                svg += "</g>\n"
            }
            svg += "</g>\n"
        }

        // One arrow per delivered copy (M30).
        svg += "<g class=\"copies\">\n"
        for copy in copies {
            guard let from = laneOf[copy.from], let to = laneOf[copy.to] else { continue }
            let (x1, y1, x2, y2) = (x(from), rowOf(copy.sentAt), x(to), rowOf(copy.arrivedAt))
            geometry.copies.append((copy, x1, y1, x2, y2))
            var title = "m\(copy.message) \(copy.from) → \(copy.to): sent \(copy.sentAt), arrived \(copy.arrivedAt)"
            if let held = copy.heldAt { title += ", held from \(held) while offline (M30)" }
            svg += "<g class=\"copy\"><title>\(esc(title))</title>"
            svg += "<line x1=\"\(x1)\" y1=\"\(y1)\" x2=\"\(x2)\" y2=\"\(y2)\" stroke=\"\(color(copy.message))\" "
                + "marker-end=\"url(#head\(paletteIndex(copy.message)))\"/>"
            svg += "<circle class=\"arrival\" cx=\"\(x2)\" cy=\"\(y2)\" r=\"3\" stroke=\"\(color(copy.message))\"/>"
            let labelX = x1 + (x2 - x1) * 7 / 10
            let labelY = y1 + (y2 - y1) * 7 / 10 - 3
            svg += "<text class=\"copy-label\" x=\"\(labelX)\" y=\"\(labelY)\" text-anchor=\"middle\" "
                + "fill=\"\(color(copy.message))\">m\(copy.message)</text></g>\n"
        }
        svg += "</g>\n"

        // Labels and marks on the lanes.
        svg += "<g class=\"marks\">\n"
        var stacked: [String: Int] = [:]
        for mark in marks {
            let key = "\(mark.lane)|\(mark.time.nanoseconds)"
            let index = stacked[key, default: 0]
            stacked[key] = index + 1
            let laneX = x(mark.lane)
            let rowTop = rowOf(mark.time)
            let textY = rowTop + 14 + index * labelStep
            switch mark.kind {
            case .send:
                svg += "<circle class=\"send\" cx=\"\(laneX)\" cy=\"\(rowTop)\" r=\"4.5\" fill=\"\(color(mark.message ?? 0))\"/>"
            case .collapse:
                svg += "<path class=\"collapse\" d=\"M\(laneX + 2),\(textY - 8) l4,4 l-4,4 l-4,-4 z\"/>"
            case .failure:
                svg += "<path class=\"failure\" d=\"M\(laneX - 5),\(rowTop - 5) l10,10 M\(laneX + 5),\(rowTop - 5) l-10,10\"/>"
            case .pitfall:
                svg += "<path class=\"pitfall\" d=\"M\(laneX),\(rowTop - 6) l6,11 l-12,0 z\"/>"
            case .step, .note, .cloud:
                break
            }
            let fill = mark.kind == .send ? " fill=\"\(color(mark.message ?? 0))\"" : ""
            svg += "<text class=\"mark \(mark.kind.rawValue)\" x=\"\(laneX + 9)\" "
                + "y=\"\(textY)\"\(fill)><title>\(esc(mark.text))</title>\(esc(clipped(mark.text, 29)))</text>\n"
        }
        svg += "</g>\n</svg>\n</div>\n"
        svg += "<p class=\"legend\">Each lane is a device; time runs downward (rows are instants, not to scale). "
        svg += "Each arrow is one copy of a message, from the moment its sender tapped Send to the moment it reached the device (M11, "
            + "M30); "
        svg += "a filled dot is a send, an orange diamond a session's old bubble leaving its place (M10), a red cross a failed step, a "
            + "triangle a pitfall seen on that device.</p>\n"
        if flow.copies.count > maximumArrows {
            svg += "<p class=\"legend\">The diagram draws the first \(maximumArrows) of \(flow.copies.count) copies.</p>\n"
        }
        return svg
    }

    /// The labels of the diagram, in trace order.
    static func flowMarks(_ outcome: RunOutcome, flow: MessageFlow, laneOf: [String: Int]) -> [Mark] {
        var marks: [Mark] = []
        for event in outcome.trace.events {
            guard let lane = laneOf[event.subject] else { continue }
            func mark(_ kind: Mark.Kind, _ text: String, _ message: Int? = nil) {
                marks.append(Mark(lane: lane, time: event.time, kind: kind, text: text, message: message))
            }
            switch event.kind {
            case .step(let number, let action): mark(.step, "step \(number): \(action.summary)")
            case .sent(let message, let session, _): mark(.send, "sends m\(message)\(session.map { " (\($0))" } ?? "")", message)
            case .collapsed(_, let replaced, let summary): mark(.collapse, "m\(replaced) \(summary ? "→ summary line" : "removed")")
            case .failed(let step, let code, let origin):
                mark(.failure, "\(step.map { "step \($0)" } ?? origin.map { "step \($0.step), later," } ?? "app") failed: \(code.name)")
            case .pitfall(let kind, _): mark(.pitfall, kind.rawValue)
            case .held(let message): mark(.note, "m\(message) held (offline)")
            case .queued(let message): mark(.note, "m\(message) waits (offline)")
            case .reinstalled: mark(.note, "reinstalled: new identifiers")
            case .offline: mark(.note, "goes offline")
            case .online: mark(.note, "back online")
            case .joined(let person): mark(.note, "\(person) joined")
            case .left(let person): mark(.note, "\(person) left")
            case .droppedURL: mark(.failure, "url dropped (M8)")
            case .note(let note): mark(.note, note.text)
            case .cloudHandled(let handling, _, let device, let version):
                mark(.cloud, "\(handling.text) by \(device) → v\(version)")
            case .delivered, .callback, .staged, .cancelled, .cloudRequest, .cloudAnswer:
                continue
            }
        }
        return marks
    }

    /// The gap above a row: 8px per decimal digit of the whole milliseconds since the
    /// previous row, at most 40px.
    static func gap(_ duration: VirtualDuration) -> Int {
        var milliseconds = duration.nanoseconds / 1_000_000
        var digits = 0
        while milliseconds > 0 {
            digits += 1
            milliseconds /= 10
        }
        return min(40, digits * 8)
    }

    static func clip(_ text: String, _ length: Int) -> String {
        text.count <= length ? text : String(text.prefix(length - 1)) + "…"
    }
}
