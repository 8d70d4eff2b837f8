import { validateAndTransformQuery } from "@medusajs/framework/http"
import { encodeCursor } from "../../../../modules/crypto-payment/list-cursor"
import { AdminCryptoPaymentsQuery } from "../validators"

/**
 * The query as the route's middleware (src/api/middlewares.ts) leaves it in req.validatedQuery: Medusa's
 * validateAndTransformQuery (strict: unknown keys refused; it also reads `order`, `limit`, `offset`
 * for its own list config), or the error it passes on (a 400).
 */
function validated(query: Record<string, string>): Promise<Record<string, unknown>> {
  const req = { query, allowed: [] as string[] } as unknown as Parameters<
    ReturnType<typeof validateAndTransformQuery>
  >[0] & { validatedQuery: Record<string, unknown> }
  return new Promise((resolve, reject) =>
    validateAndTransformQuery(AdminCryptoPaymentsQuery, {})(req, {} as never, (error?: unknown) =>
      error ? reject(error) : resolve(req.validatedQuery)
    )
  )
}

const refused = async (query: Record<string, string>): Promise<string> => {
  try {
    await validated(query)
  } catch (error) {
    expect((error as { type?: string }).type).toBe("invalid_data")
    return (error as Error).message
  }
  throw new Error(`accepted ${JSON.stringify(query)}`)
}

const cursor = encodeCursor({ direction: "next", createdAt: "2026-11-26T10:00:00.000001Z", id: "cryptopay_a" })

describe("GET /admin/crypto/payments's query", () => {
  it("opens on the first page of 20, newest first, with no offset", async () => {
    expect(await validated({})).toEqual({ limit: 20 })
  })

  it("takes every filter at once, with a cursor", async () => {
    expect(
      await validated({
        cursor,
        limit: "3",
        status: "COMPLETED",
        flag: "captured_no_order",
        coin: "USDT_ERC20",
        created_from: "2026-11-01T00:00:00+01:00",
        created_to: "2026-12-01T00:00:00Z",
        order: "#1042",
        order_id: "order_01ABC",
      })
    ).toEqual({
      cursor,
      limit: 3,
      status: "COMPLETED",
      flag: "captured_no_order",
      coin: "USDT_ERC20",
      created_from: "2026-11-01T00:00:00+01:00",
      created_to: "2026-12-01T00:00:00Z",
      order: "#1042",
      order_id: "order_01ABC",
    })
  })

  it("keeps the deprecated offset working", async () => {
    expect(await validated({ offset: "40", limit: "20" })).toEqual({ offset: 40, limit: 20 })
  })

  it("reads a '+' the query string turned into a space as the offset's sign", async () => {
    expect(await validated({ created_from: "2026-11-01T00:00:00 01:00" })).toMatchObject({
      created_from: "2026-11-01T00:00:00+01:00",
    })
  })

  it.each([
    [{ cursor: "not-a-cursor" }, /cursor is not one this list handed out/],
    [{ cursor: cursor.slice(0, -2) }, /cursor is not one this list handed out/],
    [{ created_from: "2026-11-01" }, /created_from must be an ISO 8601 date and time with its offset/],
    [{ created_to: "2026-02-30T00:00:00Z" }, /created_to must be an ISO 8601 date and time with its offset/],
    [
      { created_from: "2026-12-01T00:00:00Z", created_to: "2026-11-01T00:00:00Z" },
      /created_to must be later than created_from/,
    ],
    [
      { created_from: "2026-11-01T01:00:00+01:00", created_to: "2026-11-01T00:00:00Z" },
      /created_to must be later than created_from/,
    ],
    [{ cursor, offset: "20" }, /offset cannot be combined with cursor/],
    [{ order: "cart_01" }, /order must be an order id \(order_…\) or an order's display id/],
    [{ order: "0" }, /order must be an order id/],
    [{ flag: "rich" }, /field 'flag'/],
    [{ status: "PAID" }, /field 'status'/],
    [{ coin: "DOGE" }, /field 'coin'/],
    [{ limit: "0" }, /field 'limit' too small/],
    [{ limit: "201" }, /field 'limit' too big/],
    [{ page: "2" }, /Unrecognized fields: 'page'/],
  ])("answers 400 naming the field for %j", async (query, message) => {
    expect(await refused(query as Record<string, string>)).toMatch(message)
  })
})
