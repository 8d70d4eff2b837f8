import { MedusaError } from "@medusajs/framework/utils"
import {
  CRYPTO_ERROR_CODES,
  CRYPTO_ERROR_TEXTS,
  cryptoError,
  cryptoErrorText,
  CryptoErrorCode,
  fillText,
} from "../customer-errors"
import {
  CRYPTO_ERROR_CODES as STOREFRONT_CODES,
  cryptoErrorCodeOf,
  cryptoErrorMessage,
} from "../../../../docs/storefront/crypto-payment-errors"
import { cryptoPaymentLabels } from "../../../../docs/storefront/crypto-payment-i18n"

/*
 * The codes of the plugin's customer-facing errors and the storefront's way of recognising them
 * (docs/storefront/crypto-payment-errors.ts) must agree: a storefront gets the code where Medusa passes
 * it on, and only the English message where Medusa or the JS SDK drops it.
 */

/** Values like the provider's for every placeholder, so that each text reads as a customer would get it. */
const SAMPLE: Record<string, string> = {
  action: "start the crypto invoice",
  coin: '"DOGE"',
  coins: "BTC, ETH, LTC, USDT_ERC20, USDT_BEP20",
  currency: "EUR",
  kinds: "invoices",
  accepted: "USD, USDT",
  confirmations: "1",
  requiredConfirmations: "3",
  received: "0.00010000",
  required: "0.00038462",
  status: "PENDING",
  reason: " (completed with less than the required amount)",
  fields: " (amount)",
  why: "could not be fetched yet",
}

/** A code's text as the provider writes it. */
const message = (code: CryptoErrorCode) => fillText(CRYPTO_ERROR_TEXTS[code], SAMPLE)

describe("customer-facing error codes", () => {
  it("are the same on the server and in the storefront", () => {
    expect([...STOREFRONT_CODES].sort()).toEqual([...CRYPTO_ERROR_CODES].sort())
  })

  it("are stable, dotted and unique", () => {
    for (const code of CRYPTO_ERROR_CODES) expect(code).toMatch(/^crypto\.[a-z_]+$/)
    expect(new Set(CRYPTO_ERROR_CODES).size).toBe(CRYPTO_ERROR_CODES.length)
  })

  it("go with their English text into the MedusaError", () => {
    const error = cryptoError(MedusaError.Types.INVALID_DATA, "crypto.unknown_coin", {
      coin: '"DOGE"',
      coins: "BTC, ETH",
    })
    expect(error).toBeInstanceOf(MedusaError)
    expect(error).toMatchObject({
      type: MedusaError.Types.INVALID_DATA,
      code: "crypto.unknown_coin",
      message: 'Unknown coin "DOGE": choose one of BTC, ETH.',
    })
    expect(cryptoErrorText("crypto.no_payment")).toBe(CRYPTO_ERROR_TEXTS["crypto.no_payment"])
  })

  it("recognise both reasons a rate is missing", () => {
    const outOfDate = fillText(CRYPTO_ERROR_TEXTS["crypto.rate_stale"], { ...SAMPLE, why: "is out of date" })
    expect(cryptoErrorCodeOf(Object.assign(new Error(outOfDate), { status: 400 }))).toBe("crypto.rate_stale")
  })

  it("leave no placeholder unfilled in a text the provider fills", () => {
    for (const code of CRYPTO_ERROR_CODES) expect(message(code)).not.toMatch(/\{\{/)
  })

  describe.each(CRYPTO_ERROR_CODES.map((code) => [code]))("%s reaches the storefront", (code) => {
    it("as the code of a store API error body", () => {
      expect(cryptoErrorCodeOf({ type: "not_allowed", code, message: "anything" })).toBe(code)
    })

    it("as the English message alone (the JS SDK's FetchError keeps the message and the status)", () => {
      expect(cryptoErrorCodeOf(Object.assign(new Error(message(code)), { status: 400 }))).toBe(code)
    })

    it("behind the starter's medusaError prefix", () => {
      expect(cryptoErrorCodeOf(new Error(`Error setting up the request: ${message(code)}`))).toBe(code)
    })

    it("in the customer's language", () => {
      const german = cryptoPaymentLabels("de-DE")
      expect(cryptoErrorMessage(new Error(message(code)), german)).toBe(german.errors[code])
    })
  })

  it("tells Medusa's conflict (its code and message replaced by the error handler) apart", () => {
    const conflict = Object.assign(
      new Error(
        "The request conflicted with another request. You may retry the request with the provided Idempotency-Key."
      ),
      { status: 409 }
    )
    expect(cryptoErrorCodeOf(conflict)).toBe("conflict")
    expect(cryptoErrorCodeOf({ code: "invalid_state_error", message: "…" })).toBe("conflict")
    // what a server action answered after cryptoErrorCodeOf (docs/storefront.md, placeCryptoOrder)
    expect(cryptoErrorCodeOf({ code: "conflict", message: "…" })).toBe("conflict")
  })

  it("leaves other errors as they are", () => {
    const other = new Error("Cart is already completed.")
    expect(cryptoErrorCodeOf(other)).toBeUndefined()
    expect(cryptoErrorMessage(other, cryptoPaymentLabels("fr"))).toBe("Cart is already completed.")
    expect(cryptoErrorMessage("Something else")).toBe("Something else")
  })
})
