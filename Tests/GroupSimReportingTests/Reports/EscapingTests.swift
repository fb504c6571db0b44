import Testing
@testable import GroupSim
@testable import GroupSimReporting
import GroupSimTesting

/// Every user-supplied string is escaped in HTML, SVG and Mermaid output.
@Suite struct EscapingTests {
    @Test func htmlEscapesMarkupCharacters() {
        #expect(Markup.html("<script>alert(1)</script>") == "&lt;script&gt;alert(1)&lt;/script&gt;")
        #expect(Markup.html("a & b \"c\" 'd'") == "a &amp; b &quot;c&quot; &#39;d&#39;")
        #expect(Markup.html("tab\tnew\nline") == "tab\tnew\nline")
        #expect(Markup.html("bell\u{07}null\u{00}") == "bellnull")
        #expect(Markup.html("Zoë 🍕") == "Zoë 🍕")
    }

    @Test func mermaidUsesEntityCodesOnOneLine() {
        #expect(Markup.mermaid("<script>alert(1)</script>") == "#lt;script#gt;alert(1)#lt;/script#gt;")
        #expect(Markup.mermaid("a;b#c\"d&e%%f") == "a#59;b#35;c#quot;d#amp;e#37;#37;f")
        #expect(Markup.mermaid("two\nlines\r\tand tab") == "two lines  and tab")
        #expect(Markup.mermaid("{init}") == "#123;init#125;")
        #expect(Markup.mermaid("style:#fff;") == "style#58;#35;fff#59;")
        #expect(!Markup.mermaid("x\u{2028}y").contains("\u{2028}"))
    }

    /// A caption of `<script>alert(1)</script>` shows as text.
    @Test func scriptCaptionIsTextInHTML() async throws {
        let report = try await Fixture.run(ReportingFixture.hostile)
        let html = HTMLReport.render(report)
        // The page's own two: the time slider's event list and its script; none from the scenario.
        #expect(HTMLReportTests.count("<script", in: html) == 2)
        #expect(!html.contains("<script>alert"))
        #expect(!html.contains("alert(1)</script>"))
        #expect(html.contains("\\u003cscript\\u003ealert(1)\\u003c/script\\u003e"))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(html.contains("&lt;script&gt;alert(3)&lt;/script&gt;"))
        // The about, the names, the session, the data and the summary lines too.
        #expect(html.contains("&lt;b&gt;hostile&lt;/b&gt;"))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; friends"))
        #expect(html.contains("bob&lt;img src=x onerror=alert(1)&gt;"))
        #expect(!html.contains("<img"))
        #expect(!html.contains("<svg onload"))
        #expect(html.contains("&lt;svg onload=alert(1)&gt;"))
        #expect(html.contains("&lt;k&gt;"))
        #expect(html.contains("&lt;/text&gt;&lt;script&gt;"))
        #expect(!html.contains("</text><script>"))
        #expect(html.contains("&lt;script&gt;alert(2)&lt;/script&gt;"))
    }

    @Test func scriptCaptionIsTextInMermaid() async throws {
        let report = try await Fixture.run(ReportingFixture.hostile)
        let mermaid = MermaidReport.render(report)
        #expect(!mermaid.contains("<script>"))
        #expect(!mermaid.contains("<"))
        #expect(mermaid.contains("participant D2 as bob#lt;img src=x onerror=alert(1)#gt;"))
        #expect(mermaid.contains("title #lt;b#gt;hostile#lt;/b#gt;"))
        #expect(mermaid.contains("#lt;svg onload=alert(1)#gt;"))
        // Every statement stays on its line: no user newline or semicolon splits one.
        let statements = ["title ", "participant ", "Note over ", "D", "C-->>"]
        for line in mermaid.split(separator: "\n").dropFirst() {
            #expect(statements.contains { line.hasPrefix("    " + $0) }, "\(line)")
            #expect(!Self.withoutEntityCodes(String(line)).contains(";"), "\(line)")
        }
    }

    /// Mermaid arrows and notes carry no user text that could close a statement: the
    /// caption never reaches the diagram, the session name does, escaped.
    @Test func mermaidArrowLabelsAreEscaped() async throws {
        let report = try await Fixture.run(ReportingFixture.hostile)
        let arrows = MermaidReport.render(report).split(separator: "\n").filter { $0.contains("->>") }
        #expect(!arrows.isEmpty)
        for arrow in arrows { #expect(arrow.contains("m1 #lt;svg onload=alert(1)#gt;") || arrow.contains("m2 #lt;svg")) }
    }

    /// The text with every Mermaid entity code (`#59;`, `#lt;`) removed.
    static func withoutEntityCodes(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let hash = rest.firstIndex(of: "#") {
            result += rest[..<hash]
            let code = rest[rest.index(after: hash)...].prefix { $0.isLetter || $0.isNumber }
            if !code.isEmpty, code.endIndex < rest.endIndex, rest[code.endIndex] == ";" {
                rest = rest[rest.index(after: code.endIndex)...]
            } else {
                result += "#"
                rest = rest[rest.index(after: hash)...]
            }
        }
        return result + rest
    }

    @Test func sideBySideKeepsTextAsWritten() async throws {
        let report = try await Fixture.run(ReportingFixture.hostile)
        let sides = SideBySideReport.render(report)
        // Plain text: nothing to escape, but every device has its column.
        #expect(sides.contains("alice-phone (Alice)"))
        #expect(sides.contains("<script>alert(3)</script>"))
    }
}
