/// The one quoting of every command line GroupSim prints for people to paste (`replay:`
/// lines, the command a shrunk file came from, hints that name a path): each word as a
/// POSIX shell reads it back, whatever the word holds.
///
/// - A word of letters, digits and `_ @ % + = : , . / -` only stays as it is:
///   `Scenarios/pickles-race.yaml`.
/// - A word with a control character (a newline, ESC, DEL, C1) or a bidirectional
///   override is written as `$'...'` (dollar-single-quotes, POSIX.1-2024, bash, zsh, ksh)
///   with those characters as `\n`, `\t` or `\xHH` bytes, so the line stays on one line,
///   the terminal shows it as it is, and the shell reads back the same bytes.
/// - Any other word is put in single quotes, inside which nothing is special, each `'`
///   written `'\''`: `'a b; touch PWNED #.yaml'`.
package enum ShellWord {
    /// `word` as one word of a POSIX shell command line.
    package static func quote(_ word: String) -> String {
        guard !word.isEmpty else { return "''" }
        if word.unicodeScalars.allSatisfy(isPlain) { return word }
        if word.unicodeScalars.contains(where: isUnprintable) { return dollarQuoted(word) }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// The words joined by spaces, each quoted: `groupsim run 'my file.yaml' --seed 7`.
    package static func line(_ words: [String]) -> String { words.map(quote).joined(separator: " ") }

    private static func isPlain(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "_", "@", "%", "+", "=", ":", ",", ".", "/", "-": true
        default: false
        }
    }

    /// What a terminal would act on or reorder rather than show (`Markup.terminal`
    /// escapes the same), and what would end the line.
    private static func isUnprintable(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || (0x202A...0x202E).contains(scalar.value)
            || (0x2066...0x2069).contains(scalar.value)
    }

    private static func dollarQuoted(_ word: String) -> String {
        var result = "$'"
        for scalar in word.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "'": result += "\\'"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case _ where isUnprintable(scalar):
                for byte in String(scalar).utf8 {
                    let hex = String(byte, radix: 16, uppercase: true)
                    result += "\\x" + (hex.count < 2 ? "0" + hex : hex)
                }
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "'"
    }
}
