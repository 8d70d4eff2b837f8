"use strict"
const Sequencer = require("@jest/test-sequencer").default

/** The reliability specs in a fixed order, the secrets scan of the whole run last. */
class ReliabilitySequencer extends Sequencer {
  sort(tests) {
    const last = (t) => (t.path.endsWith("secrets.spec.ts") ? 1 : 0)
    return [...tests].sort((a, b) => last(a) - last(b) || a.path.localeCompare(b.path))
  }
}

module.exports = ReliabilitySequencer
