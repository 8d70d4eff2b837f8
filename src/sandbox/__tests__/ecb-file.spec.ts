/**
 * GET /ecb/eurofxref-daily.xml: the ECB's daily file of euro reference rates, in the ECB's layout, for a
 * shop's currency conversion; set over PUT /__sandbox/ecb (date, rates, up/down/malformed/slow) and counted
 * in GET /__sandbox/ecb and the request log. Driven over real HTTP on loopback, as the contract tests are.
 */
import { EventEmitter } from "node:events"
import type { ServerResponse } from "node:http"
import { sandboxOverHttp } from "./over-http"
import { SandboxControl, startSandbox } from ".."
import { ecbReferenceDate, easterSunday, isTargetWorkingDay } from "../ecb-calendar"
import { ECB_FILE_PATH, ECB_SLOW_MS, EcbFeed } from "../ecb-feed"
// the plugin's reader of the file: what the sandbox serves must read as the ECB's file does
import { parseEcbFile, RateFileError } from "../../lib/domain/exchange-rates/ecb-file"

const KEY = "ecb_file_test_key"

const suite = sandboxOverHttp(KEY)

const HEAD = [
  '<?xml version="1.0" encoding="UTF-8"?>',
  '<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">',
  "\t<gesmes:subject>Reference rates</gesmes:subject>",
  "\t<gesmes:Sender>",
  "\t\t<gesmes:name>European Central Bank</gesmes:name>",
  "\t</gesmes:Sender>",
  "\t<Cube>",
].join("\n")
const TAIL = ["\t\t</Cube>", "\t</Cube>", "</gesmes:Envelope>", ""].join("\n")

const DEFAULT_CURRENCIES =
  "USD JPY BGN CZK DKK GBP HUF PLN RON SEK CHF ISK NOK TRY AUD BRL CAD CNY HKD IDR ILS INR KRW MXN MYR NZD PHP SGD THB ZAR".split(
    " "
  )

/**
 * A strict reading of the daily file (a stand-in for the plugin's parser): the whole text must be the ECB's
 * envelope around one dated cube of currency cubes with decimal rates; null for anything else.
 */
function readEcbFile(text: string): { date: string; rates: Array<[string, string]> } | null {
  const match =
    /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<gesmes:Envelope [^>]+>\n\t<gesmes:subject>Reference rates<\/gesmes:subject>\n\t<gesmes:Sender>\n\t\t<gesmes:name>European Central Bank<\/gesmes:name>\n\t<\/gesmes:Sender>\n\t<Cube>\n\t\t<Cube time='(\d{4}-\d{2}-\d{2})'>\n((?:\t\t\t<Cube currency='[A-Z]{3}' rate='\d+(?:\.\d+)?'\/>\n)*)\t\t<\/Cube>\n\t<\/Cube>\n<\/gesmes:Envelope>\n?$/.exec(
      text
    )
  if (!match) return null
  const rates = [...match[2].matchAll(/<Cube currency='([A-Z]{3})' rate='([\d.]+)'\/>/g)].map(
    (m) => [m[1], m[2]] as [string, string]
  )
  return { date: match[1], rates }
}

async function fetchFile(method = "GET") {
  const res = await fetch(`${suite.sandbox.url}${ECB_FILE_PATH}`, { method })
  return { status: res.status, contentType: res.headers.get("content-type"), text: await res.text() }
}

async function fileRates(): Promise<{ date: string; rates: Record<string, string>; order: string[] }> {
  const res = await fetchFile()
  expect(res.status).toBe(200)
  const file = readEcbFile(res.text)
  expect(file).not.toBeNull()
  return { date: file!.date, rates: Object.fromEntries(file!.rates), order: file!.rates.map(([c]) => c) }
}

async function putEcb(body: unknown) {
  const res = await suite.http.put("/__sandbox/ecb", body)
  return { status: res.status, data: res.data }
}

/** Moves the sandbox's clock (reset to real time before each test) forward to `iso`. */
async function setClock(iso: string) {
  const { now } = await suite.control.advanceClock(0)
  const ms = Date.parse(iso) - Date.parse(now)
  expect(ms).toBeGreaterThan(0)
  await suite.control.advanceClock(ms)
}

describe("GET /ecb/eurofxref-daily.xml by default", () => {
  it("serves the ECB's layout as text/xml: the default rates, dated by the sandbox's clock", async () => {
    const res = await fetchFile()
    expect(res.status).toBe(200)
    expect(res.contentType).toBe("text/xml")
    expect(res.text.startsWith(`${HEAD}\n\t\t<Cube time='`)).toBe(true)
    expect(res.text.endsWith(`'/>\n${TAIL}`)).toBe(true)
    expect(res.text).toContain(
      "\n\t\t\t<Cube currency='USD' rate='1.0842'/>\n\t\t\t<Cube currency='JPY' rate='162.53'/>\n"
    )

    const file = readEcbFile(res.text)!
    expect(file.rates.map(([currency]) => currency)).toEqual(DEFAULT_CURRENCIES)
    expect(Object.fromEntries(file.rates)).toMatchObject({
      USD: "1.0842",
      GBP: "0.86100",
      HUF: "404.50",
      IDR: "17225.64",
      ZAR: "19.3870",
    })
    const { now } = await suite.control.advanceClock(0)
    expect(file.date).toBe(ecbReferenceDate(new Date(now)))
    expect(isTargetWorkingDay(new Date(`${file.date}T00:00:00Z`))).toBe(true)
    expect(file.date <= now.slice(0, 10)).toBe(true)

    expect(parseEcbFile(res.text)).toEqual({ publishedOn: file.date, rates: Object.fromEntries(file.rates) })
  })

  it("answers HEAD with the headers only, and another method with 405", async () => {
    const head = await fetchFile("HEAD")
    expect(head).toMatchObject({ status: 200, contentType: "text/xml", text: "" })
    const post = await fetch(`${suite.sandbox.url}${ECB_FILE_PATH}`, { method: "POST" })
    expect(post.status).toBe(405)
    expect(post.headers.get("allow")).toBe("GET, HEAD")
  })

  it("is listed in the control API's index", async () => {
    const endpoints: string[] = (await suite.http.get("/__sandbox/")).data.endpoints
    expect(endpoints.some((e) => e.startsWith("PUT  /__sandbox/ecb {date?") && e.includes(ECB_FILE_PATH))).toBe(true)
    expect(endpoints.some((e) => e.startsWith("GET  /__sandbox/ecb"))).toBe(true)
  })
})

describe("PUT /__sandbox/ecb", () => {
  it("sets the date and rates over the defaults: a new currency goes last, a changed one keeps its place", async () => {
    const state = await suite.control.ecb({ date: "2026-11-20", rates: { USD: "1.1000", XAU: "0.000412" } })
    expect(state).toMatchObject({
      date: "2026-11-20",
      rates: { USD: "1.1000", XAU: "0.000412" },
      status: "up",
      path: ECB_FILE_PATH,
      file: { date: "2026-11-20", rates: { USD: "1.1000", JPY: "162.53", XAU: "0.000412" } },
    })
    const file = await fileRates()
    expect(file.date).toBe("2026-11-20")
    expect(file.order).toEqual([...DEFAULT_CURRENCIES, "XAU"])
    expect(parseEcbFile((await fetchFile()).text)).toEqual({ publishedOn: "2026-11-20", rates: state.file.rates })
    expect(file.rates).toMatchObject({ USD: "1.1000", GBP: "0.86100", XAU: "0.000412" })
    expect(await suite.control.ecbState()).toEqual({ ...state, served: 2 })
  })

  it("keeps the fields not given; rates given replace the earlier ones; date null follows the clock again", async () => {
    await suite.control.ecb({ date: "2026-11-20", rates: { USD: "1.1000" } })
    await suite.control.ecb({ rates: { GBP: "0.9" } })
    let file = await fileRates()
    expect(file.date).toBe("2026-11-20")
    expect(file.rates).toMatchObject({ USD: "1.0842", GBP: "0.9" })

    expect(await suite.control.ecb({ date: null })).toMatchObject({ date: null, rates: { GBP: "0.9" } })
    file = await fileRates()
    const { now } = await suite.control.advanceClock(0)
    expect(file.date).toBe(ecbReferenceDate(new Date(now)))
    expect(file.rates.GBP).toBe("0.9")

    await suite.control.ecb({ rates: {} })
    expect((await fileRates()).rates.GBP).toBe("0.86100")
  })

  it("removes a currency given a null rate", async () => {
    const state = await suite.control.ecb({ rates: { BGN: null, CHF: "0.95" } })
    expect(state.rates).toEqual({ BGN: null, CHF: "0.95" })
    expect(state.file.rates).not.toHaveProperty("BGN")
    const file = await fileRates()
    expect(file.order).toEqual(DEFAULT_CURRENCIES.filter((c) => c !== "BGN"))
    expect(file.rates.CHF).toBe("0.95")
    const parsed = parseEcbFile((await fetchFile()).text)
    expect(parsed.rates).not.toHaveProperty("BGN")
    expect(parsed.rates.CHF).toBe("0.95")
  })

  it("refuses an invalid body with 400 naming the field, and changes nothing", async () => {
    const cases: Array<[unknown, Record<string, string>]> = [
      [{ date: "2026-02-30" }, { date: expect.stringContaining("YYYY-MM-DD") }],
      [{ date: "20.11.2026" }, { date: expect.any(String) }],
      [{ date: "2026-13-01" }, { date: expect.any(String) }],
      [{ date: "2026-02-32" }, { date: expect.any(String) }],
      [{ date: "2027-02-29" }, { date: expect.any(String) }],
      [{ status: "sleepy" }, { status: "status must be one of: up, down, malformed, slow" }],
      [{ rates: { USD: 1.1 } }, { "rates.USD": expect.stringContaining("decimal string") }],
      [{ rates: { USD: "0" } }, { "rates.USD": expect.any(String) }],
      [{ rates: { usd: "1.1" } }, { "rates.usd": expect.stringContaining("3-letter") }],
      [{ rates: { EUR: "1" } }, { "rates.EUR": expect.stringContaining("other than EUR") }],
      [{ rates: ["1.1"] }, { rates: expect.any(String) }],
      [{ rate: { USD: "1.1" } }, { rate: expect.stringContaining("unknown field rate") }],
    ]
    for (const [body, details] of cases) {
      const res = await putEcb({ status: "down", ...(body as object) })
      expect(res.status).toBe(400)
      expect(res.data).toMatchObject({ success: false, error: "Validation failure", details })
    }
    expect(await suite.control.ecbState()).toMatchObject({ date: null, rates: {}, status: "up" })
    expect((await fetchFile()).status).toBe(200)
  })
})

describe("status", () => {
  it("down answers 503", async () => {
    await suite.control.ecb({ status: "down" })
    expect(await fetchFile()).toMatchObject({ status: 503 })
  })

  it("malformed answers 200 with a cut-off file whose first rate is 'abc'", async () => {
    await suite.control.ecb({ status: "malformed" })
    const res = await fetchFile()
    expect(res).toMatchObject({ status: 200, contentType: "text/xml" })
    expect(res.text.startsWith(HEAD)).toBe(true)
    expect(res.text).toContain("<Cube currency='USD' rate='abc'/>")
    expect(res.text).not.toContain("</gesmes:Envelope>")
    expect(readEcbFile(res.text)).toBeNull()
    expect(() => parseEcbFile(res.text)).toThrow(RateFileError)

    await suite.control.ecb({ status: "up" })
    expect(readEcbFile((await fetchFile()).text)).not.toBeNull()
  })

  it("slow answers with the file after 20 s", () => {
    jest.useFakeTimers()
    try {
      const feed = new EcbFeed(() => new Date("2030-06-17T15:00:00Z"))
      feed.update({ status: "slow" })
      const res = Object.assign(new EventEmitter(), { writeHead: jest.fn(), end: jest.fn(), destroy: jest.fn() })
      feed.answer("GET", res as unknown as ServerResponse)
      expect(feed.state().served).toBe(1)
      jest.advanceTimersByTime(ECB_SLOW_MS - 1)
      expect(res.end).not.toHaveBeenCalled()
      jest.advanceTimersByTime(1)
      expect(res.writeHead).toHaveBeenCalledWith(200, expect.objectContaining({ "content-type": "text/xml" }))
      expect(readEcbFile(res.end.mock.calls[0][0])?.date).toBe("2030-06-17")
    } finally {
      jest.useRealTimers()
    }
  })

  it("slow's held answer is ended by close(), and never sent", () => {
    jest.useFakeTimers()
    try {
      const feed = new EcbFeed(() => new Date("2030-06-17T15:00:00Z"))
      feed.update({ status: "slow" })
      const res = Object.assign(new EventEmitter(), { writeHead: jest.fn(), end: jest.fn(), destroy: jest.fn() })
      feed.answer("GET", res as unknown as ServerResponse)
      feed.close()
      expect(res.destroy).toHaveBeenCalled()
      expect(jest.getTimerCount()).toBe(0)
      jest.advanceTimersByTime(ECB_SLOW_MS)
      expect(res.end).not.toHaveBeenCalled()
    } finally {
      jest.useRealTimers()
    }
  })
})

describe("counting fetches", () => {
  it("counts every fetch answered in GET /__sandbox/ecb, and logs each in the request log", async () => {
    expect((await suite.control.ecbState()).served).toBe(0)
    await fetchFile()
    await suite.control.ecb({ status: "down" })
    await fetchFile()
    await suite.control.ecb({ status: "malformed" })
    await fetchFile()
    expect((await suite.control.ecbState()).served).toBe(3)

    const logged = await suite.control.requests("/ecb/")
    expect(logged.map((r) => [r.method, r.path, r.status])).toEqual([
      ["GET", ECB_FILE_PATH, 200],
      ["GET", ECB_FILE_PATH, 503],
      ["GET", ECB_FILE_PATH, 200],
    ])
  })

  it("applies the path faults of /__sandbox/faults, but no rate limit of the payment service", async () => {
    await suite.control.addFault({ kind: "error", path: "/ecb/", status: 502 })
    expect((await fetchFile()).status).toBe(502)
    expect((await fetchFile()).status).toBe(200)
    // a fault answers before the file: logged, not served
    expect((await suite.control.ecbState()).served).toBe(1)
    expect((await suite.control.requests("/ecb/")).map((r) => r.status)).toEqual([502, 200])

    await suite.control.setRateLimit(0)
    expect((await fetchFile()).status).toBe(200)
  })

  it("POST /__sandbox/reset restores the defaults and the count", async () => {
    await suite.control.ecb({ date: "2026-11-20", rates: { USD: "1.2", BGN: null }, status: "malformed" })
    await fetchFile()
    await suite.control.reset()
    expect(await suite.control.ecbState()).toMatchObject({ date: null, rates: {}, status: "up", served: 0 })
    const file = await fileRates()
    expect(file.order).toEqual(DEFAULT_CURRENCIES)
    expect(file.rates.USD).toBe("1.0842")
    expect(await suite.control.requests("/ecb/")).toHaveLength(1)
  })
})

describe("the default date on the sandbox's clock", () => {
  it("is the Friday over a weekend and until Monday's 16:00 Berlin, then Monday", async () => {
    await setClock("2030-06-15T10:00:00Z") // Saturday
    expect((await fileRates()).date).toBe("2030-06-14")
    await setClock("2030-06-16T21:00:00Z") // Sunday
    expect((await fileRates()).date).toBe("2030-06-14")
    await setClock("2030-06-17T13:30:00Z") // Monday 15:30 CEST
    expect((await fileRates()).date).toBe("2030-06-14")
    await setClock("2030-06-17T14:30:00Z") // Monday 16:30 CEST
    expect((await fileRates()).date).toBe("2030-06-17")
    expect((await suite.control.ecbState()).file.date).toBe("2030-06-17")
  })

  it("skips Good Friday and Easter Monday", async () => {
    await setClock("2031-04-15T08:00:00Z") // Tuesday after Easter, 10:00 CEST
    expect((await fileRates()).date).toBe("2031-04-10")
  })
})

describe("ecbReferenceDate", () => {
  it.each([
    ["2030-06-17T13:59:59Z", "2030-06-14"], // Monday 15:59:59 CEST
    ["2030-06-17T14:00:00Z", "2030-06-17"], // Monday 16:00 CEST
    ["2030-01-07T14:59:59Z", "2030-01-04"], // Monday 15:59:59 CET
    ["2030-01-07T15:00:00Z", "2030-01-07"], // Monday 16:00 CET
    ["2030-06-17T23:30:00Z", "2030-06-17"], // Tuesday 01:30 in Berlin, Monday in UTC
    ["2030-01-02T09:00:00Z", "2029-12-31"], // 1 January
    ["2030-05-02T08:00:00Z", "2030-04-30"], // 1 May
    ["2030-12-27T09:00:00Z", "2030-12-24"], // 25 and 26 December
    ["2027-03-30T08:00:00Z", "2027-03-25"], // Good Friday 26 March, Easter Monday 29 March
  ])("at %s is %s", (now, date) => {
    expect(ecbReferenceDate(new Date(now))).toBe(date)
  })

  it("finds Easter Sunday", () => {
    const easters = [2024, 2025, 2026, 2027, 2031, 2038].map((y) => easterSunday(y).toISOString().slice(0, 10))
    expect(easters).toEqual(["2024-03-31", "2025-04-20", "2026-04-05", "2027-03-28", "2031-04-13", "2038-04-25"])
  })
})

describe("closing the sandbox", () => {
  it("ends a slow answer at once, leaving no timer behind", async () => {
    const sandbox = await startSandbox({ apiKey: KEY })
    const control = new SandboxControl(sandbox.url)
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === "Timeout").length
    let closed = false
    try {
      await control.ecb({ status: "slow" })
      const before = timers()
      const fetching = fetch(`${sandbox.url}${ECB_FILE_PATH}`).then(
        (res) => res.status,
        (error: Error) => error
      )
      while ((await control.ecbState()).served === 0) await new Promise((r) => setTimeout(r, 10))
      // the 20 s hold is a timer of its own (other timers of the process may come and go)
      expect(timers()).toBeGreaterThan(before)

      await sandbox.close()
      closed = true
      // the connection is cut at once: the fetch fails long before the 20 s hold (and the test's 5 s
      // timeout) would end it (its TypeError is of another realm than jest's Error)
      expect(String(await fetching)).toMatch(/fetch failed/)
      expect(timers()).toBeLessThanOrEqual(before)
    } finally {
      if (!closed) await sandbox.close()
    }
  })
})
