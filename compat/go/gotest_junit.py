"""Turns `go test -json` (stdin) into a JUnit XML report for junit_count.py, echoing the tests'
output as `go test -v` would print it.

    go test -json ./... | python3 gotest_junit.py report.xml

One <testcase> per top-level test that ended (pass, fail or skip); a package that failed with
no test failing (a build error, a panic in TestMain) counts as one failed case.
"""

import json
import sys
import xml.etree.ElementTree as ET


def main(report):
    outputs, results, packages = {}, {}, {}
    for line in sys.stdin:
        try:
            event = json.loads(line)
        except json.JSONDecodeError:
            sys.stdout.write(line)  # not an event (go's own messages)
            continue
        action, test = event.get("Action"), event.get("Test")
        text = event.get("Output", "")
        if action == "output":
            sys.stdout.write(text)
            if test:
                outputs.setdefault(test.split("/")[0], []).append(text)
        elif action in ("pass", "fail", "skip"):
            if test is None:
                packages[event.get("Package", "")] = action
            elif "/" not in test:
                results[test] = (action, event.get("Elapsed", 0))
    sys.stdout.flush()

    suite = ET.Element("testsuite", name="go")
    for name, (action, elapsed) in results.items():
        case = ET.SubElement(suite, "testcase", name=name, time=str(elapsed))
        if action == "fail":
            ET.SubElement(case, "failure").text = "".join(outputs.get(name, []))
        elif action == "skip":
            ET.SubElement(case, "skipped")
    for package, action in packages.items():
        if action == "fail" and not any(a == "fail" for a, _ in results.values()):
            case = ET.SubElement(suite, "testcase", name=f"{package} (package)")
            ET.SubElement(case, "failure").text = "the package failed outside any test"
    if not results and not packages:
        ET.SubElement(ET.SubElement(suite, "testcase", name="go test"), "failure").text = "no events"
    ET.ElementTree(suite).write(report, encoding="unicode")


if __name__ == "__main__":
    main(sys.argv[1])
