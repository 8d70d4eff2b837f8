const { loadEnv } = require("@medusajs/framework/utils")
loadEnv("test", process.cwd())

const testMatch = {
  // the plugin's pure code, and the storefront helpers of docs/storefront (tested from scripts/demo/storefront)
  unit: ["<rootDir>/src/**/__tests__/**/*.spec.[jt]s", "<rootDir>/scripts/**/__tests__/**/*.spec.[jt]s"],
  "integration:http": [
    "<rootDir>/integration-tests/http/**/*.spec.[jt]s",
    // the plugin's module alone, on a copy of the run's migrated database (Medusa's module runner, no app)
    "<rootDir>/integration-tests/modules/**/*.spec.[jt]s",
  ],
  "integration:reliability": ["<rootDir>/integration-tests/reliability/**/*.spec.[jt]s"],
}

module.exports = {
  transform: {
    "^.+\\.[jt]sx?$": ["@swc/jest", { jsc: { parser: { syntax: "typescript", decorators: true, tsx: true } } }],
  },
  testEnvironment: "node",
  moduleFileExtensions: ["js", "ts", "tsx", "json"],
  modulePathIgnorePatterns: ["dist/", "<rootDir>/.medusa/"],
  setupFiles: ["<rootDir>/integration-tests/setup.js"],
  testMatch: testMatch[process.env.TEST_TYPE] ?? testMatch.unit,
  // R7's scan of everything the run logged and answered goes last
  ...(process.env.TEST_TYPE === "integration:reliability"
    ? { testSequencer: "<rootDir>/integration-tests/reliability/sequencer.js" }
    : {}),
  testTimeout: 120_000,
  reporters: ["default", "<rootDir>/scripts/lib/count-reporter.js"],
}
