import fs from "node:fs"
import { SANDBOX_API_KEY } from "../helpers/sandbox"
import { webhookSigningKey } from "../../src/lib/domain/webhook-token"
import { recordFigure } from "./figures"
import { readSeen, SEEN_FILE } from "./seen"

/**
 * R7 secrets, over the whole run (this spec runs last, integration-tests/reliability/sequencer.js):
 * every log line of every Medusa the suite ran, in the test process and as processes of their own,
 * and every HTTP answer the specs received, scanned for the API key and the webhook signing secret.
 */
const SECRETS = [
  SANDBOX_API_KEY,
  webhookSigningKey({ apiKey: SANDBOX_API_KEY }).toString("hex"),
  webhookSigningKey({ apiKey: SANDBOX_API_KEY }).toString("base64url"),
]
const found = (texts: string[]) => texts.filter((text) => SECRETS.some((secret) => text.includes(secret))).length

/** The specs that feed the scan: R7 means nothing unless all of them ran before it. */
const SOURCES = ["hostile", "faults-under-load", "crash-recovery", "two-processes", "logs"]

describe("R7 secrets", () => {
  afterAll(() => fs.rmSync(SEEN_FILE, { force: true }))

  it("the scan catches a planted key", () => {
    expect(found(["a line", `planted ${SANDBOX_API_KEY}`, "another"])).toBe(1)
    expect(found([`token=${SECRETS[2]}`])).toBe(1)
  })

  it("the API key and the webhook secret appear in no log line and no HTTP answer of the run", () => {
    const started = Date.now()
    const seen = readSeen()
    const bySource = SOURCES.map((from) => [from, seen.filter((s) => s.from === from).length] as const)
    const missing = bySource.filter(([, n]) => n === 0).map(([from]) => from)
    if (missing.length)
      throw new Error(
        `R7 scans the whole run: run the whole reliability step (nothing seen from ${missing.join(", ")})`
      )
    const leaks = seen.filter((s) => found([s.text]))
    const redacted = (text: string) => SECRETS.reduce((t, secret) => t.split(secret).join("«secret»"), text)
    expect(leaks.map((s) => `${s.from}: ${redacted(s.text).slice(0, 300)}`)).toEqual([])
    recordFigure({
      id: "R7",
      title: "secrets",
      count: seen.length,
      result: `${seen.length} log lines and HTTP answers of the whole run (${bySource.map(([from, n]) => `${from} ${n}`).join(", ")}) scanned for the API key and the webhook signing secret: found ${leaks.length} times (a planted key is caught)`,
      ms: Date.now() - started,
    })
  })
})
