#!/usr/bin/env bash
# The game-day examples, so they cannot rot: each drill passes against a sqslite of its own
# (--serve), each sabotaged variant fails with exactly the expectations its `# expect-fail:`
# lines name, each bad file stops with exit 2 saying what its `# expect:` line says (a file's
# error at its line and column, a consumer that is not there), one drill runs
# against a separately started server with the consumer as a child command (--endpoint,
# --consumer), and every --junit file is read back by junitparser (pinned in requirements.txt).
#   SQSLITE_BIN=path examples/game-days/run.sh      (default: target/release/sqslite)
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
BIN="${SQSLITE_BIN:-$ROOT/target/release/sqslite}"
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
cd "$ROOT"

# junitparser in a venv of its own, rebuilt only when its pin changes.
VENV="$HERE/.venv"
want=$(sha256sum "$HERE/requirements.txt" | cut -c1-64)
if [[ ! -x "$VENV/bin/python" || "$(cat "$VENV/.pins" 2>/dev/null)" != "$want" ]]; then
    python3 -m venv --clear "$VENV"
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -r "$HERE/requirements.txt"
    echo "$want" > "$VENV/.pins"
fi

passed=0
fail() { echo "game days: $*" >&2; exit 1; }

for drill in "$HERE"/*.toml; do
    name=$(basename "$drill" .toml)
    start=$(date +%s%N)
    "$BIN" drill run "$drill" --serve --junit "$OUT/$name.xml" > "$OUT/$name.log" 2>&1 \
        || { cat "$OUT/$name.log"; fail "$name did not pass"; }
    "$VENV/bin/python" "$HERE/check_junit.py" "$OUT/$name.xml"
    echo "  $name passed in $(( ($(date +%s%N) - start) / 1000000 )) ms"
    passed=$((passed + 1))
done

for drill in "$HERE"/sabotaged/*.toml; do
    name=$(basename "$drill" .toml)
    mapfile -t wanted < <(sed -n 's/^# expect-fail: //p' "$drill")
    [[ ${#wanted[@]} -gt 0 ]] || fail "$name has no '# expect-fail:' line"
    status=0
    "$BIN" drill run "$drill" --serve --junit "$OUT/$name.xml" > "$OUT/$name.log" 2>&1 || status=$?
    [[ $status -eq 1 ]] || { cat "$OUT/$name.log"; fail "sabotaged $name exited $status, not 1"; }
    for case in "${wanted[@]}"; do
        grep -qF "[FAIL] $case:" "$OUT/$name.log" || { cat "$OUT/$name.log"; fail "sabotaged $name did not fail on '$case'"; }
    done
    "$VENV/bin/python" "$HERE/check_junit.py" "$OUT/$name.xml" "${wanted[@]}"
    echo "  sabotaged $name failed on: ${wanted[*]}"
    passed=$((passed + 1))
done

for drill in "$HERE"/bad/*.toml; do
    name=$(basename "$drill")
    want=$(sed -n 's/^# expect: //p' "$drill")
    status=0
    "$BIN" drill run "$drill" --serve > "$OUT/bad.log" 2>&1 || status=$?
    [[ $status -eq 2 ]] || { cat "$OUT/bad.log"; fail "bad $name exited $status, not 2"; }
    grep -qF "$want" "$OUT/bad.log" || { cat "$OUT/bad.log"; fail "bad $name: wanted '$want'"; }
    echo "  bad $name: exit 2, $(head -c 160 "$OUT/bad.log")"
    passed=$((passed + 1))
done

# A server started apart, as in docker-compose, and the consumer as the team's command.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$BIN" --port "$port" --clock manual > "$OUT/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$OUT"' EXIT
for _ in $(seq 100); do "$BIN" health --port "$port" 2>/dev/null && break; sleep 0.05; done
"$BIN" drill run "$HERE/poison.toml" --endpoint "http://127.0.0.1:$port" \
    --consumer "\"$BIN\" drill consumer --endpoint \"\$SQSLITE_ENDPOINT\" --queue payments --poll-ms 20" \
    --junit "$OUT/endpoint.xml" > "$OUT/endpoint.log" 2>&1 || { cat "$OUT/endpoint.log"; fail "poison.toml against --endpoint did not pass"; }
grep -qF "[PASS] the consumer ran through the drill" "$OUT/endpoint.log" || { cat "$OUT/endpoint.log"; fail "the consumer command was not watched"; }
"$VENV/bin/python" "$HERE/check_junit.py" "$OUT/endpoint.xml"
echo "  poison.toml against a separate server, consumer as a command: passed"
passed=$((passed + 1))

echo "game days: $passed passed, 0 failed"
