#!/usr/bin/env python3
"""Checks the compatibility table of docs/src/sqs.md against the compat suite's last run.

    check_compat_table.py PAGE REPORTS_DIR

Each row names its compat run (a `compat run` cell such as `boto3-json`) and says how many of
that run's tests it covers ("17 passed"); the rows of a run must add up to what the run's JUnit
report (REPORTS_DIR/RUN.xml, as compat/run.sh leaves it) counts as passed, and every report
must have a row. So a test added to a client, or a new client, changes the table or fails here.
"""
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "compat"))
from junit_count import count  # noqa: E402  (compat's own reading of a JUnit report)


def passed(report):
    return count([report])[0]


def table(page):
    lines = page.read_text(encoding="utf-8").split("\n")
    header = next(i for i, l in enumerate(lines) if re.match(r"\|\s*client\s*\|.*\|\s*compat run\s*\|", l))
    names = [c.strip() for c in lines[header].strip("|").split("|")]
    run_at, result_at = names.index("compat run"), names.index("result")
    for line in lines[header + 2 :]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        yield line, cells[run_at].strip("`"), cells[result_at]


def main(page, reports):
    claimed, problems = {}, []
    for line, run, result in table(pathlib.Path(page)):
        count = re.fullmatch(r"(\d+) passed", result)
        if run == "cargo test":
            continue
        if not count:
            problems.append(f"a row of `{run}` says {result!r}, not 'N passed': {line[:80]}")
            continue
        claimed[run] = claimed.get(run, 0) + int(count.group(1))
    found = {p.stem: passed(p) for p in sorted(pathlib.Path(reports).glob("*.xml"))}
    if not found:
        problems.append(f"no compat reports in {reports}")
    for run, count in sorted(found.items()):
        if run not in claimed:
            problems.append(f"the run `{run}` ({count} passed) has no row")
        elif claimed[run] != count:
            problems.append(f"the rows of `{run}` say {claimed[run]} passed, its report {count}")
    for run in sorted(set(claimed) - set(found)):
        problems.append(f"a row names the run `{run}`, which left no report")
    for problem in problems:
        print(f"compat table ({page}): {problem}")
    print(f"compat table: {len(found)} runs, {sum(found.values())} tests, {len(problems)} differences")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
