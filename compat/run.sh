#!/usr/bin/env bash
# Cross-SDK compatibility suite: real AWS clients drive a freshly started release build of
# sqslite on an ephemeral port, one fresh server per client. Installs each client (pinned) on
# first use and reuses the install while its pin file is unchanged. Exits non-zero on any failure.
#
#   compat/run.sh                 # everything
#   compat/run.sh boto3-query     # only the named clients (`java`: every Java client)
#
# Environment: SQSLITE_BIN=path skips the cargo build; COMPAT_OUT=dir holds logs and reports.
set -euo pipefail
RUN_START=$(date +%s)
COMPAT="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(dirname "$COMPAT")"
OUT="${COMPAT_OUT:-$ROOT/target/compat}"
PYTHON="${PYTHON:-python3}"
export PYTHONDONTWRITEBYTECODE=1
ALL_CLIENTS=(boto3-json boto3-query awscli boto3-accounts boto3-sts awscli-sts kombu js-sdk sqs-consumer js-sts)
# S3 (and the libraries that offload payloads into it) through each language's clients.
ALL_CLIENTS+=(boto3-s3 awscli-s3 sqs-extended-python js-s3)
# The Java clients (compat/java, one Maven build, Java 17+ and Maven): `java` names them all.
JAVA_CLIENTS=(java-sdk2 java-sdk1-json java-sdk1-query spring-cloud-aws sqs-jms java-sts java-s3)
ALL_CLIENTS+=("${JAVA_CLIENTS[@]}")
ALL_CLIENTS+=(go-sdk go-sts go-s3)
CLIENTS=("${@:-${ALL_CLIENTS[@]}}")
java_named=()
for client in "${CLIENTS[@]}"; do
    if [[ $client == java ]]; then java_named+=("${JAVA_CLIENTS[@]}"); else java_named+=("$client"); fi
done
CLIENTS=("${java_named[@]}")
mkdir -p "$OUT"

part_start() { printf '\n== compat: %s ==\n' "$1"; PART_START=$(date +%s); }
part_done() { printf -- '-- compat: %s took %ss\n' "$1" "$(( $(date +%s) - PART_START ))"; }
sha() { sha256sum "$@" | sha256sum | cut -c1-64; }

# --- the server under test ---------------------------------------------------------------
part_start "cargo build --release"
if [[ -z "${SQSLITE_BIN:-}" ]]; then
    (cd "$ROOT" && cargo build --release --locked)
    SQSLITE_BIN="${CARGO_TARGET_DIR:-$ROOT/target}/release/sqslite"
fi
part_done "build"

SERVER_PID="" DRAIN_PID=""
stop_server() {
    if [[ -n "$SERVER_PID" ]]; then
        kill "$SERVER_PID" 2>/dev/null || true
        wait "$DRAIN_PID" 2>/dev/null || true  # the drain ends when the server closes its output
        SERVER_PID="" DRAIN_PID=""
    fi
}
trap stop_server EXIT

# Starts sqslite on port 0 and sets SQSLITE_ENDPOINT from the address it logs.
start_server() {
    local log="$OUT/sqslite-$1.log" fd line
    : > "$log"
    local config=()
    # The CLI suite maps queues to the function this file declares (`aws lambda ...`).
    [[ $1 == awscli ]] && config=(--config "$COMPAT/python/cli.toml")
    # The two-account suite signs with the two keys this file declares; the STS suites (boto3's,
    # the CLI's and the other SDKs') use them too, on a manual clock so that they can move it
    # past a key's expiry.
    [[ $1 == boto3-accounts ]] && config=(--config "$COMPAT/python/accounts.toml")
    [[ $1 == *-sts ]] && config=(--config "$COMPAT/python/accounts.toml" --clock manual)
    # The boto3 S3 suite's trigger: a declared queue, mapping and function, which writes each
    # event it is handed into COMPAT_S3_TRIGGER_DIR (it runs with the server's environment).
    if [[ $1 == boto3-s3 ]]; then
        config=(--config "$COMPAT/python/s3.toml")
        export COMPAT_S3_TRIGGER_DIR="$OUT/s3-trigger"
        rm -rf "$COMPAT_S3_TRIGGER_DIR" && mkdir -p "$COMPAT_S3_TRIGGER_DIR"
    fi
    exec {fd}< <(NO_COLOR=1 SQSLITE_LOG=info exec "$SQSLITE_BIN" --port 0 "${config[@]}" 2>&1)
    SERVER_PID=$!
    SQSLITE_ENDPOINT=""
    while IFS= read -r -t 30 -u "$fd" line; do
        printf '%s\n' "$line" >> "$log"
        if [[ $line =~ listening\ on\ (http://[^[:space:]]+) ]]; then
            SQSLITE_ENDPOINT="${BASH_REMATCH[1]}"
            break
        fi
    done
    cat <&"$fd" >> "$log" &
    DRAIN_PID=$!
    exec {fd}<&-
    if [[ -z "$SQSLITE_ENDPOINT" ]]; then
        echo "compat: sqslite did not report its address; log:" >&2
        cat "$log" >&2
        return 1
    fi
    export SQSLITE_ENDPOINT
}

# --- installs (cached) ---------------------------------------------------------------------
# A venv per pin file, rebuilt only when the pin file changes.
venv() {
    local name=$1 requirements="$COMPAT/python/requirements-$1.txt" dir="$COMPAT/.venv-$1"
    local stamp="$dir/.compat-pins" want
    want=$(sha "$requirements")
    if [[ ! -x "$dir/bin/python" || "$(cat "$stamp" 2>/dev/null)" != "$want" ]]; then
        "$PYTHON" -m venv --clear "$dir"
        "$dir/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements"
        echo "$want" > "$stamp"
    fi
}

node_modules() {
    local dir="$COMPAT/js" want
    want=$(sha "$dir/package-lock.json")
    if [[ "$(cat "$dir/node_modules/.compat-pins" 2>/dev/null)" != "$want" ]]; then
        (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
        echo "$want" > "$dir/node_modules/.compat-pins"
    fi
}

# The Java clients: one Maven build of compat/java, redone only when a pom or a source changes;
# Maven keeps its downloads in ~/.m2. Each module leaves target/classpath.txt for the launcher.
JAVA_BUILT=""
maven_build() {
    [[ -z $JAVA_BUILT ]] || return 0
    local dir="$COMPAT/java" stamp="$COMPAT/java/current/target/.compat-pins" want
    want=$(find "$dir" -path '*/target' -prune -o -type f -print0 | sort -z | xargs -0 sha256sum | sha256sum)
    if [[ "$(cat "$stamp" 2>/dev/null)" != "$want" ]]; then
        (cd "$dir" && mvn -B -q -Dstyle.color=never test-compile)
        echo "$want" > "$stamp"
    fi
    JAVA_BUILT=1
}
# The Go module's pins are compat/go/go.mod and go.sum; `go mod download` checks every module
# against go.sum, and -mod=readonly keeps a build from ever changing either file. Go keeps its
# module and build caches outside the clone (GOMODCACHE, GOCACHE), so later runs reuse them.
go_env() { (cd "$COMPAT/go" && GOFLAGS=-mod=readonly "$@"); }
go_modules() { go_env go mod download; }

part_start "install clients"
for client in "${CLIENTS[@]}"; do
    case $client in
        go-sdk | go-sts | go-s3) go_modules ;;
        boto3-json | awscli | boto3-accounts | boto3-sts | awscli-sts | boto3-s3 | awscli-s3) venv json ;;
        boto3-query) venv query ;;
        kombu) venv kombu ;;
        sqs-extended-python) venv extended ;;
        js-sdk | sqs-consumer | js-sts | js-s3) node_modules ;;
        java-* | spring-cloud-aws | sqs-jms) maven_build ;;
        *) echo "compat: unknown client $client (known: ${ALL_CLIENTS[*]})" >&2; exit 2 ;;
    esac
done
part_done "install"

# Every full client suite implements every scenario of docs/src/scenarios.md under the same name: the
# rows before its first section are SQS's, those of "## SNS fan-out" SNS's.
scenario_ids() {
    awk -v want="$1" '/^## /{section = substr($0, 4); next}
        section == want && match($0, /^\| `[a-z_]+` \|/) {print substr($0, 4, RLENGTH - 6)}' \
        "$ROOT/docs/src/scenarios.md"
}
part_start "scenario coverage"
missing=0
while read -r id; do
    grep -q "^def test_${id}(" "$COMPAT/python/test_scenarios.py" || { echo "boto3: no scenario $id"; missing=1; }
    grep -q "^test(\"${id}\"" "$COMPAT/js/scenarios.test.mjs" || { echo "js-sdk: no scenario $id"; missing=1; }
    grep -qh "^func Test_${id}(t \*testing.T)" "$COMPAT"/go/*_test.go || { echo "go-sdk: no scenario $id"; missing=1; }
    # SDK v2's scenario classes run every row through both its sync and its async client.
    grep -q "void ${id}()" "$COMPAT"/java/current/src/test/java/sqslite/compat/sdk2/*Scenarios.java \
        || { echo "java-sdk2: no scenario $id"; missing=1; }
done < <(scenario_ids "")
while read -r id; do
    grep -q "^def test_${id}(" "$COMPAT/python/test_sns.py" || { echo "boto3: no SNS scenario $id"; missing=1; }
    grep -q "^test(\"${id}\"" "$COMPAT/js/sns.test.mjs" || { echo "js-sdk: no SNS scenario $id"; missing=1; }
    grep -q "^func Test_${id}(t \*testing.T)" "$COMPAT/go/sns_test.go" || { echo "go-sdk: no SNS scenario $id"; missing=1; }
    grep -q "void ${id}()" "$COMPAT/java/current/src/test/java/sqslite/compat/sdk2/SnsScenarios.java" \
        || { echo "java-sdk2: no SNS scenario $id"; missing=1; }
done < <(scenario_ids "SNS fan-out")
part_done "coverage"

# --- the client suites -----------------------------------------------------------------------
py_version() { "$COMPAT/.venv-$1/bin/python" -c "import importlib.metadata as m; print(m.version('$2'))"; }
js_version() { node -p "require('$COMPAT/js/node_modules/$1/package.json').version"; }
go_mod_version() { go_env go list -m -f '{{.Version}}' "github.com/aws/aws-sdk-go-v2/${2:-service}/$1"; }

# One Java client: its test package in one JVM on the JUnit console launcher, whose JUnit XML
# (one file for the whole run) is the client's report.
run_java() {
    local client=$1 report=$2 module=current package protocol=json status=0
    case $client in
        java-sdk2) package=sdk2 ;;
        java-sdk1-json) package=sdk1 ;;
        java-sdk1-query) package=sdk1 module=sdk1-query protocol=query ;;
        spring-cloud-aws) package=spring ;;
        sqs-jms) package=jms ;;
        java-sts) package=sts ;;
        java-s3) package=s3 ;;
    esac
    local dir="$COMPAT/java/$module" reports="$OUT/$client-junit"
    rm -rf "$reports"
    COMPAT_PROTOCOL=$protocol java -cp "$dir/target/test-classes:$(cat "$dir/target/classpath.txt")" \
        org.junit.platform.console.ConsoleLauncher execute --disable-banner --disable-ansi-colors \
        --details=tree --select-package="sqslite.compat.$package" --reports-dir="$reports" || status=$?
    cp "$reports/TEST-junit-jupiter.xml" "$report" 2>/dev/null || true
    return "$status"
}

# The version of a jar on a Java module's class path.
java_jar() {
    tr ':' '\n' < "$COMPAT/java/$1/target/classpath.txt" | sed -n "s|.*/$2-\([0-9][^/]*\)\.jar\$|\1|p" | head -1
}

# One pytest run with a venv's Python: pytest_in VENV REPORT FILE... (files of compat/python).
pytest_in() {
    local venv=$1 report=$2
    shift 2
    "$COMPAT/.venv-$venv/bin/python" -m pytest -p no:cacheprovider "${@/#/$COMPAT/python/}" \
        --junitxml="$report" -q
}

run_client() {
    local client=$1 report="$OUT/$1.xml"
    rm -f "$report"
    case $client in
        go-sdk)
            # go test's exit status is the pipeline's (pipefail); the converter echoes -v output.
            go_env go test -count=1 -json . | "$PYTHON" "$COMPAT/go/gotest_junit.py" "$report" ;;
        go-sts)
            go_env go test -count=1 -json ./sts | "$PYTHON" "$COMPAT/go/gotest_junit.py" "$report" ;;
        go-s3)
            go_env go test -count=1 -json ./s3 | "$PYTHON" "$COMPAT/go/gotest_junit.py" "$report" ;;
        boto3-json)
            COMPAT_PROTOCOL=json pytest_in json "$report" test_scenarios.py test_sns.py test_sns_model.py ;;
        boto3-query) COMPAT_PROTOCOL=query pytest_in query "$report" test_scenarios.py ;;
        awscli) pytest_in json "$report" test_cli.py ;;
        boto3-accounts) COMPAT_PROTOCOL=json pytest_in json "$report" test_accounts.py ;;
        boto3-sts) pytest_in json "$report" test_sts.py ;;
        awscli-sts) pytest_in json "$report" test_cli_sts.py ;;
        kombu) pytest_in kombu "$report" test_kombu.py ;;
        boto3-s3) pytest_in json "$report" test_s3.py ;;
        awscli-s3) pytest_in json "$report" test_cli_s3.py ;;
        sqs-extended-python) pytest_in extended "$report" test_sqs_extended.py ;;
        js-sdk | sqs-consumer | js-sts | js-s3)
            local files=(scenarios.test.mjs sns.test.mjs)
            [[ $client == sqs-consumer ]] && files=(consumer.test.mjs)
            [[ $client == js-sts ]] && files=(sts.test.mjs)
            [[ $client == js-s3 ]] && files=(s3.test.mjs offload.test.mjs big-payload.test.mjs)
            (cd "$COMPAT/js" && node --test --test-reporter=spec --test-reporter-destination=stdout \
                --test-reporter=junit --test-reporter-destination="$report" "${files[@]}") ;;
        java-* | spring-cloud-aws | sqs-jms) run_java "$client" "$report" ;;
    esac
}

describe() {
    case $1 in
        go-sdk) echo "aws-sdk-go-v2/service/sqs $(go_mod_version sqs), AWS JSON 1.0; service/sns $(go_mod_version sns) (Query)" ;;
        go-sts) echo "aws-sdk-go-v2/service/sts $(go_mod_version sts) (Query), two accounts, manual clock" ;;
        go-s3) echo "aws-sdk-go-v2/service/s3 $(go_mod_version s3), feature/s3/manager $(go_mod_version s3/manager feature)" ;;
        boto3-json) echo "boto3 $(py_version json boto3) / botocore $(py_version json botocore), AWS JSON 1.0 (SNS: Query)" ;;
        boto3-query) echo "boto3 $(py_version query boto3) / botocore $(py_version query botocore), AWS Query" ;;
        awscli) echo "awscli $(py_version json awscli), AWS JSON 1.0" ;;
        boto3-accounts) echo "boto3 $(py_version json boto3) / botocore $(py_version json botocore), two accounts ([[credentials]])" ;;
        boto3-sts) echo "boto3 $(py_version json boto3) STS (Query), two accounts, manual clock" ;;
        awscli-sts) echo "awscli $(py_version json awscli) sts (Query), two accounts, manual clock" ;;
        boto3-s3) echo "boto3 $(py_version json boto3) S3, s3transfer $(py_version json s3transfer); a trigger (python/s3.toml)" ;;
        awscli-s3) echo "awscli $(py_version json awscli) s3 (cp of 100 MiB both ways, ls, presign) and s3api" ;;
        sqs-extended-python) echo "amazon-sqs-extended-client $(py_version extended amazon-sqs-extended-client) on boto3 $(py_version extended boto3)" ;;
        js-s3) echo "@aws-sdk/client-s3 $(js_version @aws-sdk/client-s3); message-queue-toolkit $(js_version @message-queue-toolkit/sqs), sns-sqs-big-payload $(js_version sns-sqs-big-payload)" ;;
        kombu) echo "kombu $(py_version kombu kombu) SQS transport, fanout through SNS, on boto3 $(py_version kombu boto3)" ;;
        js-sdk) echo "@aws-sdk/client-sqs $(js_version @aws-sdk/client-sqs), AWS JSON 1.0; client-sns $(js_version @aws-sdk/client-sns) (Query)" ;;
        js-sts) echo "@aws-sdk/client-sts $(js_version @aws-sdk/client-sts) (Query), two accounts, manual clock" ;;
        sqs-consumer) echo "sqs-consumer $(js_version sqs-consumer) on client-sqs $(js_version @aws-sdk/client-sqs), AWS JSON 1.0" ;;
        java-sdk2) echo "Java 2.x sqs $(java_jar current sqs) (sync, async, batch manager), JSON 1.0; sns $(java_jar current sns) (Query)" ;;
        java-sdk1-json) echo "aws-java-sdk-sqs $(java_jar current aws-java-sdk-sqs), AWS JSON 1.0" ;;
        java-sdk1-query) echo "aws-java-sdk-sqs $(java_jar sdk1-query aws-java-sdk-sqs), AWS Query" ;;
        spring-cloud-aws) echo "spring-cloud-aws-sqs $(java_jar current spring-cloud-aws-sqs) on Boot $(java_jar current spring-boot), AWS JSON 1.0" ;;
        java-sts) echo "Java 2.x sts $(java_jar current sts) (Query), two accounts, manual clock" ;;
        java-s3) echo "Java 2.x s3 $(java_jar current s3); SQS extended $(java_jar current amazon-sqs-java-extended-client-lib), SNS extended $(java_jar current sns-extended-client)" ;;
        sqs-jms) echo "amazon-sqs-java-messaging-lib $(java_jar current amazon-sqs-java-messaging-lib) on SDK v2, AWS JSON 1.0" ;;
    esac
}

total_passed=0 total_failed=$missing total_skipped=0 summary=()
for client in "${CLIENTS[@]}"; do
    part_start "$client"
    status=0
    if start_server "$client"; then
        run_client "$client" || status=$?
    else
        status=1
    fi
    stop_server
    read -r passed failed skipped < <("$PYTHON" "$COMPAT/junit_count.py" "$OUT/$client.xml")
    if (( status != 0 && failed == 0 )); then failed=1; fi
    total_passed=$((total_passed + passed)) total_failed=$((total_failed + failed))
    total_skipped=$((total_skipped + skipped))
    summary+=("$(printf '%-14s %-70s %3d passed, %d failed, %d skipped, %3ss' "$client" \
        "$(describe "$client")" "$passed" "$failed" "$skipped" "$(( $(date +%s) - PART_START ))")")
    part_done "$client"
done

printf '\n== compat: summary (logs and reports in %s; took %ss in all) ==\n' "$OUT" \
    "$(( $(date +%s) - RUN_START ))"
printf '%s\n' "${summary[@]}"
printf 'compat: %d passed, %d failed\n' "$total_passed" "$total_failed"
(( total_failed == 0 ))
