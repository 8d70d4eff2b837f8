import type { Logger } from "@medusajs/framework/types"
import { LOG_PREFIX, logs, pluginLog } from "../log"

/** A logger that shows lines up to `level` and records what it was given. */
function loggerAt(level: "info" | "debug") {
  const order = ["error", "warn", "info", "http", "verbose", "debug"]
  const lines: string[] = []
  const logger = {
    shouldLog: (wanted: string) => order.indexOf(wanted) <= order.indexOf(level),
    debug: (message: string) => lines.push(`debug ${message}`),
    info: (message: string) => lines.push(`info ${message}`),
    warn: (message: string) => lines.push(`warn ${message}`),
    error: (message: string) => lines.push(`error ${message}`),
  }
  return { logger: logger as unknown as Logger, lines }
}

describe("logs", () => {
  it("says whether the shop's logger writes a level", () => {
    expect(logs(loggerAt("info").logger, "debug")).toBe(false)
    expect(logs(loggerAt("info").logger, "info")).toBe(true)
    expect(logs(loggerAt("debug").logger, "debug")).toBe(true)
  })

  it("takes a logger that cannot tell as one that writes everything", () => {
    expect(logs({} as Logger, "debug")).toBe(true)
  })
})

describe("pluginLog", () => {
  it("prefixes every line, and passes debug lines on whatever the level (tests and hints observe them)", () => {
    const { logger, lines } = loggerAt("info")
    const log = pluginLog(logger)
    log.debug("a")
    log.info("b")
    expect(lines).toEqual([`debug ${LOG_PREFIX} a`, `info ${LOG_PREFIX} b`])
  })
})
