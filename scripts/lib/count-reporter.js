"use strict"
/**
 * A jest reporter that writes the run's pass/fail counts and its failing tests (name and the start of
 * the message) to CRYPTO_TEST_COUNTS, read by scripts/test.js for its summary.
 */
const fs = require("node:fs")

class CountReporter {
  onRunComplete(_contexts, results) {
    const file = process.env.CRYPTO_TEST_COUNTS
    if (!file) return
    fs.writeFileSync(
      file,
      JSON.stringify({
        passed: results.numPassedTests,
        failed: results.numFailedTests + results.numRuntimeErrorTestSuites,
        failures: results.testResults.flatMap((file) => [
          ...(file.testExecError ? [{ name: file.testFilePath, message: String(file.testExecError.message) }] : []),
          ...file.testResults
            .filter((test) => test.status === "failed")
            .map((test) => ({
              name: `${file.testFilePath}: ${test.fullName}`,
              message: test.failureMessages.join("\n"),
            })),
        ]),
      })
    )
  }
}

module.exports = CountReporter
