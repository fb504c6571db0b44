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
        if word.unicodeScalars.contains(where: Escaper.actsOnTerminal) { return "$'" + Escaper.shellDollar(word) + "'" }
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
}
