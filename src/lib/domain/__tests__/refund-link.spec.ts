import { owedIdOfToken, refundLinkExpiry, refundLinkUrl, signRefundToken, verifyRefundToken } from "../refund-link"
import { signWebhookToken } from "../webhook-token"

const key = Buffer.alloc(32, 7)
const other = Buffer.alloc(32, 8)
const id = "cryptoowed_01KAB2C3D4E5F6G7H8J9K0M1N2"

describe("the refund-address link", () => {
  const token = signRefundToken(id, key)

  it("names one owed record and verifies with its key only", () => {
    expect(token).toMatch(new RegExp(`^${id}\\.[A-Za-z0-9_-]{43}$`))
    expect(owedIdOfToken(token)).toBe(id)
    expect(verifyRefundToken(token, id, key)).toBe(true)
    expect(verifyRefundToken(token, id, other)).toBe(false)
    expect(verifyRefundToken(token, "cryptoowed_01OTHER", key)).toBe(false)
  })

  it("keeps verifying after a rotation while the older key is accepted", () => {
    expect(verifyRefundToken(token, id, [other, key])).toBe(true)
    expect(verifyRefundToken(token, id, [other])).toBe(false)
  })

  it("is not a webhook token of the same id (its own context)", () => {
    const webhook = signWebhookToken(id, key)
    expect(webhook).not.toBe(token)
    expect(verifyRefundToken(webhook, id, key)).toBe(false)
  })

  it.each([undefined, 42, "", "x.y", `${id}.`, `pay_1.${token.split(".")[1]}`, `${"a".repeat(300)}`])(
    "refuses %p",
    (bad) => {
      expect(verifyRefundToken(bad, id, key)).toBe(false)
    }
  )

  it("works 30 days from creation, or until the admin's renewal says", () => {
    const created = "2026-11-01T00:00:00.000Z"
    expect(refundLinkExpiry({ created_at: created }).toISOString()).toBe("2026-12-01T00:00:00.000Z")
    expect(refundLinkExpiry({ created_at: created, link_expires_at: "2027-01-05T00:00:00Z" }).toISOString()).toBe(
      "2027-01-05T00:00:00.000Z"
    )
    expect(refundLinkUrl("https://shop.example/", token)).toBe(`https://shop.example/crypto-refund/${token}`)
  })
})
