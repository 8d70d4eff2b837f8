import {
  CHOOSING_SHARE_SECONDS,
  failedReadDelaySeconds,
  MAX_READ_DELAY_SECONDS,
  nextReadDelaySeconds,
  SETTLED_MAX_DELAY_SECONDS,
  settledReadDelaySeconds,
  type SharedRead,
  sharedReadSeconds,
} from "../read-schedule"

describe("when a payment is read again", () => {
  const created = new Date("2026-11-22T10:00:00Z")
  const expires = new Date("2026-11-22T11:00:00Z")
  const at = (minutesAfterExpiry: number) => new Date(expires.getTime() + minutesAfterExpiry * 60_000)
  const delay = (now: Date, rest: { outcome?: string; watchLate?: boolean } = {}) =>
    nextReadDelaySeconds({
      now,
      expiresAt: expires,
      createdAt: created,
      outcome: rest.outcome ?? "pending",
      watchLate: rest.watchLate ?? false,
      intervalSeconds: 60,
    })

  it("reads an open payment once per interval inside its window", () => {
    expect(delay(new Date("2026-11-22T10:30:00Z"))).toBe(60)
  })

  it.each([
    [1, 60],
    [10, 300],
    [120, 3600],
    [60 * 24 * 3, MAX_READ_DELAY_SECONDS],
  ])(
    "thins out reads of an expired payment watched for a late one (%i min after expiry → %i s)",
    (minutes, seconds) => {
      expect(delay(at(minutes), { watchLate: true })).toBe(seconds)
    }
  )

  it("thins out a payment that does not match from its creation on", () => {
    expect(delay(new Date("2026-11-22T10:20:00Z"), { outcome: "mismatch" })).toBe(600)
  })

  it.each([
    [1, 60],
    [2, 120],
    [3, 240],
    [20, 3600],
  ])("backs off after %i failed read(s) to %i s", (failures, seconds) => {
    expect(failedReadDelaySeconds(60, failures)).toBe(seconds)
  })
})

describe("when a settled payment is read again during its watch window", () => {
  const created = new Date("2026-11-22T10:00:00Z")
  const after = (minutes: number) => new Date(created.getTime() + minutes * 60_000)
  it.each([
    [5, 600],
    [60, 1800],
    [600, 18_000],
    [60 * 24, SETTLED_MAX_DELAY_SECONDS],
  ])("%i min after creation → %i s (at least ten intervals, at most six hours)", (minutes, seconds) => {
    expect(settledReadDelaySeconds({ now: after(minutes), createdAt: created, intervalSeconds: 60 })).toBe(seconds)
  })

  it("costs about a dozen reads over a day's window", () => {
    let now = after(10)
    let reads = 0
    while (now < after(60 * 25)) {
      now = new Date(now.getTime() + settledReadDelaySeconds({ now, createdAt: created, intervalSeconds: 60 }) * 1000)
      reads++
    }
    expect(reads).toBeGreaterThan(5)
    expect(reads).toBeLessThanOrEqual(14)
  })
})

describe("how long storefront polls share a status read", () => {
  const now = new Date("2026-11-22T10:30:00Z")
  const later = "2026-11-22T11:00:00Z"
  const earlier = "2026-11-22T10:29:59Z"
  const invoice = (rest: Partial<SharedRead> = {}): SharedRead => ({
    kind: "invoice",
    status: "PENDING",
    coin: null,
    expiresAt: later,
    ...rest,
  })

  it.each<[string, SharedRead, number, number]>([
    // what, the payment as last read, statusCacheSeconds, seconds shared
    ["an open invoice without a coin", invoice(), 30, CHOOSING_SHARE_SECONDS],
    ["an open invoice without a coin, statusCacheSeconds shorter", invoice(), 2, 2],
    ["an open invoice whose read has no currency field", invoice({ coin: undefined }), 30, CHOOSING_SHARE_SECONDS],
    ["an invoice whose coin is chosen", invoice({ coin: "ETH" }), 30, 30],
    ["an invoice past its expiry (nobody chooses any more)", invoice({ expiresAt: earlier }), 30, 30],
    ["an invoice whose expiry is unknown", invoice({ expiresAt: null }), 30, 30],
    ["an invoice whose expiry does not parse", invoice({ expiresAt: "soon" }), 30, 30],
    ["an invoice the service calls EXPIRED", invoice({ status: "EXPIRED" }), 30, 30],
    ["a single-coin payment", { kind: "payment", status: "PENDING", coin: "BTC", expiresAt: later }, 30, 30],
    ["a payment whose read names no coin", { kind: "payment", status: "PENDING", expiresAt: later }, 30, 30],
  ])("%s", (_what, read, cacheSeconds, expected) => {
    expect(sharedReadSeconds(read, cacheSeconds, now)).toBe(expected)
  })
})
