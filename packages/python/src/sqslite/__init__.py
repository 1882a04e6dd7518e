"""sqslite for Python tests: the bundled server binary and a handle that starts and drives it.

`pip install sqslite` puts the `sqslite` binary on PATH (it is in the wheel's scripts); this
module finds it, starts it on a free port and talks to its admin API (reset, manual clock).
The pytest plugin (`sqslite.pytest_plugin`) builds its fixtures on `Server`.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
import time
import urllib.request
from importlib import metadata
from pathlib import Path

__all__ = ["Server", "binary_path", "__version__"]

try:
    __version__ = metadata.version("sqslite")
except metadata.PackageNotFoundError:  # imported from a source tree
    __version__ = "0"

_LISTENING = re.compile(r"listening on (http://\S+)")


def binary_path() -> str:
    """The sqslite binary: $SQSLITE_BIN, else the one this wheel installed, else PATH's."""
    explicit = os.environ.get("SQSLITE_BIN")
    if explicit:
        return explicit
    try:
        for file in metadata.distribution("sqslite").files or ():
            if file.name == "sqslite" and file.parent.name in ("bin", "Scripts"):
                path = Path(file.locate()).resolve()
                if path.is_file():
                    return str(path)
    except metadata.PackageNotFoundError:
        pass
    found = shutil.which("sqslite")
    if found:
        return found
    raise FileNotFoundError("no sqslite binary: pip install sqslite, or set SQSLITE_BIN")


class Server:
    """One sqslite process on 127.0.0.1 and a free port; stop() (or `with`) ends it."""

    def __init__(self, *, config=None, clock=None, strict=False, delivery=None,
                 delivery_seed=None, args=(), binary=None, timeout=30.0):
        self.binary = binary or binary_path()
        self.command = [self.binary, "--port", "0"]
        if clock:  # else the binary's own default, or SQSLITE_CLOCK
            self.command += ["--clock", clock]
        if delivery:  # "exact" or "at-least-once" (docs/src/at-least-once.md)
            self.command += ["--delivery", delivery]
        if delivery_seed is not None:
            self.command += ["--delivery-seed", str(delivery_seed)]
        if config:
            self.command += ["--config", str(config)]
        if strict:
            self.command.append("--strict")
        self.command += list(args)
        self.timeout = timeout
        self.endpoint = None
        self.process = None
        self.log_path = None

    def start(self) -> "Server":
        # The log goes to a file, not a pipe: nobody has to keep draining it, and a failed start
        # still has it to show (stop() removes it).
        fd, self.log_path = tempfile.mkstemp(prefix="sqslite-", suffix=".log")
        env = dict(os.environ, NO_COLOR="1", SQSLITE_LOG="info")
        with os.fdopen(fd, "wb") as log:
            self.process = subprocess.Popen(self.command, stdin=subprocess.DEVNULL,
                                            stdout=log, stderr=subprocess.STDOUT, env=env)
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            match = _LISTENING.search(self.log())
            if match:
                self.endpoint = match.group(1)
                return self
            if self.process.poll() is not None:
                break
            time.sleep(0.02)
        log = self.log()
        self.stop()
        raise RuntimeError(f"sqslite did not report its address; log:\n{log}")

    def log(self) -> str:
        """The server's output so far (removed when it stops)."""
        return Path(self.log_path).read_text(errors="replace") if self.log_path else ""

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None
        if self.log_path:
            Path(self.log_path).unlink(missing_ok=True)
            self.log_path = None

    def __enter__(self) -> "Server":
        return self.start() if self.process is None else self

    def __exit__(self, *exc) -> None:
        self.stop()

    def admin(self, method: str, path: str, body=None):
        """One admin API call (`/_sqslite/...`); answers its JSON, raises on a non-2xx status."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.endpoint + path, data=data, method=method,
                                         headers={"content-type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as response:
            text = response.read().decode()
        return json.loads(text) if text else None

    def reset(self) -> None:
        """Back to the started state: declared queues empty, every other queue gone."""
        self.admin("POST", "/_sqslite/reset")

    def advance_clock(self, seconds: float = 0, *, milliseconds: int = 0) -> int:
        """Moves a `clock="manual"` server's clock on; answers the new time in epoch ms."""
        step = {"milliseconds": int(seconds * 1000) + milliseconds}
        return self.admin("POST", "/_sqslite/clock/advance", step)["now"]

    def now(self) -> int:
        """The server's clock in epoch milliseconds."""
        return self.admin("GET", "/_sqslite/clock")["now"]

    def client(self, service: str = "sqs", **kwargs):
        """A boto3 client for this server (region us-east-1, throwaway credentials)."""
        import boto3  # only the fixtures that hand out clients need boto3

        options = dict(endpoint_url=self.endpoint, region_name="us-east-1",
                       aws_access_key_id="test", aws_secret_access_key="test")
        options.update(kwargs)
        return boto3.client(service, **options)
