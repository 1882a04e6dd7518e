//! The verdict: each steady-state probe and expectation with what was measured against its
//! budget, printed as it is decided, and written as JUnit XML for CI runners.

use std::fmt::Write as _;

/// One thing the drill decided.
#[derive(Debug, Clone)]
pub struct Case {
    /// Its name: `steady state before: depth of payments-dlq`, an expectation's name.
    pub name: String,
    /// Whether it held.
    pub passed: bool,
    /// What was measured, with the budget.
    pub detail: String,
    /// When it was decided, server ms (for the report's marks).
    pub at: u64,
}

/// Every case, in the order decided.
#[derive(Debug, Clone, Default)]
pub struct Verdict {
    /// The cases.
    pub cases: Vec<Case>,
    /// The run id the drill's messages carried (`sqslite-drill-run`).
    pub run: String,
}

impl Verdict {
    /// Records a case and prints it.
    pub fn decide(&mut self, out: &mut dyn std::io::Write, case: Case) {
        let mark = if case.passed { "PASS" } else { "FAIL" };
        let _ = writeln!(out, "  [{mark}] {}: {}", case.name, case.detail);
        self.cases.push(case);
    }

    /// Whether every case held.
    pub fn passed(&self) -> bool {
        self.cases.iter().all(|c| c.passed)
    }

    /// The cases as one JUnit `<testsuite>` (the shape Surefire and pytest write, which CI
    /// runners' JUnit readers take): one `<testcase>` per case, a `<failure>` with the
    /// measured value and the budget for each that did not hold.
    pub fn junit(&self, suite: &str, seconds: f64) -> String {
        let failures = self.cases.iter().filter(|c| !c.passed).count();
        let mut xml = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        let _ = writeln!(
            xml,
            "<testsuites name=\"sqslite drill\" tests=\"{}\" failures=\"{failures}\" errors=\"0\" time=\"{seconds:.3}\">",
            self.cases.len()
        );
        let _ = writeln!(
            xml,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{failures}\" errors=\"0\" skipped=\"0\" time=\"{seconds:.3}\">",
            escape(suite),
            self.cases.len()
        );
        for c in &self.cases {
            let name = escape(&c.name);
            let classname = escape(suite);
            if c.passed {
                let _ = writeln!(
                    xml,
                    "    <testcase classname=\"{classname}\" name=\"{name}\" time=\"0\">\n      <system-out>{}</system-out>\n    </testcase>",
                    escape(&c.detail)
                );
            } else {
                let _ = writeln!(
                    xml,
                    "    <testcase classname=\"{classname}\" name=\"{name}\" time=\"0\">\n      <failure message=\"{0}\" type=\"expectation\">{0}</failure>\n    </testcase>",
                    escape(&c.detail)
                );
            }
        }
        xml.push_str("  </testsuite>\n</testsuites>\n");
        xml
    }
}

/// Text for an XML attribute or element.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // XML 1.0 has no place for other control characters.
            c if c.is_control() && !matches!(c, '\n' | '\t') => out.push('?'),
            c => out.push(c),
        }
    }
    out
}

/// The verdict line and the JUnit file.
pub(super) fn finish(
    opts: &super::RunOptions,
    c: &super::check::Checked,
    verdict: &Verdict,
    seconds: f64,
    out: &mut dyn crate::drill::Write,
) -> Result<(), super::CannotRun> {
    let failed = verdict.cases.iter().filter(|c| !c.passed).count();
    let total = verdict.cases.len();
    if failed == 0 {
        let _ = writeln!(out, "drill passed ({total} checks, {seconds:.1} s)");
    } else {
        let _ = writeln!(
            out,
            "drill FAILED ({failed} of {total} checks, {seconds:.1} s)"
        );
    }
    if let Some(path) = &opts.junit {
        std::fs::write(path, verdict.junit(&c.file.drill.name, seconds))
            .map_err(|e| super::CannotRun(format!("cannot write {}: {e}", path.display())))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{Case, Verdict};

    #[test]
    fn junit_names_each_case_and_fails_with_the_measured_value() {
        let mut v = Verdict::default();
        let mut sink = Vec::new();
        let case = |name: &str, passed| Case {
            name: name.into(),
            passed,
            detail: format!("{name} <measured> & budget"),
            at: 0,
        };
        v.decide(&mut sink, case("drains", true));
        v.decide(&mut sink, case("poison in \"dlq\"", false));
        let xml = v.junit("poison", 1.5);
        assert!(xml.contains(r#"tests="2" failures="1""#), "{xml}");
        assert!(xml.contains(r#"name="poison in &quot;dlq&quot;""#), "{xml}");
        assert!(
            xml.contains("&lt;measured&gt; &amp; budget</failure>"),
            "{xml}"
        );
        assert!(!v.passed());
    }
}
