#!/usr/bin/env bash
# The dashboard in a real browser: Debian's chromium (installed with apt-get when missing; never
# a downloaded browser) driven by playwright-core (pinned in package-lock.json) against the
# sqslite binary. `.ci/run` runs it; alone: `ui-test/run.sh` (SQSLITE_BIN=path skips nothing,
# it only names the binary; the default is target/release/sqslite).
#   UI_SCREENSHOTS=docs/src/images ui-test/run.sh    also refreshes the guide's screenshots
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(dirname "$HERE")"

if [[ ! -x /usr/bin/chromium ]]; then
    echo "ui-test: installing Debian's chromium with apt-get"
    SUDO=""
    [[ $(id -u) -ne 0 ]] && SUDO=sudo
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium > /dev/null
fi
/usr/bin/chromium --version

# npm ci again only when the lock file changed since the last install.
stamp="$HERE/node_modules/.lock-sha256"
sha=$(sha256sum "$HERE/package-lock.json" | cut -c1-64)
if [[ ! -f $stamp || "$(cat "$stamp")" != "$sha" ]]; then
    (cd "$HERE" && npm ci --no-audit --no-fund)
    echo "$sha" > "$stamp"
fi

export SQSLITE_BIN="${SQSLITE_BIN:-$ROOT/target/release/sqslite}"
cd "$ROOT"
node --test ui-test/
