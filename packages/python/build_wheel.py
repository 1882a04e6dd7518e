"""Builds the sqslite wheels around prebuilt binaries, with the standard library only.

    python3 build_wheel.py --binaries DIR --out OUT     # DIR/<rust target>/sqslite, one wheel each

The binary goes to the wheel's `.data/scripts`, which pip installs onto PATH (bin/) with its
executable bit, as maturin's `bin` bindings do; the Python code is src/sqslite. The version is
Cargo.toml's. The Linux builds are static (no glibc needed at all), so the oldest manylinux tag
lets any Linux pip of that architecture take them; the macOS tags are Rust's own minimum
deployment targets. A hand-written wheel rather than a build backend: setuptools and hatchling
need plugins or hooks to put a foreign binary into scripts with a platform tag, and maturin
would compile sqslite a second time.
"""

import argparse
import base64
import hashlib
import stat
import tomllib
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
PLATFORM_TAGS = {
    "x86_64-unknown-linux-gnu": "manylinux_2_17_x86_64",
    "aarch64-unknown-linux-gnu": "manylinux_2_17_aarch64",
    "x86_64-apple-darwin": "macosx_10_12_x86_64",
    "aarch64-apple-darwin": "macosx_11_0_arm64",
}


def metadata(version: str) -> str:
    return f"""Metadata-Version: 2.1
Name: sqslite
Version: {version}
Summary: sqslite (an Amazon SQS-compatible server) for tests: the binary and a pytest plugin
License: MIT OR Apache-2.0
Requires-Python: >=3.9
Classifier: Framework :: Pytest
Provides-Extra: pytest
Requires-Dist: pytest>=7; extra == "pytest"
Requires-Dist: boto3>=1.26; extra == "pytest"
Description-Content-Type: text/markdown

`pip install sqslite` puts the `sqslite` server on PATH. `pip install "sqslite[pytest]"` adds
pytest fixtures: a session server on a free port (`sqslite_server`), reset before each test
(`sqslite`, `sqslite_endpoint`, `sqs_client`), with `sqslite.advance_clock(seconds)` for a
manual clock (`--sqslite-clock manual`).
"""


def record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def build(binary: Path, target: str, out: Path) -> Path:
    tag = f"py3-none-{PLATFORM_TAGS[target]}"
    version = tomllib.loads((ROOT / "Cargo.toml").read_text())["package"]["version"]
    info = f"sqslite-{version}.dist-info"
    files = [(f"sqslite/{p.name}", p.read_bytes(), 0o644)
             for p in sorted((HERE / "src" / "sqslite").glob("*.py"))]
    files += [
        (f"sqslite-{version}.data/scripts/sqslite", binary.read_bytes(), 0o755),
        (f"{info}/METADATA", metadata(version).encode(), 0o644),
        (f"{info}/WHEEL", f"Wheel-Version: 1.0\nGenerator: sqslite build_wheel.py\n"
                          f"Root-Is-Purelib: false\nTag: {tag}\n".encode(), 0o644),
        (f"{info}/entry_points.txt", b"[pytest11]\nsqslite = sqslite.pytest_plugin\n", 0o644),
    ]
    files += [(f"{info}/{name}", (ROOT / name).read_bytes(), 0o644)
              for name in ("LICENSE-MIT", "LICENSE-APACHE")]
    record = [record_line(name, data) for name, data, _ in files] + [f"{info}/RECORD,,"]
    files.append((f"{info}/RECORD", ("\n".join(record) + "\n").encode(), 0o644))
    out.mkdir(parents=True, exist_ok=True)
    wheel = out / f"sqslite-{version}-{tag}.whl"
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data, mode in files:
            entry = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            entry.external_attr = (stat.S_IFREG | mode) << 16
            entry.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(entry, data)
    return wheel


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binaries", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    binaries = sorted(args.binaries.glob("*/sqslite"))
    if not binaries:
        raise SystemExit(f"build_wheel: no {args.binaries}/<target>/sqslite")
    for binary in binaries:
        target = binary.parent.name
        if target not in PLATFORM_TAGS:
            raise SystemExit(f"build_wheel: no wheel tag for {target} ({', '.join(PLATFORM_TAGS)})")
        print(build(binary, target, args.out))


if __name__ == "__main__":
    main()
