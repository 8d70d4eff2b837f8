import { SharedReadCache, STALE_KEEP_MS } from "../status-cache"

describe("SharedReadCache", () => {
  let clock = 0
  const cache = () =>
    new SharedReadCache<string>(
      () => 5_000,
      3,
      () => clock
    )

  beforeEach(() => {
    clock = 1_000_000
  })

  it("makes one upstream read for 100 concurrent callers", async () => {
    const c = cache()
    let reads = 0
    let release!: (v: string) => void
    const read = () => {
      reads++
      return new Promise<string>((resolve) => (release = resolve))
    }
    const callers = Array.from({ length: 100 }, () => c.get("pay_1", read))
    release("PENDING")
    const results = await Promise.all(callers)
    expect(reads).toBe(1)
    expect(results.every((r) => r.value === "PENDING")).toBe(true)
    expect(results.filter((r) => !r.cached)).toHaveLength(1)
  })

  it("reads again only after the TTL", async () => {
    const c = cache()
    let reads = 0
    const read = async () => `v${++reads}`
    await c.get("k", read)
    clock += 4_999
    expect((await c.get("k", read)).value).toBe("v1")
    clock += 2
    expect((await c.get("k", read)).value).toBe("v2")
    expect(reads).toBe(2)
  })

  it("does not cache a failure, and keeps the last good value as stale", async () => {
    const c = cache()
    await c.get("k", async () => "good")
    clock += 10_000
    await expect(c.get("k", async () => Promise.reject(new Error("429")))).rejects.toThrow("429")
    expect(c.stale("k")).toEqual({ value: "good", ageMs: 10_000 })
    expect((await c.get("k", async () => "fresh")).value).toBe("fresh")
  })

  it("keeps at most maxEntries keys", async () => {
    const c = cache()
    for (const k of ["a", "b", "c", "d"]) await c.get(k, async () => k)
    expect(c.stale("a")).toBeUndefined()
    expect(c.stale("d")?.value).toBe("d")
  })

  it("stays at maxEntries however many payments are polled, the oldest going first", async () => {
    const c = cache()
    for (let i = 0; i < 1_000; i++) await c.get(`pay_${i}`, async () => `v${i}`)
    expect(c.size).toEqual({ entries: 3, inFlight: 0 })
    expect([c.stale("pay_996"), c.stale("pay_997")?.value]).toEqual([undefined, "v997"])
  })

  it("forgets a stale value after STALE_KEEP_MS, and sweeps the old ones as new keys come", async () => {
    const c = new SharedReadCache<string>(
      () => 1_000,
      100,
      () => clock
    )
    for (let i = 0; i < 50; i++) await c.get(`pay_${i}`, async () => "PENDING")
    clock += STALE_KEEP_MS - 1
    expect(c.stale("pay_0")?.ageMs).toBe(STALE_KEEP_MS - 1)
    clock += 1
    expect(c.stale("pay_0")).toBeUndefined()
    await c.get("pay_new", async () => "PENDING")
    expect(c.size.entries).toBe(1)
  })

  it("holds a read in flight only as long as its promise, also when it rejects", async () => {
    const c = cache()
    let fail!: (error: Error) => void
    const callers = [1, 2, 3].map(() =>
      c.get("k", () => new Promise<string>((_, reject) => (fail = reject))).catch((e: Error) => e.message)
    )
    expect(c.size.inFlight).toBe(1)
    fail(new Error("service down"))
    expect(await Promise.all(callers)).toEqual(["service down", "service down", "service down"])
    expect(c.size).toEqual({ entries: 0, inFlight: 0 })
  })
})
