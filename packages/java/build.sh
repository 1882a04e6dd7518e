#!/usr/bin/env bash
# The JUnit extension's jars (classes with every binary, sources, javadoc), built with Maven
# from a copy of packages/java so that the tree gets no target/.
#
#   packages/java/build.sh BINARIES OUT                  # mvn install: into ~/.m2
#   packages/java/build.sh BINARIES OUT deploy -P central  # other goals and flags (the release)
#
# BINARIES/<rust target>/sqslite become the jar resources dev/sqslite/bin/<os>-<arch>/sqslite,
# named as SqsliteServer.platform() names the JVM's platform. Prints the main jar's path.
set -euo pipefail
JAVA_DIR="$(cd "$(dirname "$0")" && pwd)"
BINARIES=$1 OUT=$2
shift 2
(( $# )) || set -- install
rm -rf "$OUT"
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
cp -R "$JAVA_DIR" "$OUT/src"
rm -rf "$OUT/src/sample" "$OUT/src/build.sh"

platforms=()
for binary in "$BINARIES"/*/sqslite; do
    [[ -f $binary ]] || continue
    target=$(basename "$(dirname "$binary")")
    case $target in
        x86_64-unknown-linux-gnu) platform=linux-x86_64 ;;
        aarch64-unknown-linux-gnu) platform=linux-aarch64 ;;
        x86_64-apple-darwin) platform=macos-x86_64 ;;
        aarch64-apple-darwin) platform=macos-aarch64 ;;
        *) echo "build.sh: no JVM platform for $target" >&2; exit 1 ;;
    esac
    mkdir -p "$OUT/binaries/$platform"
    cp "$binary" "$OUT/binaries/$platform/sqslite"
    platforms+=("$platform")
done
(( ${#platforms[@]} )) || { echo "build.sh: no $BINARIES/<target>/sqslite" >&2; exit 1; }

# Maven's output goes to stderr: stdout is the jar's path, for the caller.
(cd "$OUT/src" && mvn -B -q -ntp -Dstyle.color=never -Dsqslite.binaries="$OUT/binaries" "$@" >&2)
jar="$OUT/src/target/sqslite-junit5-$("$JAVA_DIR/../../scripts/version").jar"
for platform in "${platforms[@]}"; do
    jar tf "$jar" | grep -qx "dev/sqslite/bin/$platform/sqslite" \
        || { echo "build.sh: $jar lacks the $platform binary" >&2; exit 1; }
done
echo "$jar"
