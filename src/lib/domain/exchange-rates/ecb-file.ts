/**
 * Reads the European Central Bank's daily reference rates file (eurofxref-daily.xml, or the
 * 90-day history eurofxref-hist-90d.xml). No XML library: the file is a fixed, tiny vocabulary,
 * so a scanner over tags that skips comments, CDATA and processing instructions is enough.
 */

/** One day's reference rates as published: foreign currency per 1 EUR, decimal text kept exactly. */
export type RatePublication = {
  /** The day the rates are for, YYYY-MM-DD (the ECB publishes them around 16:00 Berlin time). */
  publishedOn: string
  /** Uppercase ISO 4217 code → units of that currency per 1 EUR, as published ("1.0842"). */
  rates: Record<string, string>
}

/** A rates file that cannot be trusted; the message says why and quotes at most 40 characters of it. */
export class RateFileError extends Error {
  constructor(message: string) {
    super(message)
    this.name = "RateFileError"
  }
}

// The real file is about 2 kB (the 90-day history about 60 kB): anything near 1 MB is not it.
const MAX_FILE_BYTES = 1024 * 1024
const MAX_QUOTED = 40

const CURRENCY = /^[A-Z]{3}$/
// Plain positive decimal: no sign, no exponent, no bare "." (zero is refused separately).
const RATE = /^\d+(?:\.\d+)?$/
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/
const NAME_START = /[A-Za-z_:]/
const NAME_CHAR = /[A-Za-z0-9_:.-]/
const SPACE = /[ \t\r\n]/

/** True for a real Gregorian calendar date written YYYY-MM-DD ("2026-02-29" is not one). */
export function isCalendarDate(text: string): boolean {
  const match = DATE.exec(text)
  if (!match) return false
  const year = Number(match[1])
  const month = Number(match[2])
  const day = Number(match[3])
  if (month < 1 || month > 12 || day < 1) return false
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
  return day <= days
}

/**
 * The newest day's rates. Tolerates what a well-formed file may vary in; throws RateFileError on
 * anything that would make a rate doubtful.
 */
export function parseEcbFile(xml: string): RatePublication {
  if (typeof xml !== "string") {
    throw new RateFileError("rates file is not text")
  }
  // Checked on the length first so a huge string is never encoded just to be measured.
  if (xml.length > MAX_FILE_BYTES || Buffer.byteLength(xml, "utf8") > MAX_FILE_BYTES) {
    throw new RateFileError(`rates file is larger than ${MAX_FILE_BYTES} bytes`)
  }
  // Text outside tags, a byte order mark included, is skipped by the scanner.
  const days = scanCubes(xml)
  if (days.size === 0) {
    throw new RateFileError("rates file has no dated Cube")
  }
  const publishedOn = [...days.keys()].sort().pop() as string
  const rates = days.get(publishedOn) as Record<string, string>
  if (Object.keys(rates).length === 0) {
    throw new RateFileError(`rates file has no currency rates for ${publishedOn}`)
  }
  if (!Object.prototype.hasOwnProperty.call(rates, "USD")) {
    throw new RateFileError(`rates file has no USD rate for ${publishedOn}`)
  }
  return { publishedOn, rates }
}

type Frame = "plain" | "day" | "rate"

function scanCubes(text: string): Map<string, Record<string, string>> {
  const days = new Map<string, Record<string, string>>()
  // Open Cube elements, innermost last, so a rate is only taken inside its own day.
  const open: Frame[] = []
  let day: Record<string, string> | undefined
  let at = 0
  for (;;) {
    const lt = text.indexOf("<", at)
    if (lt < 0) break
    if (text.startsWith("<!--", lt)) {
      at = skipPast(text, lt + 4, "-->", "comment")
    } else if (text.startsWith("<![CDATA[", lt)) {
      at = skipPast(text, lt + 9, "]]>", "CDATA section")
    } else if (text.startsWith("<?", lt)) {
      at = skipPast(text, lt + 2, "?>", "processing instruction")
    } else if (text.startsWith("<!", lt)) {
      at = skipDeclaration(text, lt + 2)
    } else if (text.startsWith("</", lt)) {
      const { name, end } = readName(text, lt + 2)
      const i = skipSpace(text, end)
      if (text.charAt(i) !== ">") {
        throw new RateFileError(`malformed end tag near ${quote(text.slice(lt))}`)
      }
      at = i + 1
      if (name === "Cube") {
        const frame = open.pop()
        if (frame === undefined) {
          throw new RateFileError("rates file closes a Cube it never opened")
        }
        if (frame === "day") day = undefined
      }
    } else {
      const tag = readStartTag(text, lt)
      at = tag.end
      if (tag.name !== "Cube") continue
      const frame = classify(tag.attributes, open, days)
      if (frame === "day") {
        day = {}
        days.set(tag.attributes.time.trim(), day)
      } else if (frame === "rate") {
        addRate(day as Record<string, string>, tag.attributes)
      }
      if (!tag.selfClosing) {
        open.push(frame)
      } else if (frame === "day") {
        day = undefined
      }
    }
  }
  if (open.length > 0) {
    // A download cut short ends inside the Cubes: its last day may be missing currencies.
    throw new RateFileError("rates file ends inside an open Cube")
  }
  return days
}

/** What a Cube is from its attributes, checked against where it stands. */
function classify(attributes: Record<string, string>, open: Frame[], days: Map<string, unknown>): Frame {
  const has = (name: string) => Object.prototype.hasOwnProperty.call(attributes, name)
  if (has("time")) {
    if (has("currency") || has("rate")) {
      throw new RateFileError("a Cube has both a time and a rate")
    }
    if (open.includes("day") || open.includes("rate")) {
      throw new RateFileError("a dated Cube is nested in another dated Cube")
    }
    const date = attributes.time.trim()
    if (!isCalendarDate(date)) {
      throw new RateFileError(`not a calendar date YYYY-MM-DD: ${quote(date)}`)
    }
    if (days.has(date)) {
      throw new RateFileError(`rates file has the date ${date} twice`)
    }
    return "day"
  }
  if (has("currency") || has("rate")) {
    if (open[open.length - 1] !== "day") {
      throw new RateFileError("a currency rate stands outside a dated Cube")
    }
    return "rate"
  }
  return "plain"
}

function addRate(day: Record<string, string>, attributes: Record<string, string>): void {
  if (attributes.currency === undefined || attributes.rate === undefined) {
    throw new RateFileError("a currency Cube lacks its currency or its rate")
  }
  const currency = attributes.currency.trim()
  const rate = attributes.rate.trim()
  if (!CURRENCY.test(currency)) {
    throw new RateFileError(`not a 3-letter uppercase currency code: ${quote(currency)}`)
  }
  // The file's rates are per 1 EUR: a EUR entry would contradict its own base.
  if (currency === "EUR") {
    throw new RateFileError("rates file lists EUR, its own base currency")
  }
  if (!RATE.test(rate) || !/[1-9]/.test(rate)) {
    throw new RateFileError(`${currency} rate is not a positive decimal: ${quote(rate)}`)
  }
  if (Object.prototype.hasOwnProperty.call(day, currency)) {
    throw new RateFileError(`${currency} appears twice in the same day`)
  }
  day[currency] = rate
}

/** A start tag at `lt`: its name, attributes (later duplicates refused) and where it ends. */
function readStartTag(
  text: string,
  lt: number
): { name: string; attributes: Record<string, string>; selfClosing: boolean; end: number } {
  const { name, end: nameEnd } = readName(text, lt + 1)
  if (!name) {
    throw new RateFileError(`malformed tag near ${quote(text.slice(lt))}`)
  }
  const attributes: Record<string, string> = Object.create(null)
  let i = nameEnd
  for (;;) {
    const before = i
    i = skipSpace(text, i)
    if (text.startsWith("/>", i)) {
      return { name, attributes, selfClosing: true, end: i + 2 }
    }
    if (text.charAt(i) === ">") {
      return { name, attributes, selfClosing: false, end: i + 1 }
    }
    // XML wants whitespace between attributes; without it this is not a tag we can read.
    if (i === before) {
      throw new RateFileError(`malformed tag near ${quote(text.slice(lt))}`)
    }
    const attribute = readName(text, i)
    i = skipSpace(text, attribute.end)
    if (!attribute.name || text.charAt(i) !== "=") {
      throw new RateFileError(`malformed attribute near ${quote(text.slice(lt))}`)
    }
    i = skipSpace(text, i + 1)
    const quoteChar = text.charAt(i)
    if (quoteChar !== '"' && quoteChar !== "'") {
      throw new RateFileError(`unquoted attribute value near ${quote(text.slice(lt))}`)
    }
    const close = text.indexOf(quoteChar, i + 1)
    if (close < 0) {
      throw new RateFileError(`unterminated attribute value near ${quote(text.slice(lt))}`)
    }
    if (attribute.name in attributes) {
      throw new RateFileError(`attribute ${quote(attribute.name)} given twice in one tag`)
    }
    attributes[attribute.name] = text.slice(i + 1, close)
    i = close + 1
  }
}

function readName(text: string, start: number): { name: string; end: number } {
  if (!NAME_START.test(text.charAt(start))) return { name: "", end: start }
  let end = start + 1
  while (end < text.length && NAME_CHAR.test(text.charAt(end))) end++
  return { name: text.slice(start, end), end }
}

function skipSpace(text: string, start: number): number {
  let i = start
  while (i < text.length && SPACE.test(text.charAt(i))) i++
  return i
}

function skipPast(text: string, start: number, terminator: string, what: string): number {
  const end = text.indexOf(terminator, start)
  if (end < 0) {
    throw new RateFileError(`rates file has an unterminated ${what}`)
  }
  return end + terminator.length
}

/** Skips <!DOCTYPE …> and the like, including an internal subset in brackets. */
function skipDeclaration(text: string, start: number): number {
  let depth = 0
  for (let i = start; i < text.length; i++) {
    const c = text.charAt(i)
    if (c === "[") depth++
    else if (c === "]") depth--
    else if (c === ">" && depth <= 0) return i + 1
  }
  throw new RateFileError("rates file has an unterminated declaration")
}

/** At most 40 characters of the input, so an error never carries the file into a log. */
function quote(text: string): string {
  return (
    JSON.stringify(text.length > MAX_QUOTED ? text.slice(0, MAX_QUOTED) : text) + (text.length > MAX_QUOTED ? "…" : "")
  )
}
