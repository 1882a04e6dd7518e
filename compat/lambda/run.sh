#!/usr/bin/env bash
# sqslite's triggers against AWS's own Lambda components, no Docker: the Runtime Interface
# Emulator (built from the Go module proxy) running a Python handler through awslambdaric, as a
# Lambda container image runs it; Powertools' BatchProcessor for partial batch responses; SAM
# CLI's sample SQS event beside the one sqslite sends; the AWS CLI's `lambda` commands against
# the event-source-mapping API. Installs each part (pinned) on first use and reuses it while its
# pin file is unchanged. Exits non-zero on any failure; the last line counts the tests.
#
#   compat/lambda/run.sh                 # every test
#   compat/lambda/run.sh -k powertools   # extra arguments go to pytest
#
# Environment: SQSLITE_BIN=path skips the cargo build; LAMBDA_OUT=dir holds logs and the report.
# Pins: requirements-function.txt (the function's venv), requirements-test.txt (pytest, boto3,
# awscli, aws-sam-cli), rie/go.mod and go.sum (aws-lambda-rie; Go's caches live outside the clone).
set -euo pipefail
RUN_START=$(date +%s)
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
OUT="${LAMBDA_OUT:-$ROOT/target/compat-lambda}"
PYTHON="${PYTHON:-python3}"
export PYTHONDONTWRITEBYTECODE=1 SAM_CLI_TELEMETRY=0
mkdir -p "$OUT"

part_start() { printf '\n== compat lambda: %s ==\n' "$1"; PART_START=$(date +%s); }
part_done() { printf -- '-- compat lambda: %s took %ss\n' "$1" "$(( $(date +%s) - PART_START ))"; }
sha() { sha256sum "$@" | sha256sum | cut -c1-64; }

part_start "cargo build --release"
if [[ -z "${SQSLITE_BIN:-}" ]]; then
    (cd "$ROOT" && cargo build --release --locked)
    SQSLITE_BIN="${CARGO_TARGET_DIR:-$ROOT/target}/release/sqslite"
fi
export SQSLITE_BIN
part_done "build"

# A venv per pin file, rebuilt only when the pin file changes.
venv() {
    local name=$1 requirements="$HERE/requirements-$1.txt" dir="$HERE/.venv-$1"
    local stamp="$dir/.compat-pins" want
    want=$(sha "$requirements")
    if [[ ! -x "$dir/bin/python" || "$(cat "$stamp" 2>/dev/null)" != "$want" ]]; then
        "$PYTHON" -m venv --clear "$dir"
        "$dir/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements"
        echo "$want" > "$stamp"
    fi
}

# aws-lambda-rie from its Go module (a `tool` of rie/go.mod); -mod=readonly checks every module
# against go.sum and never changes either file.
RIE="$HERE/.bin/aws-lambda-rie"
rie() {
    local stamp="$RIE.pins" want
    want=$(sha "$HERE/rie/go.mod" "$HERE/rie/go.sum")
    if [[ ! -x "$RIE" || "$(cat "$stamp" 2>/dev/null)" != "$want" ]]; then
        mkdir -p "$(dirname "$RIE")"
        (cd "$HERE/rie" && GOFLAGS=-mod=readonly go build -o "$RIE" \
            github.com/aws/aws-lambda-runtime-interface-emulator/cmd/aws-lambda-rie)
        echo "$want" > "$stamp"
    fi
}

installs=()
for part in "venv function" "venv test" "rie"; do
    part_start "install ${part#venv }"
    $part
    installs+=("${part#venv } $(( $(date +%s) - PART_START ))s")
    part_done "install"
done

pin() { "$HERE/.venv-$1/bin/python" -c "import importlib.metadata as m; print(m.version('$2'))"; }
part_start "versions"
echo "aws-lambda-rie $(sed -n 's|^\tgithub.com/aws/aws-lambda-runtime-interface-emulator \([^ ]*\).*|\1|p' "$HERE/rie/go.mod")"
echo "awslambdaric $(pin function awslambdaric), aws-lambda-powertools $(pin function aws-lambda-powertools)"
echo "aws-sam-cli $(pin test aws-sam-cli), awscli $(pin test awscli), boto3 $(pin test boto3)"
(IFS=,; echo "install times (0s: cached): ${installs[*]}")
part_done "versions"

part_start "pytest"
status=0
LAMBDA_RIE="$RIE" LAMBDA_FUNCTION_PYTHON="$HERE/.venv-function/bin/python" \
    "$HERE/.venv-test/bin/python" -m pytest -p no:cacheprovider --rootdir "$HERE" \
    --basetemp "$OUT/tmp" --junitxml="$OUT/report.xml" -q "$HERE" "$@" || status=$?
part_done "pytest"

read -r passed failed skipped < <("$PYTHON" "$ROOT/compat/junit_count.py" "$OUT/report.xml")
if (( status != 0 && failed == 0 )); then failed=1; fi
printf '\n== compat lambda: took %ss in all (logs and report in %s) ==\n' \
    "$(( $(date +%s) - RUN_START ))" "$OUT"
printf 'lambda: %d passed, %d failed, %d skipped\n' "$passed" "$failed" "$skipped"
(( failed == 0 ))
