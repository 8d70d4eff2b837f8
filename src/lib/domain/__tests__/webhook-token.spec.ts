import { signingKeyOf, signWebhookToken, verifyWebhookToken, webhookSigningKey, webhookUrl } from "../webhook-token"

const key = webhookSigningKey({ apiKey: "sk_test_1234567890" })

describe("webhook tokens", () => {
  it("round-trips a session id", () => {
    const token = signWebhookToken("payses_01ABC", key)
    expect(verifyWebhookToken(token, key)).toBe("payses_01ABC")
    expect(webhookUrl("https://shop.example/", token)).toBe(`https://shop.example/hooks/crypto/${token}`)
  })

  it.each([
    ["another session's id with this signature", (t: string) => t.replace("payses_01ABC", "payses_01ABD")],
    ["a changed signature", (t: string) => t.slice(0, -1) + (t.endsWith("A") ? "B" : "A")],
    ["no signature", () => "payses_01ABC"],
    ["an empty token", () => ""],
    ["a huge token", () => "a".repeat(1000)],
  ])("rejects %s", (_, forge) => {
    expect(verifyWebhookToken(forge(signWebhookToken("payses_01ABC", key)), key)).toBeNull()
  })

  it("rejects a token signed with another secret, and a configured secret changes the key", () => {
    const other = webhookSigningKey({ apiKey: "sk_test_1234567890", webhookSecret: "whsec_a_long_enough_secret" })
    expect(verifyWebhookToken(signWebhookToken("payses_1", other), key)).toBeNull()
    expect(verifyWebhookToken(signWebhookToken("payses_1", other), other)).toBe("payses_1")
  })

  it("verifies with any of several keys (a rotation), and with none other", () => {
    const old = signingKeyOf("an-older-secret-of-16+")
    const now = signingKeyOf("the-current-secret-16+")
    expect(verifyWebhookToken(signWebhookToken("payses_1", old), [now, old])).toBe("payses_1")
    expect(verifyWebhookToken(signWebhookToken("payses_1", now), [now, old])).toBe("payses_1")
    expect(verifyWebhookToken(signWebhookToken("payses_1", key), [now, old])).toBeNull()
    expect(verifyWebhookToken(signWebhookToken("payses_1", old), [])).toBeNull()
    expect(signingKeyOf("sk_test_1234567890").equals(key)).toBe(true)
  })

  it("never contains the secret", () => {
    expect(signWebhookToken("payses_1", key)).not.toContain("sk_test_1234567890")
  })
})
