//! Jest's globalTeardown for sqslite/global-setup (Vitest needs none: it runs the returned stop).
export default async function teardown() {
  await globalThis.__SQSLITE_SERVER__?.stop();
}
