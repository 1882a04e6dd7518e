"""Prints 'passed failed skipped' for the JUnit XML reports named on the command line.

`count(paths)` gives the same three numbers to other scripts (docs/tools/check_compat_table.py).
"""

import sys
import xml.etree.ElementTree as ET


def count(paths):
    passed = failed = skipped = 0
    for path in paths:
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
    return passed, failed, skipped


if __name__ == "__main__":
    print(*count(sys.argv[1:]))
