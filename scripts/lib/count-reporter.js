"use strict"
/** A jest reporter that writes the run's pass/fail counts to CRYPTO_TEST_COUNTS (read by scripts/test.js). */
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
      })
    )
  }
}

module.exports = CountReporter
