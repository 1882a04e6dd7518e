// Jest runs the ES modules natively (node --experimental-vm-modules), untransformed.
export default {
  globalSetup: "./global-setup.mjs",
  globalTeardown: "sqslite/global-teardown",
  testMatch: ["**/sample.jest.mjs"],
  transform: {},
};
