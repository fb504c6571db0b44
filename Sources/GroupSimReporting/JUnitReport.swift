import GroupSimCore
import GroupSimScenario
import GroupSimSimulation
import GroupSimChecking

/// The JUnit XML of `groupsim test --junit`: one testsuite per scenario file, one testcase
/// per check (named by its line and text), a `<failure>` with what was found and the
/// command that replays the failing run, an `<error>` for a file that is not valid.
package enum JUnitReport {
    /// `interrupted` (`interrupted by SIGINT after 3 of 12 files`) adds a testsuite with
    /// one error that says so, so CI shows the run as incomplete.
    package static func render(_ results: [ScenarioTestResult], interrupted: String? = nil) -> String {
        let tests = results.reduce(0) { $0 + ($1.report?.checks.count ?? 0) }
        let failures = results.reduce(0) { total, result in
            total + (result.report?.checks.indices.filter { result.failure($0) != nil }.count ?? 0)
        }
        let errors = results.filter { $0.invalid != nil }.count + (interrupted == nil ? 0 : 1)
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"groupsim\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(errors)\">\n"
        for result in results {
            xml += suite(result)
        }
        if let interrupted {
            xml += "  <testsuite name=\"interrupted\" tests=\"0\" failures=\"0\" errors=\"1\">\n"
            xml += "    <error message=\(attribute(interrupted)) type=\"interrupted\">"
                + "\(escape(interrupted)): the files not listed did not run</error>\n"
            xml += "  </testsuite>\n"
        }
        xml += "</testsuites>\n"
        return xml
    }

    private static func suite(_ result: ScenarioTestResult) -> String {
        if let invalid = result.invalid {
            var xml = "  <testsuite name=\(attribute(result.path)) tests=\"0\" failures=\"0\" errors=\"1\">\n"
            xml += "    <error message=\(attribute(invalid.message))>\(escape(invalid.description))</error>\n"
            return xml + "  </testsuite>\n"
        }
        guard let report = result.report else { return "" }
        let failures = report.checks.indices.filter { result.failure($0) != nil }.count
        var xml = "  <testsuite name=\(attribute(result.scenario)) file=\(attribute(result.path)) "
            + "tests=\"\(report.checks.count)\" failures=\"\(failures)\" errors=\"0\">\n"
        xml += "    <properties>\n"
        xml += "      <property name=\"seed\" value=\"\(result.seed)\"/>\n"
        xml += "      <property name=\"trace\" value=\(attribute(result.digest))/>\n"
        xml += "      <property name=\"pitfalls\" value=\(attribute(report.pitfalls.map(\.kind.rawValue).joined(separator: ", ")))/>\n"
        xml += "    </properties>\n"
        for (index, check) in report.checks.enumerated() {
            let line = check.spec.location?.line
            let name = (line.map { "line \($0): " } ?? "") + check.text
            var open = "    <testcase classname=\(attribute(result.path)) name=\(attribute(name)) file=\(attribute(result.path))"
            if let line { open += " line=\"\(line)\"" }
            guard let failure = result.failure(index) else {
                xml += open + "/>\n"
                continue
            }
            xml += open + ">\n"
            let body = "\(check.text)\n\(failure.finding)\nreplay: \(result.replay(seed: failure.seed))"
            xml += "      <failure message=\(attribute(failure.finding)) type=\"check\">\(escape(body))</failure>\n"
            xml += "    </testcase>\n"
        }
        return xml + "  </testsuite>\n"
    }

    /// Text escaped for XML content.
    package static func escape(_ text: String) -> String { Escaper.xml(text) }

    /// A quoted attribute value; newlines kept as character references.
    package static func attribute(_ text: String) -> String {
        "\"" + Escaper.xmlAttribute(text) + "\""
    }
}
