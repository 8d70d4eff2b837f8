import { ExpiringSet } from "../expiring-set"

describe("ExpiringSet", () => {
  let clock = 1_000
  const now = () => clock

  it("remembers a key for its time to live, then forgets it", () => {
    const set = new ExpiringSet(500, 10, now)
    set.add("pay_x")
    clock += 499
    expect(set.has("pay_x")).toBe(true)
    clock += 1
    expect(set.has("pay_x")).toBe(false)
  })

  it("forgets the oldest key first when full", () => {
    const set = new ExpiringSet(10_000, 2, now)
    set.add("a")
    set.add("b")
    set.add("c")
    expect([set.has("a"), set.has("b"), set.has("c")]).toEqual([false, true, true])
  })

  it("stays at its bound however many keys a flood brings, and sweeps the expired ones as new ones come", () => {
    const set = new ExpiringSet(1_000, 100, now)
    for (let i = 0; i < 5_000; i++) set.add(`made_up_${i}`)
    expect(set.size).toBe(100)
    expect(set.has("made_up_4899")).toBe(false)
    expect(set.has("made_up_4900")).toBe(true)
    clock += 1_000
    set.add("later")
    expect(set.size).toBe(1)
  })
})
