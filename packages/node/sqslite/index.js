//! sqslite for Node tests: finds the binary of this platform's package and runs one server.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { resolve } from "node:path";

const require = createRequire(import.meta.url);
const LISTENING = /listening on (http:\/\/\S+)/;

/** The sqslite binary: $SQSLITE_BIN, else the one of `@sqslite/<platform>-<arch>`. */
export function binaryPath() {
  if (process.env.SQSLITE_BIN) return process.env.SQSLITE_BIN;
  // One optional dependency per platform (npm installs only the one whose os/cpu match);
  // a platform joins by publishing its package and listing it in optionalDependencies.
  const name = `@sqslite/${process.platform}-${process.arch}`;
  let dir;
  try {
    dir = resolve(require.resolve(`${name}/package.json`), "..");
  } catch {
    throw new Error(`sqslite: no binary for ${process.platform}-${process.arch} (${name} is not installed); set SQSLITE_BIN`);
  }
  const binary = resolve(dir, "bin", "sqslite");
  if (!existsSync(binary)) throw new Error(`sqslite: ${name} has no bin/sqslite`);
  return binary;
}

/** The admin handle of a running server: reset, clock. */
export function connect(endpoint = process.env.SQSLITE_ENDPOINT) {
  if (!endpoint) throw new Error("sqslite: no endpoint (SQSLITE_ENDPOINT is set by the global setup)");
  async function admin(method, path, body) {
    const response = await fetch(endpoint + path, {
      method,
      headers: { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`sqslite: ${method} ${path}: ${response.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  }
  return {
    endpoint,
    /** Back to the started state: declared queues empty, every other queue gone. */
    reset: async () => { await admin("POST", "/_sqslite/reset"); },
    /** Moves a manual clock on by seconds (or { seconds } / { milliseconds }); answers epoch ms. */
    advanceClock: async (step) => {
      const body = typeof step === "number" ? { milliseconds: Math.round(step * 1000) } : step;
      return (await admin("POST", "/_sqslite/clock/advance", body)).now;
    },
    /** The server's clock in epoch milliseconds. */
    now: async () => (await admin("GET", "/_sqslite/clock")).now,
  };
}

function commandLine({ config, clock, strict, delivery, deliverySeed, args = [] }) {
  const argv = ["--port", "0"];
  if (clock) argv.push("--clock", clock);
  if (config) argv.push("--config", resolve(config));
  if (strict) argv.push("--strict");
  if (delivery) argv.push("--delivery", delivery);
  if (deliverySeed !== undefined) argv.push("--delivery-seed", String(deliverySeed));
  return argv.concat(args);
}

/**
 * Starts sqslite on 127.0.0.1 and a free port; resolves once it listens.
 * options: config (sqslite.toml or elasticmq.conf), clock ("system" | "manual"), strict,
 * delivery ("exact" | "at-least-once") and deliverySeed, args (more flags), binary, timeoutMs.
 */
export function start(options = {}) {
  const binary = options.binary ?? binaryPath();
  const child = spawn(binary, commandLine(options), {
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, NO_COLOR: "1", SQSLITE_LOG: "info" },
  });
  let log = "";
  let started = false;
  const exited = new Promise((done) => child.once("exit", done));
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  const stop = async () => {
    process.removeListener("exit", killOnExit);
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 15000);
      await exited;
      clearTimeout(timer);
    }
  };
  return new Promise((ready, fail) => {
    const timer = setTimeout(() => stop().then(() => fail(new Error(`sqslite did not report its address; log:\n${log}`))),
      options.timeoutMs ?? 30000);
    child.once("error", (error) => { clearTimeout(timer); fail(error); });
    exited.then((code) => { clearTimeout(timer); fail(new Error(`sqslite exited (${code}); log:\n${log}`)); });
    // The log stays drained after startup so the server never blocks on a full pipe.
    child.stderr.setEncoding("utf8").on("data", (chunk) => {
      log = (log + chunk).slice(-65536);
      const match = LISTENING.exec(log);
      if (match && !started) {
        started = true;
        clearTimeout(timer);
        child.unref();
        child.stderr.unref?.();
        ready({ ...connect(match[1]), stop, log: () => log, pid: child.pid });
      }
    });
  });
}
