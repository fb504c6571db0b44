/// Escaping for the renderings that embed user-supplied text (names, captions, summaries,
/// data, the scenario's name and about): HTML and SVG, Mermaid, and the terminal.
///
/// Every string a scenario file supplies goes through one of these before it reaches a
/// page or a diagram, so a caption of `<script>alert(1)</script>` shows as text.
package enum Markup {
    /// Text for HTML or SVG content and attribute values: `&`, `<`, `>`, `"` and `'`
    /// become entities, and control characters other than tab and newline are dropped
    /// (XML cannot carry them).
    public static func html(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            case "\t", "\n": result.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || (0xFFFE...0xFFFF).contains(scalar.value) { continue }
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Text for a Mermaid label (a message, a note, a participant's alias), on one line.
    ///
    /// Mermaid reads `#name;` and `#123;` as entity codes anywhere in a diagram, ends a
    /// statement at `;` and a line at a newline, and passes `<`, `>` and quotes on to its
    /// HTML labels. So `#` becomes `#35;`, `;` `#59;`, `<` `#lt;`, `>` `#gt;`, `"` `#quot;`,
    /// `&` `#amp;`, `%` `#37;` (so `%%` never starts a comment or a directive), `:` `#58;`
    /// (Mermaid rewrites lines matching `style…:…#…;` before parsing), braces `#123;` and
    /// `#125;`, and newlines, tabs and other control characters become a space.
    public static func mermaid(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "#": result += "#35;"
            case ";": result += "#59;"
            case "<": result += "#lt;"
            case ">": result += "#gt;"
            case "\"": result += "#quot;"
            case "&": result += "#amp;"
            case "%": result += "#37;"
            case ":": result += "#58;"
            case "{": result += "#123;"
            case "}": result += "#125;"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0x2028 || scalar.value == 0x2029 {
                    result += " "
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    /// Text for a terminal or a plain-text file: every control character but newline and
    /// tab (C0, DEL and C1, so ESC sequences cannot clear, retitle or recolour the
    /// terminal) and the bidirectional overrides (which reorder what is shown) become a
    /// visible `\u{1B}`. Text without them comes back unchanged.
    ///
    /// `groupsim` passes everything it prints and every `--output` file through this one
    /// function, so each text rendering can embed user strings as they are.
    public static func terminal(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: hidesFromTerminal) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            if hidesFromTerminal(scalar) {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// A scalar a terminal would act on rather than show.
    static func hidesFromTerminal(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A: false
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
