#!/usr/bin/env bash
# The npm tarballs: one @sqslite/<os>-<cpu> package per binary (its bin/sqslite, limited by
# `os` and `cpu` so that npm installs only the matching one) and the main package, sqslite,
# which lists them all as optional dependencies.
#
#   packages/node/pack.sh BINARIES OUT     # BINARIES/<rust target>/sqslite
#
# Prints the tarballs' paths in publishing order: the platform packages before the main one,
# so that the registry never serves a main package whose binaries are missing. The platform
# manifests are written here, from the main package's version and license: they hold nothing
# else of their own.
set -euo pipefail
NODE_DIR="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(dirname "$(dirname "$NODE_DIR")")"
BINARIES=$1 OUT=$2
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

pack() {  # directory
    cp "$ROOT/LICENSE-MIT" "$ROOT/LICENSE-APACHE" "$1/"
    echo "$OUT/$(cd "$1" && npm pack --silent --pack-destination "$OUT")"
}

found=0
for binary in "$BINARIES"/*/sqslite; do
    [[ -f $binary ]] || continue
    found=1
    target=$(basename "$(dirname "$binary")")
    case $target in
        x86_64-unknown-linux-gnu) os=linux cpu=x64 what="Linux x86-64 (static)" ;;
        aarch64-unknown-linux-gnu) os=linux cpu=arm64 what="Linux arm64 (static)" ;;
        x86_64-apple-darwin) os=darwin cpu=x64 what="macOS x86-64" ;;
        aarch64-apple-darwin) os=darwin cpu=arm64 what="macOS arm64" ;;
        *) echo "pack.sh: no npm platform for $target" >&2; exit 1 ;;
    esac
    dir="$stage/$os-$cpu"
    mkdir -p "$dir/bin"
    cp "$binary" "$dir/bin/sqslite"
    chmod 0755 "$dir/bin/sqslite"
    node - "$NODE_DIR/sqslite/package.json" "$os" "$cpu" "$what" > "$dir/package.json" <<'JS'
const [main, os, cpu, what] = process.argv.slice(2);
const { version, license, optionalDependencies = {} } = require(main);
const name = `@sqslite/${os}-${cpu}`;
if (optionalDependencies[name] !== version) {
  console.error(`pack.sh: ${main} must list ${name}@${version} in optionalDependencies`);
  process.exit(1);
}
console.log(JSON.stringify({
  name, version, license,
  description: `The sqslite server binary for ${what}, installed by the sqslite package`,
  os: [os], cpu: [cpu],
  files: ["bin/sqslite", "LICENSE-MIT", "LICENSE-APACHE"],
  preferUnplugged: true,
}, null, 2));
JS
    pack "$dir"
done
(( found )) || { echo "pack.sh: no $BINARIES/<target>/sqslite" >&2; exit 1; }
cp -R "$NODE_DIR/sqslite" "$stage/sqslite"
pack "$stage/sqslite"
