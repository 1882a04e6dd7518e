"""Reads a drill's --junit file with junitparser, as a CI runner's JUnit reader would, and
checks it says what the drill printed: one test case per check, and exactly the failures wanted.

    check_junit.py FILE [FAILING-CASE ...]
"""
import sys

from junitparser import Failure, JUnitXml

path, wanted = sys.argv[1], set(sys.argv[2:])
xml = JUnitXml.fromfile(path)
cases = [case for suite in xml for case in suite]
failed = {case.name for case in cases if any(isinstance(r, Failure) for r in case.result)}
if not cases:
    sys.exit(f"{path}: no test cases")
if failed != wanted:
    sys.exit(f"{path}: failing cases {sorted(failed)}, wanted {sorted(wanted)}")
for case in cases:
    for result in case.result:
        message = result.message or ""
        if isinstance(result, Failure) and "budget" not in message and "tolerance" not in message:
            sys.exit(f"{path}: the failure of {case.name!r} gives no measured value against a budget: {result.message!r}")
print(f"{path}: {len(cases)} cases, {len(failed)} failing as wanted")
