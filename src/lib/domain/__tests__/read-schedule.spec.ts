import {
  failedReadDelaySeconds,
  MAX_READ_DELAY_SECONDS,
  nextReadDelaySeconds,
  SETTLED_MAX_DELAY_SECONDS,
  settledReadDelaySeconds,
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
