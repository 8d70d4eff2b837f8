import type { Logger } from "@medusajs/framework/types"
import { pluginLog } from "../log"

function logger(level: "debug" | "info", withShouldLog = true) {
  const lines: string[] = []
  const order = ["error", "warn", "info", "http", "verbose", "debug"]
  const record = (name: string) => (message: string) => lines.push(`${name} ${message}`)
  const shop = {
    debug: record("debug"),
    info: record("info"),
    warn: record("warn"),
    error: record("error"),
    ...(withShouldLog ? { shouldLog: (asked: string) => order.indexOf(asked) <= order.indexOf(level) } : {}),
  } as unknown as Logger
  return { shop, lines }
}

describe("pluginLog", () => {
  it("prefixes every line and passes each level on", () => {
    const { shop, lines } = logger("debug")
    const log = pluginLog(shop)
    log.debug("d")
    log.info("i")
    log.warn("w")
    log.error("e")
    expect(lines).toEqual([
      "debug medusa-payment-crypto: d",
      "info medusa-payment-crypto: i",
      "warn medusa-payment-crypto: w",
      "error medusa-payment-crypto: e",
    ])
  })

  it("hands a debug line to the logger only when its level shows debug", () => {
    const { shop, lines } = logger("info")
    const log = pluginLog(shop)
    log.debug("not shown")
    log.info("shown")
    expect(lines).toEqual(["info medusa-payment-crypto: shown"])
  })

  it("hands every debug line to a logger that cannot say its level", () => {
    const { shop, lines } = logger("info", false)
    pluginLog(shop).debug("d")
    expect(lines).toEqual(["debug medusa-payment-crypto: d"])
  })
})
