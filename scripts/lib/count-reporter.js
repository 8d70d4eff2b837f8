"use strict"
/**
 * A jest reporter that writes the run's pass/fail counts, its failing tests (name and the start of the
 * message) and its slowest spec files to CRYPTO_TEST_COUNTS, read by scripts/test.js for its summary, and
 * every test's duration to CRYPTO_TEST_TIMES when set (tab-separated: milliseconds, file, test), slowest first.
 */
const fs = require("node:fs")
const path = require("node:path")

/** How many of a step's slowest spec files its summary names. */
const SLOWEST = 5

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
        slowest: results.testResults
          .map((file) => ({
            file: path.relative(process.cwd(), file.testFilePath),
            seconds: (file.perfStats.end - file.perfStats.start) / 1000,
          }))
          .sort((a, b) => b.seconds - a.seconds)
          .slice(0, SLOWEST),
      })
    )
    if (process.env.CRYPTO_TEST_TIMES) writeTimes(process.env.CRYPTO_TEST_TIMES, results)
  }
}

/** Every test's duration, slowest first: where a step's time goes inside its spec files. */
function writeTimes(file, results) {
  const rows = results.testResults.flatMap((spec) =>
    spec.testResults.map((test) => ({
      ms: test.duration ?? 0,
      file: path.relative(process.cwd(), spec.testFilePath),
      name: test.fullName,
    }))
  )
  rows.sort((a, b) => b.ms - a.ms)
  fs.writeFileSync(file, rows.map((row) => `${row.ms}\t${row.file}\t${row.name}`).join("\n") + "\n")
}

module.exports = CountReporter
