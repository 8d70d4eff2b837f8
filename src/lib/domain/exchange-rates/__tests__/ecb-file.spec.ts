import { isCalendarDate, parseEcbFile, RateFileError } from "../ecb-file"

// The daily file as the ECB serves it (trimmed to a few currencies).
const DAILY = `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
	<gesmes:subject>Reference rates</gesmes:subject>
	<gesmes:Sender>
		<gesmes:name>European Central Bank</gesmes:name>
	</gesmes:Sender>
	<Cube>
		<Cube time='2026-11-24'>
			<Cube currency='USD' rate='1.0842'/>
			<Cube currency='JPY' rate='162.53'/>
			<Cube currency='GBP' rate='0.8610'/>
			<Cube currency='CHF' rate='0.9385'/>
		</Cube>
	</Cube>
</gesmes:Envelope>`

const envelope = (cubes: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
<gesmes:subject>Reference rates</gesmes:subject><Cube>${cubes}</Cube></gesmes:Envelope>`

const day = (time: string, rates: string) => `<Cube time='${time}'>${rates}</Cube>`
const rate = (currency: string, value: string) => `<Cube currency='${currency}' rate='${value}'/>`
const USD = rate("USD", "1.0842")

const refusal = (xml: string): RateFileError => {
  try {
    parseEcbFile(xml)
  } catch (error) {
    if (error instanceof RateFileError) return error
    throw error
  }
  throw new Error("the file was accepted")
}

describe("reading the ECB daily file", () => {
  it("takes the day and each rate's text exactly as published", () => {
    expect(parseEcbFile(DAILY)).toEqual({
      publishedOn: "2026-11-24",
      rates: { USD: "1.0842", JPY: "162.53", GBP: "0.8610", CHF: "0.9385" },
    })
  })

  it("reads double quotes, attributes in any order, odd whitespace and closed currency Cubes", () => {
    const xml = envelope(`
      <Cube   time = "2026-11-24"  >
        <Cube rate="1.0842" currency="USD"></Cube>
        <Cube
          currency = 'GBP'
          rate   =  "0.8610"
        />
        <Cube rate='162.53'
              currency="JPY" ></Cube >
      </Cube
      >`)
    expect(parseEcbFile(xml)).toEqual({
      publishedOn: "2026-11-24",
      rates: { USD: "1.0842", GBP: "0.8610", JPY: "162.53" },
    })
  })

  it("reads a file with a byte order mark and without an XML declaration", () => {
    const xml = "\uFEFF" + envelope(day("2026-11-24", USD)).replace(/^<\?xml[^>]*\?>\s*/, "")
    expect(parseEcbFile(xml)).toEqual({ publishedOn: "2026-11-24", rates: { USD: "1.0842" } })
  })

  it("is not fooled by Cubes inside comments, CDATA or a processing instruction", () => {
    const xml = envelope(
      `<!-- <Cube time='2099-01-01'><Cube currency='USD' rate='9.99'/></Cube> -->` +
        `<![CDATA[<Cube time='2098-01-01'><Cube currency='USD' rate='8.88'/></Cube>]]>` +
        `<?note <Cube time='2097-01-01'> ?>` +
        day("2026-11-24", `<!-- <Cube currency='GBP' rate='0.1'/> -->${USD}`)
    )
    expect(parseEcbFile(xml)).toEqual({ publishedOn: "2026-11-24", rates: { USD: "1.0842" } })
  })

  it("takes the newest day of the 90-day history file, whatever the order of its days", () => {
    const xml = envelope(
      day("2026-11-21", rate("USD", "1.0801") + rate("GBP", "0.8600")) +
        day("2026-11-24", rate("USD", "1.0842") + rate("GBP", "0.8610")) +
        day("2026-11-20", rate("USD", "1.0790") + rate("GBP", "0.8590") + rate("ISK", "150.10"))
    )
    expect(parseEcbFile(xml)).toEqual({ publishedOn: "2026-11-24", rates: { USD: "1.0842", GBP: "0.8610" } })
  })

  it("accepts a file of exactly 1 MB", () => {
    const xml = envelope(day("2026-11-24", USD))
    const padded = xml + " ".repeat(1024 * 1024 - xml.length)
    expect(parseEcbFile(padded).rates.USD).toBe("1.0842")
  })
})

describe("refusing a rates file", () => {
  const MB = 1024 * 1024
  const valid = envelope(day("2026-11-24", USD))

  it.each([
    ["no dated Cube", envelope(""), /no dated Cube/],
    ["only a commented-out dated Cube", envelope(`<!-- ${day("2026-11-24", USD)} -->`), /no dated Cube/],
    ["not XML at all", "Service Unavailable", /no dated Cube/],
    ["an empty file", "", /no dated Cube/],
    ["a day that is not a calendar date (30 February)", envelope(day("2026-02-30", USD)), /not a calendar date/],
    ["a day that is not a calendar date (month 13)", envelope(day("2026-13-01", USD)), /not a calendar date/],
    [
      "a day that is not a calendar date (29 February of a common year)",
      envelope(day("2025-02-29", USD)),
      /not a calendar date/,
    ],
    ["a day written another way", envelope(day("24.11.2026", USD)), /not a calendar date/],
    ["a day with a time of day", envelope(day("2026-11-24T16:00", USD)), /not a calendar date/],
    ["a day without rates", envelope(day("2026-11-24", "")), /no currency rates/],
    ["a self-closing day", envelope(`<Cube time='2026-11-24'/>`), /no currency rates/],
    [
      "a newest day without rates",
      envelope(day("2026-11-23", USD) + day("2026-11-24", "")),
      /no currency rates for 2026-11-24/,
    ],
    ["a zero rate", envelope(day("2026-11-24", USD + rate("GBP", "0"))), /not a positive decimal/],
    ["a zero rate with decimals", envelope(day("2026-11-24", USD + rate("GBP", "0.0000"))), /not a positive decimal/],
    ["a negative rate", envelope(day("2026-11-24", USD + rate("GBP", "-0.8610"))), /not a positive decimal/],
    ["a signed rate", envelope(day("2026-11-24", USD + rate("GBP", "+0.8610"))), /not a positive decimal/],
    ["a rate with an exponent", envelope(day("2026-11-24", USD + rate("GBP", "8.61e-1"))), /not a positive decimal/],
    ["a NaN rate", envelope(day("2026-11-24", USD + rate("GBP", "NaN"))), /not a positive decimal/],
    ["an Infinity rate", envelope(day("2026-11-24", USD + rate("GBP", "Infinity"))), /not a positive decimal/],
    ["an empty rate", envelope(day("2026-11-24", USD + rate("GBP", ""))), /not a positive decimal/],
    ["a blank rate", envelope(day("2026-11-24", USD + rate("GBP", "  "))), /not a positive decimal/],
    ["a rate ending in a point", envelope(day("2026-11-24", USD + rate("GBP", "1."))), /not a positive decimal/],
    ["a rate starting with a point", envelope(day("2026-11-24", USD + rate("GBP", ".8610"))), /not a positive decimal/],
    ["a rate with a decimal comma", envelope(day("2026-11-24", USD + rate("GBP", "0,8610"))), /not a positive decimal/],
    [
      "a currency without a rate",
      envelope(day("2026-11-24", USD + `<Cube currency='GBP'/>`)),
      /lacks its currency or its rate/,
    ],
    [
      "a rate without a currency",
      envelope(day("2026-11-24", USD + `<Cube rate='0.8610'/>`)),
      /lacks its currency or its rate/,
    ],
    [
      "a currency twice in one day",
      envelope(day("2026-11-24", USD + rate("GBP", "0.8610") + rate("GBP", "0.8610"))),
      /GBP appears twice/,
    ],
    ["a lowercase currency code", envelope(day("2026-11-24", USD + rate("gbp", "0.8610"))), /currency code/],
    ["a 2-letter currency code", envelope(day("2026-11-24", USD + rate("GB", "0.8610"))), /currency code/],
    ["a 4-letter currency code", envelope(day("2026-11-24", USD + rate("GBPX", "0.8610"))), /currency code/],
    ["a currency code with a symbol", envelope(day("2026-11-24", USD + rate("U$D", "1.0842"))), /currency code/],
    ["EUR quoted against itself", envelope(day("2026-11-24", USD + rate("EUR", "1"))), /EUR/],
    ["no USD rate", envelope(day("2026-11-24", rate("GBP", "0.8610"))), /no USD rate/],
    [
      "USD only on an older day",
      envelope(day("2026-11-23", USD) + day("2026-11-24", rate("GBP", "0.8610"))),
      /no USD rate for 2026-11-24/,
    ],
    ["the same day twice", envelope(day("2026-11-24", USD) + day("2026-11-24", USD)), /2026-11-24 twice/],
    ["a rate outside its day", envelope(USD + day("2026-11-24", USD)), /outside a dated Cube/],
    ["a day inside a day", envelope(`<Cube time='2026-11-24'>${day("2026-11-23", USD)}${USD}</Cube>`), /nested/],
    [
      "a Cube with both a time and a rate",
      envelope(`<Cube time='2026-11-24' currency='USD' rate='1.0842'/>`),
      /both a time and a rate/,
    ],
    ["a file cut short inside its Cubes", valid.slice(0, valid.indexOf("</Cube>")), /ends inside an open Cube/],
    ["a file cut short inside a tag", valid.slice(0, valid.indexOf("rate=") + 8), /unterminated attribute value/],
    ["an unterminated comment", envelope(`<!-- ${day("2026-11-24", USD)}`), /unterminated comment/],
    ["an unquoted attribute", envelope(`<Cube time=2026-11-24>${USD}</Cube>`), /unquoted attribute/],
    [
      "an attribute given twice",
      envelope(day("2026-11-24", `<Cube currency='USD' rate='1.0842' rate='2'/>`)),
      /given twice/,
    ],
    ["an extra Cube end tag", envelope(day("2026-11-24", USD) + "</Cube>"), /never opened/],
    ["a file larger than 1 MB", valid + " ".repeat(MB - valid.length + 1), /larger than 1048576 bytes/],
    [
      "a file larger than 1 MB in bytes but not in characters",
      envelope(`<!-- ${"é".repeat(MB / 2)} -->`) + valid,
      /larger than 1048576 bytes/,
    ],
  ] as Array<[string, string, RegExp]>)("refuses %s", (_case, xml, reason) => {
    expect(refusal(xml).message).toMatch(reason)
  })

  it("says what is wrong", () => {
    expect(refusal(envelope(day("2026-11-24", rate("GBP", "0.8610")))).message).toMatch(/USD/)
    expect(refusal(envelope(day("2026-11-24", USD + rate("GBP", "1e3")))).message).toMatch(/GBP rate is not a positive/)
    expect(refusal(envelope(day("2026-11-24", USD + rate("GBP", "0.8610") + rate("GBP", "0.8610")))).message).toMatch(
      /GBP appears twice/
    )
  })

  it("never quotes more than 40 characters of the file", () => {
    const long = "9".repeat(500) + "x"
    const messages = [
      refusal(envelope(day("2026-11-24", USD + rate("GBP", long)))).message,
      refusal(envelope(day(long, USD))).message,
      refusal(envelope(day("2026-11-24", USD + rate(long, "1")))).message,
      refusal(envelope(`<Cube time=${long}>`)).message,
    ]
    for (const message of messages) {
      expect(message).not.toContain("9".repeat(41))
    }
    // the refused value itself is quoted, cut at 40 characters
    for (const message of messages.slice(0, 3)) {
      expect(message).toContain("9".repeat(40))
    }
    const huge = refusal("<Cube>" + "A".repeat(2 * MB)).message
    expect(huge.length).toBeLessThan(100)
  })
})

describe("calendar dates", () => {
  it.each([
    ["2026-11-24", true],
    ["2024-02-29", true],
    ["2000-02-29", true],
    ["1900-02-29", false],
    ["2026-04-31", false],
    ["2026-00-10", false],
    ["2026-01-00", false],
    ["2026-1-5", false],
    [" 2026-11-24", false],
  ])("isCalendarDate(%p) = %p", (text, expected) => {
    expect(isCalendarDate(text)).toBe(expected)
  })
})
