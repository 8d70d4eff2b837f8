import { generateSecret, isLastFourOf, lastFour, open, seal, secretsKeyFrom } from "../secret-box"

const key = secretsKeyFrom("k".repeat(32))!
const other = secretsKeyFrom("o".repeat(44))!
const row = { providerId: "pp_crypto_crypto", name: "api_key" }

describe("secret box (AES-256-GCM under CRYPTO_SECRETS_KEY)", () => {
  it("opens what it sealed, and seals the same text differently each time (a fresh IV)", () => {
    const a = seal(key, row, "sk_live_0123456789")
    const b = seal(key, row, "sk_live_0123456789")
    expect(a).not.toBe(b)
    expect(a).toMatch(/^v1\.[\w-]{16}\.[\w-]+\.[\w-]{22}$/)
    expect(a).not.toContain("sk_live")
    expect(open(key, row, a)).toBe("sk_live_0123456789")
    expect(open(key, row, b)).toBe("sk_live_0123456789")
  })

  it("does not open under another key, in another row, or when damaged", () => {
    const sealed = seal(key, row, "sk_live_0123456789")
    expect(open(other, row, sealed)).toBeNull()
    expect(open(key, { ...row, providerId: "pp_crypto_other" }, sealed)).toBeNull()
    expect(open(key, { ...row, name: "webhook_secret" }, sealed)).toBeNull()
    const [v, iv, body, tag] = sealed.split(".")
    const flipped = body[0] === "A" ? "B" + body.slice(1) : "A" + body.slice(1)
    expect(open(key, row, [v, iv, flipped, tag].join("."))).toBeNull()
    expect(open(key, row, ["v2", iv, body, tag].join("."))).toBeNull()
    expect(open(key, row, "not sealed")).toBeNull()
  })

  it("takes no key when CRYPTO_SECRETS_KEY is unset, and refuses a short one without repeating it", () => {
    expect(secretsKeyFrom(undefined)).toBeNull()
    expect(secretsKeyFrom("   ")).toBeNull()
    expect(() => secretsKeyFrom("short-secret-value")).toThrow(/CRYPTO_SECRETS_KEY must be at least 32 characters/)
    try {
      secretsKeyFrom("short-secret-value")
    } catch (error) {
      expect((error as Error).message).not.toContain("short-secret-value")
    }
  })

  it("generates 256-bit webhook secrets and shows keys by their last four", () => {
    const a = generateSecret()
    expect(a).toMatch(/^[\w-]{43}$/)
    expect(generateSecret()).not.toBe(a)
    expect(lastFour(" sk_live_abcd1234 ")).toBe("1234")
  })

  it("tells whether typed characters are a key's last four, exactly (case, length)", () => {
    expect(isLastFourOf("sk_live_abcd7Q9z", "7Q9z")).toBe(true)
    expect(isLastFourOf("sk_live_abcd7Q9z ", " 7Q9z ")).toBe(true)
    expect(isLastFourOf("sk_live_abcd7Q9z", "7q9z")).toBe(false)
    expect(isLastFourOf("sk_live_abcd7Q9z", "Q9z")).toBe(false)
    expect(isLastFourOf("sk_live_abcd7Q9z", "d7Q9z")).toBe(false)
    expect(isLastFourOf("sk_live_abcd7Q9z", "")).toBe(false)
  })
})
