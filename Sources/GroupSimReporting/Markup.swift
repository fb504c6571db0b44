import GroupSimCore

/// Escaping for the renderings that embed user-supplied text (names, captions, summaries,
/// data, the scenario's name and about): HTML and SVG, Mermaid, and the terminal.
///
/// Every string a scenario file supplies goes through one of these before it reaches a
/// page or a diagram, so a caption of `<script>alert(1)</script>` shows as text.
package enum Markup {
    /// Text for HTML or SVG content and attribute values: `&`, `<`, `>`, `"` and `'`
    /// become entities, and control characters other than tab and newline are dropped
    /// (XML cannot carry them).
    package static func html(_ text: String) -> String { Escaper.html(text) }

    /// Text for a Mermaid label (a message, a note, a participant's alias), on one line.
    ///
    /// Mermaid reads `#name;` and `#123;` as entity codes anywhere in a diagram, ends a
    /// statement at `;` and a line at a newline, and passes `<`, `>` and quotes on to its
    /// HTML labels. So `#` becomes `#35;`, `;` `#59;`, `<` `#lt;`, `>` `#gt;`, `"` `#quot;`,
    /// `&` `#amp;`, `%` `#37;` (so `%%` never starts a comment or a directive), `:` `#58;`
    /// (Mermaid rewrites lines matching `style…:…#…;` before parsing), braces `#123;` and
    /// `#125;`, and newlines, tabs and other control characters become a space.
    package static func mermaid(_ text: String) -> String { Escaper.mermaid(text) }

    /// Text for a terminal or a plain-text file: every control character but newline and
    /// tab (C0, DEL and C1, so ESC sequences cannot clear, retitle or recolour the
    /// terminal) and the bidirectional overrides (which reorder what is shown) become a
    /// visible `\u{1B}`. Text without them comes back unchanged.
    ///
    /// `groupsim` passes everything it prints and every `--output` file through this one
    /// function, so each text rendering can embed user strings as they are.
    package static func terminal(_ text: String) -> String { Escaper.terminal(text) }
}
