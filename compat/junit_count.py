"""Prints 'passed failed skipped' for the JUnit XML reports named on the command line."""

import sys
import xml.etree.ElementTree as ET

passed = failed = skipped = 0
for path in sys.argv[1:]:
    try:
        cases = ET.parse(path).getroot().iter("testcase")
    except (OSError, ET.ParseError):
        failed += 1  # no report at all: the runner itself broke
        continue
    for case in cases:
        kinds = {child.tag for child in case}
        if kinds & {"failure", "error"}:
            failed += 1
        elif "skipped" in kinds:
            skipped += 1
        else:
            passed += 1
print(passed, failed, skipped)
