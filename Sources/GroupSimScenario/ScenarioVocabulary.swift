import GroupSimCore

/// The words of the scenario format as data: every key of every mapping, every action and
/// check keyword, and the values each accepts.
///
/// `ScenarioParser` takes its allowed keys from these tables, and `ScenarioSchema` turns
/// the same tables into a JSON Schema, so the two cannot drift apart: a key added here is
/// accepted by the parser and offered by editors at once. A table also says what a value
/// must look like (`ValueShape`), which the schema uses and the parser checks in code.
package enum ScenarioVocabulary {
    /// What a value in a scenario file must look like.
    package indirect enum ValueShape: Sendable, Equatable {
        /// Any scalar, kept as written (`caption: 42` is the text "42").
        case text
        /// A non-empty scalar: a name of a person, device, session or conversation.
        case name
        /// A number with a unit: `250ms`, `1.5s`, `2m` (units: ns, us, ms, s, m).
        case duration
        /// A whole number of at least `minimum`.
        case integer(minimum: Int)
        /// `true` or `false`.
        case flag
        /// Only `true`: written when the thing happens.
        case onlyTrue
        /// One of these words.
        case choice([String])
        /// One of these whole numbers.
        case numbers([Int])
        /// A mapping with these keys.
        case object(ObjectShape)
        /// A list whose items have one shape, with at least `minimum` items.
        case list(ValueShape, minimum: Int)
        /// A mapping with free keys whose values have one shape.
        case map(ValueShape)
        /// Any one of these shapes.
        case either([ValueShape])
    }

    /// One key of a mapping: its name, its value and a line for editors.
    package struct Field: Sendable, Equatable {
        package var key: String
        package var shape: ValueShape
        package var about: String

        package init(_ key: String, _ shape: ValueShape, _ about: String) {
            self.key = key
            self.shape = shape
            self.about = about
        }
    }

    /// A mapping's keys, which of them are required, and the keys of which exactly one
    /// must be given (a step's action, a check's kind).
    package struct ObjectShape: Sendable, Equatable {
        package var name: String
        package var fields: [Field]
        package var required: [String]
        package var exactlyOne: [String]

        package init(_ name: String, _ fields: [Field], required: [String] = [], exactlyOne: [String] = []) {
            self.name = name
            self.fields = fields
            self.required = required
            self.exactlyOne = exactlyOne
        }

        /// Every key, in table order: what the parser accepts in this mapping.
        package var keys: [String] { fields.map(\.key) }
    }

    // MARK: settings

    package static let person = ObjectShape("person", [
        Field("devices", .list(.name, minimum: 1), "the person's devices"),
        Field("name", .name, "the contact name others see (default: the key, capitalised)"),
    ], required: ["devices"])

    /// Whether a device has the app: `app: installed` (default) or `app: missing`.
    package static let appPresence = ["installed", "missing"]

    package static let deviceSettings = ObjectShape("device", [
        Field("platform", .choice(Scenario.DeviceSpec.Platform.allCases.map(\.rawValue)), "the device's system (default ios)"),
        Field("app", .choice(appPresence), "whether the app is installed (default installed)"),
    ])

    package static let link = ObjectShape("link", [
        Field("from", .name, "a person (all their devices) or a device"),
        Field("to", .name, "a person (all their devices) or a device"),
        Field("latency", .duration, "this link's one-way delay"),
        Field("jitter", .duration, "this link's jitter"),
    ], required: ["from", "to"])

    package static let network = ObjectShape("network", [
        Field("latency", .duration, "base one-way delay of every copy (default 50ms)"),
        Field("jitter", .duration, "plus a seeded uniform draw in [0, jitter) (default 0ms)"),
        Field("links", .list(.object(link), minimum: 0), "per-link overrides; the last matching entry wins"),
        Field("fifo", .flag, "keep each sender-to-receiver link in send order (default false: per-copy jitter may reorder)"),
    ])

    package static let app = ObjectShape("app", [
        Field("name", .name, "an app registered from Swift (default: the built-in app)"),
        Field("state", .choice(Scenario.AppSpec.StateMode.allCases.map(\.rawValue)), "where the built-in app keeps its state (default message)"),
        Field("cloud-latency", .duration, "one-way delay to the cloud store (default 20ms)"),
        Field("identity", .choice(Scenario.AppSpec.Identity.allCases.map(\.rawValue)), "whose choice a data key names (default participant-id)"),
        Field("selection", .choice(Scenario.AppSpec.Selection.allCases.map(\.rawValue)), "which bubble a reply builds on (default tapped)"),
        Field("record-key", .name, "the URL query item that names the cloud record, in the cloud states (default session)"),
        Field("push", .choice(Scenario.AppSpec.Push.allCases.map(\.rawValue)), "when the built-in app writes the cloud record: when the user "
            + "taps Send, or as soon as it composes (M13; default on-send)"),
    ])

    package static let options = ObjectShape("options", [
        Field("nil-summary", .choice(Scenario.Options.NilSummary.allCases.map(\.rawValue)), "what replaces a bubble without summary text (M10; "
            + "default remove)"),
        Field("identifiers", .choice(Scenario.Options.Identifiers.allCases.map(\.rawValue)), "identifier scope (M6; default per-device)"),
        Field("summary-lines", .integer(minimum: 0), "summary lines drawn per session (M14; default 3)"),
        Field("recent-interaction", .duration, "how long after the user last composed a direct send is allowed (M18; default 60s)"),
    ])

    // MARK: actions

    /// The styles `open:` may request; `transcript` cannot be requested (M19).
    package static let openStyles = [Scenario.PresentationStyle.compact, .expanded].map(\.rawValue)

    /// The template layout's fields of `send`, `insert` and `reply` (M9).
    static let layoutFields = [
        Field("caption", .text, "the bubble's caption; $me and $PERSON are drawn as contact names (M5)"),
        Field("subcaption", .text, "the bubble's subcaption (M9; $ tokens drawn as names, M5)"),
        Field("trailing-caption", .text, "the caption bar's trailing caption (M9, M5)"),
        Field("trailing-subcaption", .text, "the caption bar's trailing subcaption (M9, M5)"),
        Field("image-title", .text, "the title drawn over the image (M9, M5)"),
        Field("image-subtitle", .text, "the subtitle drawn over the image (M9, M5)"),
        Field("image", .text, "a name for the layout's image: old systems receive it as a picture (M9, M26)"),
    ]

    /// The same fields as a `latest` check reads them: as drawn on the device.
    static let drawnLayoutFields = Scenario.Compose.LayoutField.allCases.map { field in
        let drawn = "the \(field.rawValue.split(separator: "-").joined(separator: " ")) as drawn"
        return Field(field.rawValue, .text,
                     field == .image ? "the layout's image name" : field == .caption ? drawn + " on that device" : drawn)
    }

    package static let send = ObjectShape("send", [
        Field("session", .name, "the session (a new one the first time the name is used)"),
        Field("data", .map(.text), "changes to the app's state; $me and $PERSON become raw UUIDs (M4)"),
    ] + layoutFields + [
        Field("summary", .text, "the summary text shown when a later bubble replaces this one (M10)"),
        Field("url", .text, "a URL to set instead of the app's own (M8)"),
        Field("direct", .flag, "send with the direct send API (M18)"),
    ], required: ["session"])

    package static let reply = ObjectShape("reply", [
        Field("session", .name, "the session whose live bubble this device taps"),
        Field("data", .map(.text), "changes to the app's state"),
    ] + layoutFields + [
        Field("summary", .text, "the summary text"),
        Field("direct", .flag, "send with the direct send API (M18)"),
    ], required: ["session"])

    package static let sticker = ObjectShape("sticker", [
        Field("file", .name, "an image file, relative to the scenario file"),
        Field("format", .name, "or: the image format (png, apng, gif, jpeg)"),
        Field("bytes", .integer(minimum: 0), "with format: the file size"),
        Field("pixels", .integer(minimum: 0), "with format: the side in pixels"),
        Field("description", .text, "the sticker's description (at most 150 characters, M28)"),
    ], required: ["description"])

    package static let insert = ObjectShape("insert", send.fields, required: ["session"])

    /// Every action, in the order the documentation lists them: one per `Action.Kind`,
    /// from its descriptor.
    package static let actions: [Field] = Scenario.Action.Kind.descriptors.map(\.field)

    /// Actions on the whole device rather than one conversation: they take no `conversation:`.
    package static let deviceActions = Scenario.Action.Kind.descriptors.filter { $0.scope == .device }.map(\.keyword)

    // MARK: steps

    package static let raceStep = ObjectShape("race step", [
        Field("device", .name, "the device that acts"),
        Field("conversation", .name, "the conversation, when there are several"),
    ] + actions, required: ["device"], exactlyOne: actions.map(\.key))

    package static let race = ObjectShape("race", [
        Field("within", .duration, "each step starts at a seeded offset in [0, within)"),
        Field("steps", .list(.object(raceStep), minimum: 1), "the steps that race"),
    ], required: ["within", "steps"])

    package static let step = ObjectShape("step", [
        Field("at", .duration, "the step's time from the start"),
        Field("after", .duration, "the step's time after the previous step's"),
        Field("device", .name, "the device that acts"),
        Field("conversation", .name, "the conversation, when there are several"),
    ] + actions + [
        Field("race", .object(race), "near-simultaneous steps"),
    ], exactlyOne: actions.map(\.key) + ["race"])

    // MARK: checks

    /// The extension's callbacks a `callbacks:` check may name (M17, M20 to M24): every
    /// callback the timeline prints, from the one list `AppCallback`.
    package static let callbackNames = AppCallback.names

    /// Error names and numbers an `error:` check accepts.
    package static let errorCode: ValueShape = .either([
        .choice(MessageErrorCode.allCases.map(\.name)),
        .numbers(MessageErrorCode.allCases.map(\.rawValue)),
    ])

    /// Every check, in the order the documentation lists them: one per `Check.Kind`, from
    /// its descriptor.
    package static let checks: [Field] = Scenario.Check.Kind.descriptors.map(\.field)

    /// One `expect:` entry: exactly one check.
    package static let check = ObjectShape("check", checks, exactlyOne: checks.map(\.key))

    // MARK: the file

    package static let scenario = ObjectShape("scenario", [
        Field("name", .name, "the scenario's name"),
        Field("about", .text, "prose shown by run and lessons"),
        Field("seed", .integer(minimum: 0), "the seed (default 1; --seed overrides)"),
        Field("people", .map(.either([.list(.name, minimum: 1), .object(person)])), "person -> devices"),
        Field("devices", .map(.object(deviceSettings)), "per-device settings"),
        Field("conversation", .list(.name, minimum: 1), "the members (default: everyone)"),
        Field("conversations", .map(.list(.name, minimum: 1)), "several named conversations"),
        Field("network", .object(network), "latency, jitter and per-link overrides"),
        Field("app", .object(app), "which app runs and where it keeps its state"),
        Field("options", .object(options), "the behaviours Apple leaves undocumented"),
        Field("steps", .list(.object(step), minimum: 0), "the timeline of user actions"),
        Field("expect", .list(.object(check), minimum: 0), "the checks, evaluated when nothing is in flight"),
    ], required: ["name", "people", "steps"])
}

extension ScenarioVocabulary.ObjectShape {
    /// The field for `key`, if this mapping has it.
    package func field(_ key: String) -> ScenarioVocabulary.Field? { fields.first { $0.key == key } }

    /// The object shape of `key`'s value, when it is a mapping with known keys.
    func object(_ key: String) -> ScenarioVocabulary.ObjectShape? {
        if case .object(let shape)? = field(key)?.shape { return shape }
        return nil
    }
}
