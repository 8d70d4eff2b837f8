import { randomBytes } from "node:crypto"
import { numberToDecimalString } from "./decimal"

/**
 * Exact decimal numbers in JSON, both ways. A JS number keeps 15 to 17 significant digits, so an amount of
 * 18 decimal places ("0.307692307692307693") loses its last digits through JSON.parse or JSON.stringify:
 * the sandbox reads such a number from the request's text and writes it as its text.
 */

const PLAIN_DECIMAL = /^-?\d+(?:\.\d+)?$/

/**
 * A JSON number written exactly as its decimal text, by stringifyJson (and so by sendJson). Anywhere else
 * (a plain JSON.stringify) it is written as the nearest JS number.
 */
export class JsonDecimal {
  constructor(readonly text: string) {
    if (!PLAIN_DECIMAL.test(text)) throw new RangeError(`not a plain decimal: ${JSON.stringify(text)}`)
  }

  toJSON(): number | string {
    if (!written) return Number(this.text)
    written.push(this.text)
    return `${MARK}${written.length - 1}`
  }
}

/** An amount's plain decimal text, whether a JsonDecimal or a JS number (then without an exponent). */
export function decimalText(value: number | JsonDecimal): string {
  return value instanceof JsonDecimal ? value.text : numberToDecimalString(value)
}

// While stringifyJson runs, each JsonDecimal leaves a placeholder string and its text here; the placeholders
// are then replaced by the texts. The mark is random per process: no string of a request can forge one.
const MARK = `json-decimal-${randomBytes(8).toString("hex")}#`
const PLACEHOLDER = new RegExp(`"${MARK}(\\d+)"`, "g")
let written: string[] | undefined

/** JSON.stringify, but a JsonDecimal is written as its exact text. */
export function stringifyJson(value: unknown): string {
  const texts: string[] = []
  written = texts
  let json: string
  try {
    json = JSON.stringify(value)
  } finally {
    written = undefined
  }
  if (!texts.length) return json
  return json.replace(PLACEHOLDER, (placeholder, index: string) => texts[Number(index)] ?? placeholder)
}

const TOKEN = /"(?:[^"\\]|\\.)*"|[{}[\]:,]|[^\s{}[\]:,"]+/g

/**
 * The number members of a JSON object as they are written in its text (`{"amount": 0.000000100000000000}`
 * → amount: "0.000000100000000000"), for numbers a JS number cannot hold exactly. `text` must be valid JSON
 * (JSON.parse read it); members nested deeper, and any text whose value is not an object, give nothing.
 * A repeated name counts at its last occurrence, as JSON.parse takes it.
 */
export function numberLiterals(text: string): Map<string, string> {
  const literals = new Map<string, string>()
  if (!text.trimStart().startsWith("{")) return literals
  let depth = 0
  let name: string | undefined
  let valueNext = false
  for (const [token] of text.matchAll(TOKEN)) {
    if (depth === 1 && valueNext && name !== undefined) {
      // the value of a member of the top-level object
      if (/^-?\d/.test(token)) literals.set(name, token)
      else literals.delete(name)
      valueNext = false
    }
    if (token === "{" || token === "[") depth++
    else if (token === "}" || token === "]") depth--
    else if (depth !== 1) continue
    else if (token === ":") valueNext = true
    else if (token === ",") name = undefined
    else if (token.startsWith('"') && name === undefined) name = JSON.parse(token) as string
  }
  return literals
}
