import { clientKey, linkKey, RequestLimits } from "../refunds/request-limits"
import { RateWindow } from "../../../../lib/runtime/rate-window"

describe("the refund routes' limits", () => {
  it("count a client by a valid IP, every malformed address as one", () => {
    expect(clientKey("203.0.113.7")).toBe("203.0.113.7")
    expect(clientKey("2001:db8::1")).toBe("2001:db8::1")
    expect(clientKey("203.0.113.7, 10.0.0.1")).toBe("invalid")
    expect(clientKey("x".repeat(2_000))).toBe("invalid")
    expect(clientKey(undefined)).toBe("invalid")
  })

  it("count a link by a fixed-size digest of its token", () => {
    expect(linkKey("t".repeat(16_000))).toHaveLength(43)
    expect(linkKey("a")).not.toBe(linkKey("b"))
  })

  it("charge the client first, and a link only when the client was let through", () => {
    const limits = new RequestLimits(new RateWindow(2, 60_000), new RateWindow(100, 60_000))
    for (const token of ["a", "b", "c", "d"]) limits.take("203.0.113.7", token)
    // two let through: two links counted; two refused: nothing kept for them
    expect(limits.held).toEqual({ keys: 3, characters: "203.0.113.7".length + 2 * 43 })
    expect(limits.take("203.0.113.7", "e")).toMatchObject({ allowed: false })
  })
})
