#!/usr/bin/env python3
"""Runs the guide's and README's examples that are marked to run or compile.

    check_examples.py [--only PAGE ...] FILE.md ...

What each mark does is written in docs/src/contributing/docs.md. Every page with a runnable
block gets a fresh sqslite on a free port (SQSLITE_BIN), and each `localhost:9324` in a block
is replaced by its address. The tools come from the compat suite's installs (COMPAT, default
compat/): its venvs, its node_modules, its Maven classpath and its Go module. Prints one line
per block and exits 1 if any failed.
"""
import os
import pathlib
import re
import select
import shlex
import shutil
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
COMPAT = pathlib.Path(os.environ.get("COMPAT", ROOT / "compat")).resolve()
WORK = pathlib.Path(os.environ.get("DOCS_EXAMPLES_OUT", ROOT / "target" / "doc-examples"))
SQSLITE = os.environ.get("SQSLITE_BIN") or str(ROOT / "target" / "release" / "sqslite")
TIMEOUT = 180
ENDPOINT = re.compile(r"(?:localhost|127\.0\.0\.1):9324")
KINDS = {"run", "compile", "config", "args"}


class Block:
    """One fenced block: where it is, its language, its mark and its text."""

    def __init__(self, path, line, lang, words, lines):
        self.path, self.line, self.lang, self.words = path, line, lang, words
        self.code = "\n".join(lines) + "\n"
        self.kind = next((w for w in words if w in KINDS), None)
        self.file = next((w[5:] for w in words if w.startswith("file:")), None)
        self.excerpt = next((w[8:] for w in words if w.startswith("excerpt:")), None)

    def where(self):
        return f"{self.path}:{self.line}"


def blocks(path):
    found, current = [], None
    for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        stripped = line.strip()
        if current is None and stripped.startswith("```"):
            words = re.split(r"[\s,]+", stripped[3:].strip())
            current = (number, words[0] if words else "", words[1:], [], len(line) - len(line.lstrip()))
        elif current is not None and stripped.startswith("```"):
            start, lang, words, lines, _ = current
            block = Block(path, start, lang, words, lines)
            if block.kind or block.file or block.excerpt:
                found.append(block)
            current = None
        elif current is not None:
            current[3].append(line[current[4]:] if line[: current[4]].strip() == "" else line)
    return found


class Server:
    """A sqslite on a free port, for one page."""

    def __init__(self, config=None):
        args = [SQSLITE, "--host", "127.0.0.1", "--port", "0"] + (["--config", str(config)] if config else [])
        env = dict(os.environ, NO_COLOR="1", SQSLITE_LOG="info")
        self.proc = subprocess.Popen(
            args, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, env=env, bufsize=0
        )
        self.address, seen, deadline = None, [], time.time() + 30
        while time.time() < deadline and self.address is None:
            ready, _, _ = select.select([self.proc.stderr], [], [], 1)
            if not ready:
                continue
            line = self.proc.stderr.readline().decode(errors="replace")
            if not line:
                break
            seen.append(line)
            match = re.search(r"listening on http://(\S+)", line)
            if match:
                self.address = match.group(1)
        if self.address is None:
            self.stop()
            raise RuntimeError("sqslite did not start:\n" + "".join(seen))
        # Keep reading its log so a chatty server never blocks on a full pipe.
        self.log = open(os.devnull, "wb")
        subprocess.Popen(["cat"], stdin=self.proc.stderr, stdout=self.log)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


def run(args, cwd, env=None, stdin=None):
    try:
        done = subprocess.run(args, cwd=cwd, env=env, input=stdin, capture_output=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return False, f"timed out after {TIMEOUT} s"
    out = (done.stdout + done.stderr).decode(errors="replace")
    return done.returncode == 0, out


def environment():
    env = dict(os.environ)
    env.update(
        AWS_ACCESS_KEY_ID="test",
        AWS_SECRET_ACCESS_KEY="test",
        AWS_DEFAULT_REGION="us-east-1",
        AWS_REGION="us-east-1",
        PYTHONDONTWRITEBYTECODE="1",
        NO_COLOR="1",
    )
    env.pop("AWS_PROFILE", None)
    env["PATH"] = os.pathsep.join([str(COMPAT / ".venv-json" / "bin"), str(pathlib.Path(SQSLITE).parent), env["PATH"]])
    return env


class PageRun:
    """The blocks of one page, in order, in one directory against one server."""

    def __init__(self, name):
        self.dir = WORK / re.sub(r"[^\w.-]", "_", name)
        shutil.rmtree(self.dir, ignore_errors=True)
        self.dir.mkdir(parents=True)
        self.server, self.config, self.count = None, None, 0

    def endpoint(self, code):
        if self.server is None:
            self.server = Server(self.config)
        return ENDPOINT.sub(self.server.address, code)

    def close(self):
        if self.server:
            self.server.stop()

    def check(self, block):
        self.count += 1
        if block.excerpt:
            return excerpt(block)
        if block.file:
            (self.dir / block.file).write_text(block.code)
            if not block.kind:
                return True, ""
        kind = block.kind
        if kind == "config":
            self.config = self.dir / "sqslite.toml"
            self.config.write_text(block.code)
            if self.server:
                self.server.stop()
                self.server = None
            try:
                self.endpoint("")
            except RuntimeError as refused:
                return False, str(refused)
            return True, ""
        if kind == "args":
            return self.args(block)
        if kind == "compile":
            return self.compile(block)
        return self.execute(block)

    def execute(self, block):
        lang = block.lang
        try:
            code = self.endpoint(block.code)
        except RuntimeError as refused:
            return False, str(refused)
        env = environment()
        if lang in ("sh", "bash", "console", "shell"):
            return run(["bash", "-euo", "pipefail", "-c", code], self.dir, env)
        if lang in ("python", "py"):
            return run([str(COMPAT / ".venv-kombu" / "bin" / "python"), "-"], self.dir, env, code.encode())
        if lang in ("js", "javascript", "mjs"):
            # Inside compat/js, so that node resolves its node_modules.
            script = COMPAT / "js" / f".doc-example-{os.getpid()}-{self.count}.mjs"
            script.write_text(code)
            try:
                return run(["node", str(script)], self.dir, env)
            finally:
                script.unlink()
        return False, f"no runner for `{lang} run`"

    def args(self, block):
        text = re.sub(r"\\\n", " ", block.code)
        checked = []
        for line in text.split("\n"):
            line = line.split(" #")[0].strip()
            if not line or line.startswith("#"):
                continue
            words = shlex.split(line)
            env = environment()
            while words and re.match(r"^[A-Z_][A-Z0-9_]*=", words[0]):
                key, _, value = words.pop(0).partition("=")
                env[key] = value
            if not words or words[0] != "sqslite":
                continue
            printing = [] if "--print-config" in words else ["--print-config"]
            ok, out = run([SQSLITE] + words[1:] + printing, self.dir, env)
            if not ok:
                return False, f"`{line}` was refused:\n{out}"
            checked.append(line)
        if not checked:
            return False, "`sh args` block without a `sqslite` line"
        return True, ""

    def compile(self, block):
        if block.lang == "java":
            return compile_java(block, self.dir / f"java-{self.count}")
        if block.lang == "go":
            return compile_go(block, self.dir / f"go-{self.count}")
        return False, f"no compiler for `{block.lang} compile`"


# A Java snippet without its class (the README's five lines) is compiled as a method's body,
# with the imports the SDK for Java 2.x's examples use.
JAVA_WRAP = """import java.net.URI;
import java.time.Duration;
import java.util.*;
import software.amazon.awssdk.auth.credentials.*;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.*;
class Example {
    static void example() throws Exception {
%s
    }
}
"""

# A Go snippet without its package line is compiled as main's body, given `ctx` and the
# packages the Go page's examples use (each referred to once, so none is "imported and not used").
GO_WRAP = """package main

import (
\t"context"
\t"fmt"

\t"github.com/aws/aws-sdk-go-v2/aws"
\t"github.com/aws/aws-sdk-go-v2/config"
\t"github.com/aws/aws-sdk-go-v2/credentials"
\t"github.com/aws/aws-sdk-go-v2/service/sqs"
)

var _, _, _, _ = aws.String, config.LoadDefaultConfig, credentials.NewStaticCredentialsProvider, sqs.NewFromConfig
var _ = fmt.Println

func main() {
\tctx := context.Background()
%s
}
"""


def compile_java(block, out):
    out.mkdir(parents=True)
    code = block.code
    if not re.search(r"\b(class|interface|record|enum)\s+\w+", code):
        code = JAVA_WRAP % code
    match = re.search(r"public\s+(?:final\s+)?(?:class|interface|record|enum)\s+(\w+)", code)
    source = out / f"{match.group(1) if match else 'Example'}.java"
    source.write_text(code)
    classpath = (COMPAT / "java" / "current" / "target" / "classpath.txt").read_text().strip()
    return run(["javac", "-proc:none", "-nowarn", "-d", str(out / "classes"), "-cp", classpath, str(source)], out)


def compile_go(block, out):
    out.mkdir(parents=True)
    for name in ("go.mod", "go.sum"):
        shutil.copy(COMPAT / "go" / name, out / name)
    code = block.code if re.search(r"^package \w+", block.code, re.M) else GO_WRAP % block.code
    (out / "main.go").write_text(code)
    env = dict(os.environ, GOFLAGS="-mod=readonly")
    return run(["go", "build", "-o", os.devnull, "."], out, env)


# What an excerpt may leave out or add: the lines between shown ones, comment lines, `...`, and
# a comment after two spaces at the end of a line.
ELISION = re.compile(r"^(\.\.\.|(//|#|;).*)$")
TRAILING = re.compile(r"\s{2,}(//|#|;).*$")


def code_lines(text):
    lines = (TRAILING.sub("", line).strip() for line in text.split("\n"))
    return [line for line in lines if line and not ELISION.match(line)]


def excerpt(block):
    """The block's code lines must appear, in order, in the file it names (one a suite runs)."""
    path = ROOT / block.excerpt
    if not path.is_file():
        return False, f"excerpt of {block.excerpt}: no such file"
    source = iter(code_lines(path.read_text(encoding="utf-8")))
    for line in code_lines(block.code):
        if not any(line == other for other in source):
            return False, f"not in {block.excerpt} (or not in this order): {line}"
    return True, ""


def main(argv):
    only = set()
    while argv and argv[0] == "--only":
        only.add(argv[1])
        argv = argv[2:]
    failed = passed = 0
    for name in argv:
        path = pathlib.Path(name)
        if only and path.name not in only and name not in only:
            continue
        found = blocks(path)
        if not found:
            continue
        page = PageRun(name)
        try:
            for block in found:
                try:
                    ok, out = page.check(block)
                except (OSError, RuntimeError) as error:
                    ok, out = False, f"could not run: {error}"
                mark = " ".join([block.lang] + block.words)
                if ok:
                    passed += 1
                    print(f"ok   {block.where()} ({mark})")
                else:
                    failed += 1
                    print(f"FAIL {block.where()} ({mark})\n" + "\n".join("     " + l for l in out.strip().split("\n")[-40:]))
        finally:
            page.close()
    print(f"examples: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
