import { RateWindow } from "../rate-window"

describe("a rate window", () => {
  it("allows the limit per key and window, then says when to come back", () => {
    let now = 0
    const window = new RateWindow(2, 60_000, 100, () => now)
    expect(window.take("a")).toEqual({ allowed: true })
    expect(window.take("a")).toEqual({ allowed: true })
    expect(window.take("b")).toEqual({ allowed: true })
    now = 15_000
    expect(window.take("a")).toEqual({ allowed: false, retryAfterSeconds: 45 })
    now = 60_000
    expect(window.take("a")).toEqual({ allowed: true })
  })

  it("holds at most maxKeys keys, forgetting the oldest", () => {
    const window = new RateWindow(1, 60_000, 3, () => 0)
    for (const key of ["a", "b", "c", "d"]) window.take(key)
    expect(window.size).toBe(3)
    // "a" was forgotten: it may ask again
    expect(window.take("a")).toEqual({ allowed: true })
  })

  it("drops the windows that have ended as new keys come", () => {
    let now = 0
    const window = new RateWindow(1, 60_000, 1_000, () => now)
    for (let i = 0; i < 500; i++) window.take(`203.0.113.${i}`)
    expect(window.size).toBe(500)
    now = 60_000
    window.take("198.51.100.1")
    expect(window.size).toBe(1)
  })
})
