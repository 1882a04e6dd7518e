// The sample suite under Vitest (vitest.config.mjs: the sqslite global setup).
import { beforeEach, expect, test } from "vitest";
import { register } from "./scenarios.mjs";

register({ test, beforeEach, expect });
