import { BoundedMap } from "../bounded-map"

describe("BoundedMap", () => {
  let clock = 1_000
  const now = () => clock
  beforeEach(() => (clock = 1_000))

  it("holds at most maxEntries, evicting the oldest on insert", () => {
    const map = new BoundedMap<string, number>({ maxEntries: 3, maxAgeMs: 60_000 }, now)
    for (let i = 0; i < 10; i++) map.set(`k${i}`, i)
    expect(map.size).toBe(3)
    expect([map.get("k6"), map.get("k7"), map.get("k8"), map.get("k9")]).toEqual([undefined, 7, 8, 9])
  })

  it("counts a key set again as the newest", () => {
    const map = new BoundedMap<string, number>({ maxEntries: 2, maxAgeMs: 60_000 }, now)
    map.set("a", 1).set("b", 2).set("a", 3).set("c", 4)
    expect([map.get("a"), map.get("b"), map.get("c")]).toEqual([3, undefined, 4])
    expect(map.size).toBe(2)
  })

  it("forgets an entry once it has lived maxAgeMs, and drops it on the read", () => {
    const map = new BoundedMap<string, string>({ maxEntries: 10, maxAgeMs: 500 }, now)
    map.set("pay_x", "seen")
    clock += 499
    expect(map.get("pay_x")).toBe("seen")
    clock += 1
    expect(map.size).toBe(1)
    expect(map.has("pay_x")).toBe(false)
    expect(map.size).toBe(0)
  })

  it("sweeps the expired entries on insert, without reading them", () => {
    const map = new BoundedMap<string, number>({ maxEntries: 1_000, maxAgeMs: 1_000 }, now)
    for (let i = 0; i < 100; i++) map.set(`old${i}`, i)
    clock += 1_000
    map.set("new", 1)
    expect(map.size).toBe(1)
    expect(map.get("new")).toBe(1)
  })

  it("lets a set ask for a shorter life, never a longer one", () => {
    const map = new BoundedMap<string, number>({ maxEntries: 10, maxAgeMs: 1_000 }, now)
    map.set("short", 1, 100).set("long", 2, 5_000)
    clock += 100
    expect(map.get("short")).toBeUndefined()
    clock += 899
    expect(map.get("long")).toBe(2)
    clock += 1
    expect(map.get("long")).toBeUndefined()
  })

  it("refuses bounds that bound nothing", () => {
    expect(() => new BoundedMap({ maxEntries: 0, maxAgeMs: 1 })).toThrow("maxEntries")
    expect(() => new BoundedMap({ maxEntries: 1, maxAgeMs: 0 })).toThrow("maxAgeMs")
  })
})
