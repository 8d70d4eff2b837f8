import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { CRYPTO_ERROR_TEXTS } from "../../../../lib/domain/customer-errors"
import { LOG_PREFIX } from "../../../../lib/runtime/log"
import { CRYPTO_PAYMENT_MODULE } from "../../../../modules/crypto-payment"
import { boundCryptoSessionCreation, SESSIONS_PER_COLLECTION_PER_MINUTE } from "../session-creation-bound"

/*
 * The bound on crypto session creation runs before Medusa's POST /store/payment-collections/:id/payment-sessions,
 * with the ledger's count of the collection's payments created in the last minute. Fakes stand in for the
 * request, the response and the container; no Medusa is booted.
 */

const NOW = new Date("2026-11-25T12:00:00.000Z").getTime()

type Ledger = { createdForCollectionSince: jest.Mock }

let collections = 0

/** A request for a collection of its own (the bound remembers collections per process). */
function setup(body: unknown, ledger: Ledger) {
  const collectionId = `pay_col_${++collections}`
  const logger = { warn: jest.fn(), info: jest.fn(), debug: jest.fn(), error: jest.fn() }
  const services: Record<string, unknown> = {
    [CRYPTO_PAYMENT_MODULE]: { ledger },
    [ContainerRegistrationKeys.LOGGER]: logger,
  }
  const req = {
    body,
    params: { id: collectionId },
    locale: undefined,
    scope: { resolve: (key: string) => services[key] },
  } as unknown as MedusaRequest
  const answer: { status?: number; body?: unknown; headers: Record<string, string> } = { headers: {} }
  const res = {
    setHeader: (name: string, value: string) => (answer.headers[name] = value),
    status(code: number) {
      answer.status = code
      return this
    },
    json(value: unknown) {
      answer.body = value
      return this
    },
  } as unknown as MedusaResponse
  const next = jest.fn()
  const run = () => boundCryptoSessionCreation(req, res, next)
  /** The collection's first crypto session in this process: passes without a query. */
  const first = async () => {
    await run()
    expect(next).toHaveBeenCalledTimes(1)
    expect(ledger.createdForCollectionSince).not.toHaveBeenCalled()
    next.mockClear()
  }
  return { run, first, answer, next, logger, collectionId }
}

const counting = (count: number, oldest: Date | null = null): Ledger => ({
  createdForCollectionSince: jest.fn().mockResolvedValue({ count, oldest }),
})

describe("10. session churn: crypto session creation is bounded per payment collection", () => {
  beforeEach(() => jest.useFakeTimers({ now: NOW }))
  afterEach(() => jest.useRealTimers())

  it.each([
    ["another provider", { provider_id: "pp_stripe_stripe" }],
    ["the system provider", { provider_id: "pp_system_default" }],
    ["a body without provider_id", { data: { currency: "BTC" } }],
    ["a provider_id that is no string", { provider_id: ["pp_crypto_crypto"] }],
    ["no body", undefined],
  ])("passes %s without reading the ledger", async (_, body) => {
    const ledger = counting(99, new Date(NOW - 1_000))
    const { run, answer, next } = setup(body, ledger)
    await run()
    expect(next).toHaveBeenCalledTimes(1)
    expect(ledger.createdForCollectionSince).not.toHaveBeenCalled()
    expect(answer.status).toBeUndefined()
  })

  it("passes a collection's first crypto session in a process without a query (a checkout's one)", async () => {
    const ledger = counting(99, new Date(NOW - 1_000))
    const { first, run, answer } = setup({ provider_id: "pp_crypto_crypto" }, ledger)
    await first()
    // a minute later it is a first again
    jest.setSystemTime(NOW + 61_000)
    await first()
    await run()
    expect(ledger.createdForCollectionSince).toHaveBeenCalledTimes(1)
    expect(answer.status).toBe(429)
  })

  it("passes under the limit, counting the collection's payments of the last 60 s", async () => {
    const ledger = counting(SESSIONS_PER_COLLECTION_PER_MINUTE - 1, new Date(NOW - 50_000))
    const { first, run, answer, next, collectionId } = setup({ provider_id: "pp_crypto_crypto" }, ledger)
    await first()
    await run()
    expect(ledger.createdForCollectionSince).toHaveBeenCalledWith(collectionId, new Date(NOW - 60_000))
    expect(next).toHaveBeenCalledTimes(1)
    expect(answer.status).toBeUndefined()
    expect(answer.headers).toEqual({})
  })

  it("answers 429 at the limit, Retry-After until the oldest is a minute old, and creates nothing", async () => {
    // the oldest is 47.5 s old: another may be created in 12.5 s, so 13
    const ledger = counting(SESSIONS_PER_COLLECTION_PER_MINUTE, new Date(NOW - 47_500))
    const { first, run, answer, next } = setup({ provider_id: "pp_crypto_crypto", data: {} }, ledger)
    await first()
    await run()
    expect(next).not.toHaveBeenCalled()
    expect(answer.status).toBe(429)
    expect(answer.headers["Retry-After"]).toBe("13")
    expect(answer.headers["Content-Language"]).toBe("en")
    expect(answer.body).toEqual({
      type: "too_many_requests",
      code: "crypto.too_many_sessions",
      message: CRYPTO_ERROR_TEXTS["crypto.too_many_sessions"],
    })
  })

  it("waits at least a second, also for a provider of another id and over the limit", async () => {
    const ledger = counting(SESSIONS_PER_COLLECTION_PER_MINUTE + 3, new Date(NOW - 60_000))
    const { first, run, answer, next } = setup({ provider_id: "pp_crypto_shop2" }, ledger)
    await first()
    await run()
    expect(next).not.toHaveBeenCalled()
    expect(answer.status).toBe(429)
    expect(answer.headers["Retry-After"]).toBe("1")
  })

  it("passes and logs a warning when the ledger cannot be read: the bookkeeping never blocks a checkout", async () => {
    const ledger = {
      createdForCollectionSince: jest.fn().mockRejectedValue(new Error('relation "crypto_payment" does not exist')),
    }
    const { first, run, answer, next, logger, collectionId } = setup({ provider_id: "pp_crypto_crypto" }, ledger)
    await first()
    await run()
    expect(next).toHaveBeenCalledTimes(1)
    expect(next).toHaveBeenCalledWith()
    expect(answer.status).toBeUndefined()
    expect(logger.warn).toHaveBeenCalledTimes(1)
    expect(logger.warn.mock.calls[0][0]).toMatch(new RegExp(`^${LOG_PREFIX} .*${collectionId}.*crypto_payment`))
  })
})
