import Foundation
import Testing
import GroupSimCLI

/// The README shows the Mermaid diagram of its first scenario, and it stays true.
@Suite struct ReadmePicturesTests {
    @Test func readmeShowsTheMermaidDiagramOfPicklesRace() async throws {
        let readme = try String(contentsOfFile: CLI.path("README.md"), encoding: .utf8)
        let block = try #require(readme.components(separatedBy: "<!-- BEGIN pickles-race mermaid").dropFirst().first)
        let shown = try #require(block.components(separatedBy: "```mermaid\n").dropFirst().first?.components(separatedBy: "```\n").first)
        let result = await CLI.run(["run", CLI.path("Scenarios/pickles-race.yaml"), "--format", "mermaid"])
        #expect(result.status == 0)
        #expect(shown == result.output,
            "regenerate the README block with: swift run groupsim run Scenarios/pickles-race.yaml --format mermaid")
    }

    @Test func readmeSaysHowToCheckTheRender() throws {
        let readme = try String(contentsOfFile: CLI.path("README.md"), encoding: .utf8)
        #expect(readme.contains("scripts/render-html.sh"))
        #expect(FileManager.default.isExecutableFile(atPath: CLI.path("scripts/render-html.sh")))
        #expect(FileManager.default.fileExists(atPath: CLI.path("scripts/check-render.py")))
    }

    /// The time slider: the README shows the page at the instant the views part, and says
    /// how to check the slider in a real browser.
    @Test func readmeShowsTheTimeSlider() throws {
        let readme = try String(contentsOfFile: CLI.path("README.md"), encoding: .utf8)
        #expect(readme.contains("](docs/timeline.png)"))
        let picture = try #require(FileManager.default.contents(atPath: CLI.path("docs/timeline.png")))
        #expect(picture.starts(with: [0x89, 0x50, 0x4E, 0x47]), "docs/timeline.png is a PNG")
        #expect(readme.contains("scripts/check-timeline.sh"))
        #expect(FileManager.default.isExecutableFile(atPath: CLI.path("scripts/check-timeline.sh")))
        #expect(FileManager.default.fileExists(atPath: CLI.path("scripts/check-timeline.py")))
        let ci = try String(contentsOfFile: CLI.path(".ci/run"), encoding: .utf8)
        #expect(ci.contains("scripts/check-timeline.sh"))
    }
}
