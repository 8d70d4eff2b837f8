import { validateAndTransformBody } from "@medusajs/framework/http"
import { AdminCryptoRefundSent, REFUND_SENT_BODY } from "../validators"

/**
 * The body as the route's middleware (src/api/middlewares.ts) leaves it in req.validatedBody: Medusa's
 * validateAndTransformBody, or the error it passes on (a 400).
 */
function validated(body: unknown): Promise<Record<string, unknown>> {
  const req = { body } as unknown as Parameters<ReturnType<typeof validateAndTransformBody>>[0] & {
    validatedBody: Record<string, unknown>
  }
  return new Promise((resolve, reject) =>
    validateAndTransformBody(AdminCryptoRefundSent)(req, {} as never, (error?: unknown) =>
      error ? reject(error) : resolve(req.validatedBody)
    )
  )
}

const refused = async (body: unknown): Promise<string> => {
  try {
    await validated(body)
  } catch (error) {
    expect((error as { type?: string }).type).toBe("invalid_data")
    return (error as Error).message
  }
  throw new Error(`accepted ${JSON.stringify(body)}`)
}

describe("POST /admin/crypto/payments/:paymentId/refund-sent's body", () => {
  it("takes the records the admin saw, each with its coins (null where none were shown), and a reference", async () => {
    expect(
      await validated({
        owed: [
          { id: "cryptoowed_1", coin_amount: "0.0099" },
          { id: "cryptoowed_2", coin_amount: null },
        ],
        reference: "  0xabc  ",
      })
    ).toEqual({
      owed: [
        { id: "cryptoowed_1", coin_amount: "0.0099" },
        { id: "cryptoowed_2", coin_amount: null },
      ],
      reference: "0xabc",
    })
  })

  it.each<[string, unknown]>([
    ["an empty body (the deprecated one: the one open record)", {}],
    ["a reference alone", { reference: "0xabc" }],
    ["owed_ids without the coins seen", { owed_ids: ["cryptoowed_1"] }],
    ["total with as_of", { total: "0.01", as_of: "2026-11-27T10:00:00Z" }],
  ])("refuses %s with a 400 naming the fields to send", async (_, body) => {
    const message = await refused(body)
    expect(message).toContain(REFUND_SENT_BODY)
    expect(message).toMatch(/owed: \[\{ id, coin_amount \}\]/)
  })

  it("refuses a record without its coins, coins that are not a plain decimal, and no record", async () => {
    expect(await refused({ owed: [{ id: "cryptoowed_1" }] })).toMatch(/coin_amount/)
    expect(await refused({ owed: [{ id: "cryptoowed_1", coin_amount: "1e-3" }] })).toMatch(
      /coin_amount must be the coins shown/
    )
    expect(await refused({ owed: [{ id: "cryptoowed_1", coin_amount: 0.01 }] })).toMatch(/coin_amount/)
    expect(await refused({ owed: [] })).toMatch(/at least one record/)
  })

  it("refuses a record named twice, and owed_ids beside owed", async () => {
    const twice = { id: "cryptoowed_1", coin_amount: "0.01" }
    expect(await refused({ owed: [twice, twice] })).toMatch(/more than once/)
    expect(await refused({ owed: [twice], owed_ids: ["cryptoowed_1"] })).toMatch(/owed_ids/)
  })
})
