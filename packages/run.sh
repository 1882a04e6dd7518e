#!/usr/bin/env bash
# The language packages (packages/python, node, java, go): builds each artifact from the working
# tree around one release binary with the scripts the release workflow runs for every platform
# (.github/workflows/release.yml), installs it into a fresh environment the way a user would from
# its registry (a new venv; a new npm project given the local tarballs; a Maven project resolving
# the artifact from the local repository; a Go module with a replace directive), and runs the
# sample suite there: declared queues, a DLQ on a manual clock, reset between tests.
#
#   packages/run.sh                 # every language
#   packages/run.sh python go       # only these (python, node, java, go)
#
# Environment: SQSLITE_BIN=path skips the build (scripts/build-release) and is taken to be for
# this machine's Rust target; PACKAGES_OUT=dir holds the artifacts, the throwaway projects and
# their reports (default target/packages).
# Third-party versions are pinned: python/requirements-test.txt, node/sample/package-lock.json,
# the poms, go.sum. The Java artifact is installed into ~/.m2 (dev/sqslite/sqslite-junit5).
set -euo pipefail
RUN_START=$(date +%s)
PACKAGES="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(dirname "$PACKAGES")"
OUT="${PACKAGES_OUT:-$ROOT/target/packages}"
PYTHON="${PYTHON:-python3}"
export PYTHONDONTWRITEBYTECODE=1
LANGUAGES=("${@:-python node java go}")
read -r -a LANGUAGES <<< "${LANGUAGES[*]}"
mkdir -p "$OUT"

part_start() { printf '\n== packages: %s ==\n' "$1"; PART_START=$(date +%s); }
part_done() { printf -- '-- packages: %s took %ss\n' "$1" "$(( $(date +%s) - PART_START ))"; }

# Every package carries sqslite's own version (Cargo.toml); a manifest that says otherwise fails.
VERSION=$("$ROOT/scripts/version")
part_start "versions (sqslite $VERSION)"
drift=0
check_version() {  # file, what it says
    if [[ $2 != "$VERSION" ]]; then
        echo "packages: $1 says $2, Cargo.toml says $VERSION" >&2
        drift=1
    fi
}
json_field() { node -p "const p = require('$1'); $2"; }
check_version node/sqslite/package.json "$(json_field "$PACKAGES/node/sqslite/package.json" p.version)"
for platform in linux-x64 linux-arm64 darwin-x64 darwin-arm64; do
    check_version "node/sqslite/package.json optionalDependencies @sqslite/$platform" \
        "$(json_field "$PACKAGES/node/sqslite/package.json" "p.optionalDependencies['@sqslite/$platform']")"
done
pom_value() { sed -n "s|^  <$2>\(.*\)</$2>\$|\1|p;s|^    <$2>\(.*\)</$2>\$|\1|p" "$1" | head -1; }
check_version java/pom.xml "$(pom_value "$PACKAGES/java/pom.xml" version)"
check_version java/sample/pom.xml "$(pom_value "$PACKAGES/java/sample/pom.xml" sqslite.version)"
(( drift == 0 ))
part_done "versions"

part_start "release binary"
if [[ -z "${SQSLITE_BIN:-}" ]]; then
    SQSLITE_BIN="$("$ROOT/scripts/build-release")/sqslite"
fi
# Laid out as the release workflow lays out its binaries, BINARIES/<rust target>/sqslite, which
# every packager reads; the release archive is built from it too.
BINARIES="$OUT/binaries"
TARGET=$(rustc -vV | sed -n 's/^host: //p')
rm -rf "$BINARIES"
mkdir -p "$BINARIES/$TARGET"
cp "$SQSLITE_BIN" "$BINARIES/$TARGET/sqslite"
BIN="$BINARIES/$TARGET/sqslite"
# The Python, Node and Java samples must run the binary their package carries.
unset SQSLITE_BIN
"$BIN" --version
rm -rf "$OUT/archives"
archive=$("$ROOT/scripts/package-archive" "$BINARIES" "$OUT/archives")
(cd "$OUT/archives" && shasum -a 256 -c "$(basename "$archive").sha256")
tar -xzOf "$archive" "$(basename "$archive" .tar.gz)/sqslite" | cmp - "$BIN"
part_done "binary"

# A fresh project directory with the sample suite and the shared queue declarations.
project() {
    rm -rf "$2"
    mkdir -p "$2"
    cp -R "$1/." "$2/"
    cp "$PACKAGES/sample.toml" "$2/sqslite.toml"
}

# 'passed failed' of a language's run: its JUnit XML reports, or go test -v's log.
count() {
    local junit vp vf jp jf
    case $1 in
        go)
            local log="$OUT/go/test.log"
            echo "$(grep -c -- '--- PASS:' "$log" 2>/dev/null || true) $(grep -c -- '--- FAIL:' "$log" 2>/dev/null || true)"
            return ;;
        node)  # Vitest's JUnit XML plus Jest's JSON summary
            local vitest jest
            vitest=$("$PYTHON" "$ROOT/compat/junit_count.py" "$OUT/node/report.xml")
            jest=$(node -p "try { const r = require('$OUT/node/jest.json');
                r.numPassedTests + ' ' + r.numFailedTests } catch { '0 1' }")
            read -r vp vf _ <<< "$vitest"
            read -r jp jf <<< "$jest"
            echo "$((vp + jp)) $((vf + jf))"
            return ;;
        java) junit=("$OUT"/java/project/target/surefire-reports/TEST-*.xml) ;;
        *) junit=("$OUT/$1/report.xml") ;;
    esac
    "$PYTHON" "$ROOT/compat/junit_count.py" "${junit[@]}" | cut -d' ' -f1,2
}

run_python() {
    local work="$OUT/python"
    rm -rf "$work"
    local wheel
    wheel=$("$PYTHON" "$PACKAGES/python/build_wheel.py" --binaries "$BINARIES" --out "$work/dist")
    "$PYTHON" -m venv "$work/venv"
    "$work/venv/bin/python" -m pip install --quiet --disable-pip-version-check \
        -r "$PACKAGES/python/requirements-test.txt" "$wheel"
    # `pip install sqslite` puts the server on the venv's PATH.
    PATH="$work/venv/bin:$PATH" sqslite --version
    project "$PACKAGES/python/sample" "$work/project"
    (cd "$work/project" && "$work/venv/bin/python" -m pytest -p no:cacheprovider -q \
        --junitxml="$work/report.xml")
}

run_node() {
    local work="$OUT/node"
    rm -rf "$work"
    local packed tarballs
    packed=$("$PACKAGES/node/pack.sh" "$BINARIES" "$work/dist")
    mapfile -t tarballs <<< "$packed"
    project "$PACKAGES/node/sample" "$work/project"
    # The lock pins the third-party packages; the tarballs stand in for the registry's sqslite
    # and this platform's @sqslite/<os>-<cpu> (the main package's optional dependency).
    (cd "$work/project" && npm ci --no-audit --no-fund --loglevel=error \
        && npm install --no-save --no-audit --no-fund --loglevel=error "${tarballs[@]}" \
        && npx --no-install sqslite --version \
        && NO_COLOR=1 npx --no-install vitest run --reporter=default --reporter=junit \
            --outputFile.junit="$work/report.xml" \
        && NODE_OPTIONS=--experimental-vm-modules npx --no-install jest --ci \
            --json --outputFile="$work/jest.json")
}

run_java() {
    local work="$OUT/java"
    rm -rf "$work"
    # Installed into ~/.m2 like any artifact, then resolved from there by the sample.
    "$PACKAGES/java/build.sh" "$BINARIES" "$work/build"
    project "$PACKAGES/java/sample" "$work/project"
    (cd "$work/project" && mvn -B -ntp -Dstyle.color=never test)
}

run_go() {
    local work="$OUT/go"
    rm -rf "$work"
    project "$PACKAGES/go/sample" "$work/project"
    (cd "$work/project" && go mod edit -replace "sqslite.dev/sqslitetest=$PACKAGES/go" \
        && SQSLITE_BIN="$BIN" go test -count=1 -v ./... | tee "$work/test.log")
}

total_passed=0 total_failed=0 summary=()
for language in "${LANGUAGES[@]}"; do
    case $language in python | node | java | go) ;; *)
        echo "packages: unknown language $language (python, node, java, go)" >&2; exit 2 ;;
    esac
    part_start "$language"
    # In a subshell of its own so that `set -e` holds inside (a function run as `f || x` would
    # ignore it); the counts come from the reports it leaves.
    set +e
    (set -e; "run_$language")
    status=$?
    set -e
    read -r passed failed < <(count "$language")
    passed=${passed:-0} failed=${failed:-0}
    if (( status != 0 && failed == 0 )); then failed=1; fi
    total_passed=$((total_passed + passed)) total_failed=$((total_failed + failed))
    summary+=("$(printf '%-7s %3d passed, %d failed, %4ss' "$language" "$passed" "$failed" \
        "$(( $(date +%s) - PART_START ))")")
    part_done "$language"
done

printf '\n== packages: summary (artifacts and reports in %s; took %ss in all) ==\n' "$OUT" \
    "$(( $(date +%s) - RUN_START ))"
printf '%s\n' "${summary[@]}"
printf 'packages: %d passed, %d failed\n' "$total_passed" "$total_failed"
(( total_failed == 0 ))
