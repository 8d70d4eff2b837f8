/**
 * The ECB's daily file of euro reference rates (eurofxref-daily.xml), written in the ECB's own layout:
 * tab-indented, single-quoted attributes, currencies in the ECB's order.
 */

/** Units of each currency worth one euro, as the ECB writes them (a realistic day), in the ECB's order. */
export const DEFAULT_ECB_RATES: Readonly<Record<string, string>> = Object.freeze({
  USD: "1.0842",
  JPY: "162.53",
  BGN: "1.9558",
  CZK: "25.117",
  DKK: "7.4603",
  GBP: "0.86100",
  HUF: "404.50",
  PLN: "4.2635",
  RON: "4.9767",
  SEK: "11.4355",
  CHF: "0.9383",
  ISK: "149.90",
  NOK: "11.7270",
  TRY: "37.3812",
  AUD: "1.6631",
  BRL: "6.3012",
  CAD: "1.5180",
  CNY: "7.8454",
  HKD: "8.4370",
  IDR: "17225.64",
  ILS: "3.9940",
  INR: "91.6215",
  KRW: "1512.36",
  MXN: "21.8320",
  MYR: "4.7325",
  NZD: "1.8458",
  PHP: "63.815",
  SGD: "1.4225",
  THB: "36.724",
  ZAR: "19.3870",
})

/** The daily file for `date` ("YYYY-MM-DD") with `rates` (currency → rate), in their order. */
export function ecbDailyXml(date: string, rates: Record<string, string>): string {
  const cubes = Object.entries(rates).map(([currency, rate]) => `\t\t\t<Cube currency='${currency}' rate='${rate}'/>`)
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">',
    "\t<gesmes:subject>Reference rates</gesmes:subject>",
    "\t<gesmes:Sender>",
    "\t\t<gesmes:name>European Central Bank</gesmes:name>",
    "\t</gesmes:Sender>",
    "\t<Cube>",
    `\t\t<Cube time='${date}'>`,
    ...cubes,
    "\t\t</Cube>",
    "\t</Cube>",
    "</gesmes:Envelope>",
    "",
  ].join("\n")
}

/**
 * A broken daily file: the first rate is not a number (`rate='abc'`) and the file is cut off in the
 * middle of the list, with its envelope and cubes left open.
 */
export function malformedEcbDailyXml(date: string, rates: Record<string, string>): string {
  const [first = "USD", ...rest] = Object.keys(rates)
  const broken = ecbDailyXml(date, {
    [first]: "abc",
    ...Object.fromEntries(rest.slice(0, 2).map((c) => [c, rates[c]])),
  })
  const cut = broken.lastIndexOf("\t\t</Cube>")
  return `${broken.slice(0, cut)}\t\t\t<Cube currency='${rest[2] ?? "JPY"}' ra`
}
