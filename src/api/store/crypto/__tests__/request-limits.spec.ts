import type { IncomingMessage } from "node:http"
import { clientAddressOf, clientKey, RequestLimits } from "../refunds/request-limits"
import { RateWindow } from "../../../../lib/runtime/rate-window"

const request = (peer: string, forwardedFor?: string) =>
  ({
    socket: { remoteAddress: peer },
    connection: { remoteAddress: peer },
    headers: forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor },
  }) as unknown as IncomingMessage

describe("the refund routes' limits", () => {
  it("count a client by a valid IP, every malformed address as one", () => {
    expect(clientKey("203.0.113.7")).toBe("203.0.113.7")
    expect(clientKey("2001:db8::1")).toBe("2001:db8::1")
    expect(clientKey("203.0.113.7, 10.0.0.1")).toBe("invalid")
    expect(clientKey("x".repeat(2_000))).toBe("invalid")
    expect(clientKey(undefined)).toBe("invalid")
  })

  it("4. read the client behind exactly the shop's trusted hops", () => {
    // exposed directly (0 hops): the client's own X-Forwarded-For picks nothing
    expect(clientAddressOf(request("198.51.100.4", "203.0.113.9"), 0)).toBe("198.51.100.4")
    // one proxy of the shop: the address it saw, the rightmost entry
    expect(clientAddressOf(request("10.0.0.2", "203.0.113.9, 198.51.100.77"), 1)).toBe("198.51.100.77")
    // two proxies: customers behind them are told apart, and what the client wrote on the left is ignored
    expect(clientAddressOf(request("10.0.0.2", "1.2.3.4, 203.0.113.9, 10.0.0.1"), 2)).toBe("203.0.113.9")
    // behind two proxies, counting one would make every customer the inner proxy
    expect(clientAddressOf(request("10.0.0.2", "203.0.113.9, 10.0.0.1"), 1)).toBe("10.0.0.1")
    // a forged entry that is no IP is one shared key, never a new one
    expect(clientAddressOf(request("10.0.0.2", `${"z".repeat(2_000)}`), 1)).toBe("invalid")
    expect(clientAddressOf(request("10.0.0.2"), 1)).toBe("10.0.0.2")
  })

  it("charge a client only for tokens that opened nothing, and refuse it before any read once they fill the window", () => {
    const limits = new RequestLimits(new RateWindow(2, 60_000), new RateWindow(100, 60_000))
    expect(limits.refused("203.0.113.7")).toEqual({ allowed: true })
    limits.failed("203.0.113.7")
    expect(limits.refused("203.0.113.7")).toEqual({ allowed: true })
    limits.failed("203.0.113.7")
    expect(limits.refused("203.0.113.7")).toMatchObject({ allowed: false, retryAfterSeconds: 60 })
    // another client is not refused, and asking kept no key for it
    expect(limits.refused("198.51.100.1")).toEqual({ allowed: true })
    expect(limits.held).toEqual({ keys: 1, characters: "203.0.113.7".length })
  })

  it("count a link that opened by its owed record alone", () => {
    const limits = new RequestLimits(new RateWindow(1, 60_000), new RateWindow(2, 60_000))
    expect(limits.take("cryptoowed_1")).toEqual({ allowed: true })
    expect(limits.take("cryptoowed_1")).toEqual({ allowed: true })
    expect(limits.take("cryptoowed_1")).toMatchObject({ allowed: false })
    expect(limits.take("cryptoowed_2")).toEqual({ allowed: true })
  })
})
