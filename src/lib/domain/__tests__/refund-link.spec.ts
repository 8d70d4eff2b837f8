import {
  newLinkSecret,
  owedIdOfToken,
  refundLinkExpiry,
  refundLinkUrl,
  refundToken,
  signLegacyRefundToken,
  tokenOpens,
  verifyLegacyRefundToken,
} from "../refund-link"
import { signWebhookToken } from "../webhook-token"

const key = Buffer.alloc(32, 7)
const other = Buffer.alloc(32, 8)
const id = "cryptoowed_01KAB2C3D4E5F6G7H8J9K0M1N2"

describe("the refund-address link", () => {
  const secret = newLinkSecret()
  const owed = { id, link_secret: secret }
  const token = refundToken(id, secret)

  it("names one owed record and opens with its current secret only", () => {
    expect(token).toMatch(new RegExp(`^${id}\\.[A-Za-z0-9_-]{43}$`))
    expect(owedIdOfToken(token)).toBe(id)
    expect(tokenOpens(token, owed)).toBe(true)
    // re-issued: a new secret, the earlier copy opens nothing
    expect(tokenOpens(token, { id, link_secret: newLinkSecret() })).toBe(false)
    expect(tokenOpens(token, { id, link_secret: null })).toBe(false)
    expect(tokenOpens(token, { id: "cryptoowed_01OTHER", link_secret: secret })).toBe(false)
  })

  it("is no key's signature: nothing a webhook key signs opens it", () => {
    expect(tokenOpens(signLegacyRefundToken(id, key), owed)).toBe(false)
    expect(tokenOpens(signWebhookToken(id, key), owed)).toBe(false)
  })

  it.each([undefined, 42, "", "x.y", `${id}.`, `${id}.${secret}x`, `pay_1.${secret}`, `${"a".repeat(300)}`])(
    "refuses %p",
    (bad) => {
      expect(tokenOpens(bad, owed)).toBe(false)
    }
  )

  it("draws a new 32-byte secret each time", () => {
    const drawn = new Set(Array.from({ length: 100 }, newLinkSecret))
    expect(drawn.size).toBe(100)
    for (const s of drawn) expect(Buffer.from(s, "base64url")).toHaveLength(32)
  })

  it("links emailed before secrets verify with the key they were signed with, in their own context", () => {
    const legacy = signLegacyRefundToken(id, key)
    expect(verifyLegacyRefundToken(legacy, id, key)).toBe(true)
    expect(verifyLegacyRefundToken(legacy, id, [other, key])).toBe(true)
    expect(verifyLegacyRefundToken(legacy, id, other)).toBe(false)
    expect(verifyLegacyRefundToken(legacy, "cryptoowed_01OTHER", key)).toBe(false)
    expect(verifyLegacyRefundToken(signWebhookToken(id, key), id, key)).toBe(false)
  })

  it("works 30 days from creation, or until the admin's renewal says; the token rides after #", () => {
    const created = "2026-11-01T00:00:00.000Z"
    expect(refundLinkExpiry({ created_at: created }).toISOString()).toBe("2026-12-01T00:00:00.000Z")
    expect(refundLinkExpiry({ created_at: created, link_expires_at: "2027-01-05T00:00:00Z" }).toISOString()).toBe(
      "2027-01-05T00:00:00.000Z"
    )
    expect(refundLinkUrl("https://shop.example/", token)).toBe(`https://shop.example/crypto-refund#${token}`)
  })
})
