import axios, { AxiosAdapter } from "axios"
import { routeOf, Traffic } from "../traffic"

/** An axios instance answering each request with the status its path ends with (no network). */
function answering() {
  const adapter: AxiosAdapter = async (config) => {
    const status = Number(config.url!.split("/").pop())
    if (!status) throw Object.assign(new Error("socket hang up"), { config, isAxiosError: true, code: "ECONNRESET" })
    const response = { data: {}, status, statusText: "", headers: {}, config }
    if (status >= 400) throw new axios.AxiosError("failed", "ERR_BAD_RESPONSE", config, undefined, response)
    return response
  }
  return axios.create({ adapter })
}

describe("the soak's traffic", () => {
  it.each([
    ["post", "http://localhost:9000/hooks/crypto/payses_01ABC.sig-nature_x", "POST /hooks/crypto/:token"],
    ["get", "/store/crypto/payments/inv_fb2308a160bdea75?x=1", "GET /store/crypto/payments/:paymentId"],
    ["post", "/store/carts/cart_01M8C3YVK90WCWRFTBMVFPT4ZE/complete", "POST /store/carts/:id/complete"],
    ["get", "/admin/orders/order_01M8C3YVK90WCWRF", "GET /admin/orders/:id"],
    ["post", "/store/payment-collections", "POST /store/payment-collections"],
  ])("names %s %s as %s", (method, url, route) => {
    expect(routeOf(method, url)).toBe(route)
  })

  it("counts a 5xx or no answer as broken while up, and apart around the kill", async () => {
    const traffic = new Traffic()
    const api = answering()
    traffic.watch(api)
    const call = (url: string) => api.get(url).catch(() => undefined)
    await call("/store/200")
    await call("/store/503")
    traffic.down()
    await call("/store/0")
    traffic.restarted()
    await call("/store/500")
    traffic.recovered()
    await call("/store/401")
    expect(traffic.broken.map((b) => [b.status, b.phase])).toEqual([[503, "up"]])
    expect(traffic.aroundKill.map((b) => [b.status, b.phase])).toEqual([
      ["no answer", "down"],
      [500, "recovering"],
    ])
    expect(traffic.tally(/store/)).toBe("1×200, 1×401, 1×500, 1×503, 1×no answer")
  })

  it("lets customers wait while the process is down, and go on once it is restarted", async () => {
    const traffic = new Traffic()
    traffic.down()
    let through = false
    const waiting = traffic.whenUp().then(() => (through = true))
    await new Promise((resolve) => setImmediate(resolve))
    expect(through).toBe(false)
    traffic.restarted()
    await waiting
    expect(through).toBe(true)
  })
})
