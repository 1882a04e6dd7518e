#!/usr/bin/env bash
# The user guide, built and checked (a step of .ci/run; docs/src/contributing/docs.md says what
# each check does). Installs the pinned mdBook once, into ~/.cache/sqslite, and reuses it.
#
#   docs/run.sh                  # build, then check links, examples and the broken samples
#   docs/run.sh --only sqs.md    # build, links, and the examples of the named page(s) only
#   docs/run.sh --build          # only build it, to read: open docs/book/index.html
#
# Environment: SQSLITE_BIN=path runs that sqslite (else target/release/sqslite, built when
# missing); COMPAT=dir takes the clients from that compat folder, whose installs compat/run.sh
# makes (its venvs, node_modules, Maven classpath and Go module).
set -euo pipefail
DOCS="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(dirname "$DOCS")"
MDBOOK_VERSION=0.5.4
CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/sqslite/mdbook-$MDBOOK_VERSION"
MDBOOK="$CACHE/bin/mdbook"
PYTHON="${PYTHON:-python3}"
export COMPAT="${COMPAT:-$ROOT/compat}"

part_start() { printf '\n== docs: %s ==\n' "$1"; PART_START=$(date +%s); }
part_done() { printf -- '-- docs: %s took %ss\n' "$1" "$(( $(date +%s) - PART_START ))"; }

# --- mdBook, pinned and installed once --------------------------------------------------------
# Only the search feature: serve and watch would add a web server and a file watcher to build.
part_start "mdBook $MDBOOK_VERSION"
if [[ ! -x $MDBOOK ]] || [[ "$("$MDBOOK" --version)" != "mdbook v$MDBOOK_VERSION" ]]; then
    cargo install mdbook --version "$MDBOOK_VERSION" --locked --no-default-features \
        --features search --root "$CACHE" --quiet
fi
part_done "mdBook"

# mdBook reports a missing page or a failed include as a warning and builds on: any WARN or
# ERROR line fails the run.
build() {
    local book=$1 log
    log=$(NO_COLOR=1 "$MDBOOK" build "$book" 2>&1) || { printf '%s\n' "$log"; return 1; }
    if grep -E '\b(WARN|ERROR)\b' <<<"$log"; then return 1; fi
}

part_start "build the guide"
build "$DOCS"
part_done "build"
if [[ ${1:-} == --build ]]; then
    echo "docs: built; open $DOCS/book/index.html"
    exit 0
fi

if [[ -z "${SQSLITE_BIN:-}" ]]; then
    (cd "$ROOT" && cargo build --release --locked --bin sqslite)
    SQSLITE_BIN="$ROOT/target/release/sqslite"
fi
export SQSLITE_BIN

# The links, and the guide sqslite serves from the copy compiled into it (the dashboard's
# links go there) against the book: the same pages with the same headings' ids.
part_start "links"
served_log=$(mktemp)
NO_COLOR=1 "$SQSLITE_BIN" --port 0 >"$served_log" 2>&1 &
served_pid=$!
trap 'kill $served_pid 2>/dev/null || true' EXIT
for _ in $(seq 100); do grep -q 'listening on' "$served_log" && break; sleep 0.1; done
served=$(grep -o 'listening on http://[^[:space:]]*' "$served_log" | head -1 | cut -d' ' -f3)
[[ -n $served ]] || { cat "$served_log"; echo "docs: sqslite did not start" >&2; exit 1; }
"$PYTHON" "$DOCS/tools/check_links.py" --served "$served" "$DOCS/book" "$ROOT"
kill $served_pid; wait $served_pid 2>/dev/null || true
part_done "links"

# The compatibility table's counts against the compat suite's reports, when it has run (in
# .ci/run it just has): a test or client added there changes the table, or this fails.
reports="${COMPAT_OUT:-$ROOT/target/compat}"
if compgen -G "$reports/*.xml" >/dev/null; then
    part_start "compatibility table"
    "$PYTHON" "$DOCS/tools/check_compat_table.py" "$DOCS/src/sqs.md" "$reports"
    part_done "compatibility table"
else
    echo "docs: compatibility table not checked (no compat reports in $reports: run compat/run.sh)"
fi

part_start "examples"
mapfile -t pages < <(cd "$ROOT" && { echo README.md; find docs/src -name '*.md' | sort; })
(cd "$ROOT" && "$PYTHON" "$DOCS/tools/check_examples.py" "$@" "${pages[@]}")
part_done "examples"

# The checks themselves: a sample with a broken link, a missing anchor, a failing example, a
# renamed flag, Go that does not compile, an unknown config key and a stale excerpt must each be
# caught, or a check that passes everything would go unnoticed.
if [[ $# -eq 0 ]]; then
    part_start "the checks catch what they should (docs/tools/broken)"
    sample="$ROOT/target/docs-broken"
    rm -rf "$sample" && cp -r "$DOCS/tools/broken" "$sample"
    build "$sample"
    if out=$("$PYTHON" "$DOCS/tools/check_links.py" "$sample/book" "$sample" 2>&1); then
        echo "docs: the link check passed a book with broken links" >&2; exit 1
    fi
    for want in "nowhere.html: no such file" "no anchor #no-such-heading"; do
        grep -q -- "$want" <<<"$out" || { printf '%s\n' "$out"; echo "docs: missed: $want" >&2; exit 1; }
    done
    if out=$(cd "$sample" && "$PYTHON" "$DOCS/tools/check_examples.py" src/page.md 2>&1); then
        echo "docs: the example check passed failing examples" >&2; exit 1
    fi
    for want in "FAIL src/page.md:.*(sh run)" "FAIL src/page.md:.*(sh args)" "FAIL src/page.md:.*(toml config)" \
        "FAIL src/page.md:.*(go compile)" "not in packages/python/sample/test_sample.py" \
        "examples: 1 passed, 5 failed"; do
        grep -q -- "$want" <<<"$out" || { printf '%s\n' "$out"; echo "docs: missed: $want" >&2; exit 1; }
    done
    if out=$("$PYTHON" "$DOCS/tools/check_compat_table.py" "$sample/src/compat.md" "$sample/reports" 2>&1); then
        echo "docs: the compatibility table check passed a wrong table" >&2; exit 1
    fi
    for want in "the rows of \`js-sdk\` say 16 passed, its report 17" "the run \`awscli\` (2 passed) has no row"; do
        grep -q -- "$want" <<<"$out" || { printf '%s\n' "$out"; echo "docs: missed: $want" >&2; exit 1; }
    done
    echo "docs: every broken sample was caught"
    part_done "broken samples"
fi
