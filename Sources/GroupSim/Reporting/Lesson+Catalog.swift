/// The lessons, in teaching order: one per pitfall and per rule family of MESSAGES.md.
extension Lesson {
    public static let all: [Lesson] = [
        Lesson(
            name: "session-collapse",
            title: "Session collapse and summary lines",
            rules: ["M10", "M14"],
            whyFixed: "Every update now leaves its summaryText behind when the next one replaces its bubble (M10), so the transcript tells the story of the session. Only the last three summary lines are drawn (M14): keep what the user must see in the live bubble itself, and use summary lines for history."),
        Lesson(
            name: "simultaneous-replies",
            title: "Near-simultaneous replies: lost update and divergence",
            rules: ["M11", "M12"],
            whyFixed: "The bubbles still collapse in a different order on each device (M11, M12): that is Messages' behaviour and no app can change it. But the bubble now carries only a token, every device fetches the same record when the user taps, and each vote is merged into that record atomically at the store (M13), so no vote depends on which bubble arrived last."),
        Lesson(
            name: "identifiers",
            title: "Per-device identifiers and $uuid names",
            rules: ["M1", "M4", "M5"],
            whyFixed: "The URL carries the app's own user ids, which mean the same thing on every device. Participant UUIDs are used only where Messages resolves them, as `$UUID` tokens in layout text and summaryText, drawn as each device's contact name (M5)."),
        Lesson(
            name: "reinstall",
            title: "Reinstalling resets every identifier",
            rules: ["M2"],
            whyFixed: "The app keys its data by its own user ids, so the reinstall that replaced every participant identifier on Alice's phone (M2) changes nothing the app relies on."),
        Lesson(
            name: "stale-selection",
            title: "A stale selectedMessage undoes newer replies",
            rules: ["M15", "M21"],
            whyFixed: "Bob's vote is built on the live bubble he tapped last, which already carries Carol's vote, so his reply carries every vote (M15, M21). Apps cannot refresh selectedMessage themselves: either ask the user to tap the newest bubble when didReceive reports a newer one, or keep the state on a server and fetch it when the user acts (M13)."),
        Lesson(
            name: "dropped-url",
            title: "Dropped URLs and the 5,000-character limit",
            rules: ["M7", "M8"],
            whyFixed: "An https URL (or one with no scheme) survives the url setter, so the state travels with the message (M8), and the URL stays short because the long content lives on the app's server."),
        Lesson(
            name: "offline",
            title: "Offline delivery: held copies arrive late, in order",
            rules: ["M30", "M12"],
            whyFixed: "Messages still holds Carol's copies and delivers them in their original order when she is back (M30), so her bubbles collapse in a different order than everyone else's. The state no longer lives in the bubbles: each vote is merged into one record (M13), so whichever bubble each device ends on, tapping it shows every vote."),
        Lesson(
            name: "cloud-remedy",
            title: "The cloud remedy: overwrite loses, merge converges",
            rules: ["M13"],
            whyFixed: "The store applies each reply's changed keys to the current record atomically (a merge; compare-and-set with retry is the other way), so two replies that fetched the same version no longer overwrite each other (M13)."),
    ]
}
