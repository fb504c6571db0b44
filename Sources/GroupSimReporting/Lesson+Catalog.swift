import GroupSimCore

/// The lessons, in teaching order: first what Messages does to a session (collapse,
/// races, stale selections, dropped URLs, offline devices), then the cloud remedy and
/// how to write to it safely, then who is who (identifiers, reinstalls, attributing
/// choices, people with two devices).
extension Lesson {
    package static let all: [Lesson] = [
        Lesson(
            name: "session-collapse",
            title: "Session collapse and summary lines",
            preview: "a scoreboard's history vanishes from every transcript until each update leaves a summary",
            rules: ["M10", "M14"],
            breakage: "every update replaces the last and leaves nothing behind, so the game's history is gone",
            terms: ["session", "live bubble", "summary line", "converged", "pitfall"],
            whyFixed: "Every update now leaves its summaryText behind when the next one replaces its bubble (M10), so the transcript "
                + "tells the story of the session. Only the last three summary lines are drawn (M14): keep what the user must see in the "
                + "live bubble itself, and use summary lines for history."),
        Lesson(
            name: "simultaneous-replies",
            title: "Near-simultaneous replies: lost update and divergence",
            preview: "two votes 2ms apart: each phone keeps a different bubble and a vote is lost",
            rules: ["M11", "M12"],
            breakage: "it loses a vote, and the devices end on different bubbles",
            terms: ["complete"],
            whyFixed: "The bubbles still collapse in a different order on each device (M11, M12): that is Messages' behaviour and no app "
                + "can change it. But the bubble now carries only a token, every device fetches the same record when the user taps, and "
                + "each vote is merged into that record atomically at the store (M13), so no vote depends on which bubble arrived last."),
        Lesson(
            name: "stale-selection",
            title: "A stale selectedMessage undoes newer replies",
            preview: "Bob replies to the bubble he tapped a while ago and wipes out Carol's newer vote",
            rules: ["M15", "M21", "M23"],
            breakage: "a reply built on an old bubble undoes Carol's newer vote",
            terms: ["staged draft"],
            whyFixed: "selectedMessage is still stale (M15), but the app no longer builds on it blindly: it keeps the newest message of "
                + "the session that didReceive handed it (M23) and builds on that. An app that keeps its state on a server gets the same "
                + "by fetching the record when the user acts (M13)."),
        Lesson(
            name: "dropped-url",
            title: "Dropped URLs and the 5,000-character limit",
            preview: "a custom-scheme URL silently disappears, and a long one fails with error 8",
            rules: ["M7", "M8"],
            breakage: "its custom-scheme URL is dropped and a long one fails, so the state never travels",
            whyFixed: "An https URL (or one with no scheme) survives the url setter, so the state travels with the message (M8), and the "
                + "URL stays short because the long content lives on the app's server."),
        Lesson(
            name: "offline",
            title: "Offline delivery: held copies arrive late, in order",
            preview: "Carol's phone comes back online and her late copies reorder the poll",
            rules: ["M30", "M12"],
            breakage: "Carol's late copies reorder the poll, and a vote is lost",
            whyFixed: "Messages still holds Carol's copies and delivers them in their original order when she is back (M30), so her "
                + "bubbles collapse in a different order than everyone else's. The state no longer lives in the bubbles: each vote is "
                + "merged into one record (M13), so whichever bubble each device ends on, tapping it shows every vote."),
        Lesson(
            name: "cloud-remedy",
            title: "The cloud remedy: overwrite loses, merge converges",
            preview: "the poll moves to a server; writing it back whole still loses a vote, merging keeps both",
            rules: ["M13"],
            breakage: "writing the whole poll back to the server loses a vote",
            whyFixed: "The store applies each reply's changed keys to the current record atomically, so two replies that fetched the same "
                + "version no longer overwrite each other (M13)."),
        Lesson(
            name: "conditional-write",
            title: "Conditional writes: save only over the version you read",
            preview: "two saves race at the server; compare-and-set refuses the stale one and a retry keeps both",
            rules: ["M13"],
            breakage: "two whole-poll writes race at the server and the later one erases a vote",
            whyFixed: "A conditional save cannot replace a record that changed since it was read: the store refuses it and hands back its "
                + "current record, and the app re-applies its own change to that and saves again (M13). The race now costs a retry "
                + "instead of a vote."),
        Lesson(
            name: "push-on-send",
            title: "Push on Send: a removed draft must change nothing",
            preview: "Carol removes her draft, yet the server already holds her vote and Bob's tap reads it",
            rules: ["M13", "M16", "M17"],
            whyFixed: "The app now writes the record when the user taps Send (didStartSending), as the documents describe it: the token "
                + "and the state leave together, under the user's control. A draft the user removes only calls didCancelSending, and "
                + "the server never hears of it (M13, M17)."),
        Lesson(
            name: "identifiers",
            title: "Per-device identifiers and $uuid names",
            preview: "a voter's UUID written into the URL names nobody on any other device",
            rules: ["M1", "M4", "M5"],
            breakage: "a participant identifier in the URL names nobody on the other devices",
            terms: ["participant identifier", "account id", "$bob"],
            whyFixed: "The URL carries the account id of the app's own sign-in, which means the same person on every device. Participant "
                + "UUIDs are used only where Messages resolves them, as `$UUID` tokens in layout text and summaryText, drawn as each "
                + "device's contact name (M5)."),
        Lesson(
            name: "reinstall",
            title: "Reinstalling resets every identifier",
            preview: "after a reinstall Alice no longer owns her own list",
            rules: ["M2"],
            breakage: "after a reinstall Alice's phone no longer knows that the list is hers",
            whyFixed: "The app keys its data by the account id of its own sign-in, so the reinstall that replaced every participant "
                + "identifier on Alice's phone (M2) changes nothing the app relies on. An install id would not do here: it lives in the "
                + "app's local storage, which a reinstall wipes."),
        Lesson(
            name: "who-voted",
            title: "Who voted? Unattributed choices on the server",
            preview: "the server has every vote, but each device can tell only whose its own is",
            rules: ["M1", "M3", "M4"],
            breakage: "each device can attribute only its own vote among those the server holds",
            whyFixed: "An install id means the same on every device, and each device learns whose it is from the first message of that "
                + "installation it receives, through senderParticipantIdentifier (M3): the one identifier every receiver does get right."),
        Lesson(
            name: "two-devices",
            title: "One person, two devices: the double count",
            preview: "Bob changes his vote on his iPad and is counted twice",
            rules: ["M1", "M3"],
            breakage: "Bob's vote from his iPad counts as a second voter",
            whyFixed: "Participant identifiers and install ids name a device's installation, never a person (M1). Only the app's own "
                + "sign-in knows that the phone and the iPad are both Bob, so keying by the account id counts each person once."),
        Lesson(
            name: "platforms",
            title: "Which devices run the extension: iOS, Mac, Watch, old iOS",
            preview: "a poll only iOS can show: the Mac's click and the watch's reply fail, iOS 9 gets nothing",
            rules: ["M25", "M26", "M27"],
            breakage: "only the iPhones can use the poll: the Mac's click and the watch's reply fail, and the iOS 9 phone gets "
                + "nothing",
            whyFixed: "Only iOS 10 and later runs the extension (M25); every other device draws the layout (M27), so the caption "
                + "must say what the message is and the URL must be an https address that a web page answers. A Mac opens it in "
                + "the browser, and a watch views and hands replies off to the iPhone (M25). " + oldSystems),
    ]

    /// What an old system receives (M26).
    static let oldSystems = "An old system (iOS 9, watchOS 2, OS X 10.11) gets two plain messages instead of the bubble (M26): "
        + "the layout's image when it has one, then the message's URL as text, whatever its scheme but data."
}
