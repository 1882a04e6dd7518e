// The sample suite under Jest (jest.config.mjs: the same global setup, sqslite's teardown).
import { beforeEach, expect, test } from "@jest/globals";
import { register } from "./scenarios.mjs";

register({ test, beforeEach, expect });
