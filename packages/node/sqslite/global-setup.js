//! A Vitest or Jest globalSetup that starts one sqslite for the whole run.
//! Tests reach it through process.env.SQSLITE_ENDPOINT (AWS_ENDPOINT_URL_SQS is set too, which
//! the AWS SDK for JavaScript v3 reads) and `connect()` for reset and clock.
import { start } from "./index.js";

/** A global setup with options for start(); Vitest runs what it returns as the teardown. */
export function withOptions(options = {}) {
  return async function setup(project) {
    const server = await start(options);
    process.env.SQSLITE_ENDPOINT = server.endpoint;
    process.env.AWS_ENDPOINT_URL_SQS = server.endpoint;
    project?.provide?.("sqsliteEndpoint", server.endpoint);
    // Jest runs globalTeardown in the same process and reads this.
    globalThis.__SQSLITE_SERVER__ = server;
    return server.stop;
  };
}

/** Flags come from SQSLITE_CONFIG, SQSLITE_CLOCK, SQSLITE_STRICT, which the binary reads. */
export default withOptions();
