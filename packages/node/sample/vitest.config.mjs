export default {
  test: {
    globalSetup: ["./global-setup.mjs"],
  },
};
