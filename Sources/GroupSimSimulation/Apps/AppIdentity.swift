import GroupSimCore

/// The keys the built-in app writes to say whose choice an entry is (`app.identity`),
/// minted from the seed, so that a run is reproducible.
///
/// - participant-id: the sender's raw participant identifier, which names nobody on any
///   other device (M1, M4).
/// - install-id: `i-` and 16 hex digits, created once per installation and kept in its
///   `LocalStorage` (a reinstall creates a new one, M2). Every message carries it, and a
///   receiver records "this install id is the person I know as senderParticipantIdentifier"
///   (M3), so it can attribute the install's choices; still one key per device.
/// - account: `acct-` and 12 hex digits, one per person: what the app's own sign-in gives,
///   the same on every device of that person.
package enum AppIdentity {
    /// The storage key of this installation's own install id.
    package static let installKey = "install-id"
    /// The storage key prefix of a learned install id: `learned:ID` = the sender's
    /// participant identifier on this device.
    package static let learnedPrefix = "learned:"
    /// The storage key prefix of the install id last learned for an identifier:
    /// `install-of:UUID` = `ID`.
    package static let installOfPrefix = "install-of:"

    /// The install id of `device`'s installation `generation`.
    package static func installID(_ streams: RandomStreams, device: String, generation: Int) -> String {
        var generator = streams.stream(.identifiers, "install-id", device, String(generation))
        return "i-" + hex(generator.next(), digits: 16)
    }

    /// The account id of `person`, the same on every device.
    package static func accountID(_ streams: RandomStreams, person: String) -> String {
        var generator = streams.stream(.identifiers, "account", person)
        return "acct-" + hex(generator.next(), digits: 12)
    }

    /// Whether `key` has the shape of an install id.
    package static func isInstallID(_ key: String) -> Bool {
        key.utf8.count == 18 && key.hasPrefix("i-") && key.utf8.dropFirst(2).allSatisfy(isHexDigit)
    }

    /// Whether `key` has the shape of an account id.
    package static func isAccountID(_ key: String) -> Bool {
        key.utf8.count == 17 && key.hasPrefix("acct-") && key.utf8.dropFirst(5).allSatisfy(isHexDigit)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
    }

    private static func hex(_ value: UInt64, digits: Int) -> String {
        let text = String(value, radix: 16)
        let padded = String(repeating: "0", count: max(0, 16 - text.count)) + text
        return String(padded.suffix(digits))
    }
}
