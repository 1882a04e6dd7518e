#!/usr/bin/env node
//! `npx sqslite ...`: runs this platform's binary with the same arguments and exit status.
import { spawnSync } from "node:child_process";
import { binaryPath } from "../index.js";

const run = spawnSync(binaryPath(), process.argv.slice(2), { stdio: "inherit" });
if (run.error) throw run.error;
process.exit(run.status ?? 1);
