import { randomBytes } from "node:crypto"
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"
import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"

/*
 * 1. Memory a hostile client can pin: what a route keeps per process is keyed by what it verified or
 * shaped, never by the raw path or a forged header. The real route modules are driven with 10,000
 * requests each; fakes stand in for the request and the response (none of these reaches the database).
 */

setFlagsFromString("--expose-gc")
const gc = runInNewContext("gc") as () => void

const REQUESTS = 10_000
const MB = 1024 * 1024

function response() {
  const res = {
    setHeader: () => res,
    status: () => res,
    json: () => res,
  }
  return res as unknown as MedusaResponse
}

/** The heap the process keeps after `work`, in MB (garbage collected before and after). */
async function heapKeptBy(work: () => Promise<void>): Promise<number> {
  gc()
  const before = process.memoryUsage().heapUsed
  await work()
  gc()
  return (process.memoryUsage().heapUsed - before) / MB
}

/** The route modules as a new process loads them: what one test kept is not evicted by the next. */
function freshRoutes() {
  let routes: {
    refundLink: (req: MedusaRequest, res: MedusaResponse) => Promise<unknown>
    boundCryptoSessionCreation: (req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction) => Promise<unknown>
  }
  jest.isolateModules(() => {
    routes = {
      refundLink: require("../refunds/route").GET,
      boundCryptoSessionCreation: require("../session-creation-bound").boundCryptoSessionCreation,
    }
  })
  return routes!
}

/** The module a refund route asks: the shop's proxy hops, and no owed record for any id. */
const scope = {
  resolve: () => ({ trustedProxyHops: () => 1, refundAddresses: { owed: async () => undefined } }),
}

/** A refund-link read as Express hands it over: the token in its header, the peer and its forwarding header. */
function refundRead(token: string, forwardedFor: string) {
  const headers: Record<string, string> = { "x-crypto-refund-token": token, "x-forwarded-for": forwardedFor }
  return {
    headers,
    get: (name: string) => headers[name.toLowerCase()],
    socket: { remoteAddress: "10.0.0.2" },
    connection: { remoteAddress: "10.0.0.2" },
    locale: undefined,
    scope,
  } as unknown as MedusaRequest
}

/** A path segment of 16 KB, different each time and a string of its own (as a parsed URL's is, not a rope over one). */
const longSegment = () => randomBytes(12_000).toString("base64url")

describe("1. memory under hostile requests", () => {
  it("10,000 refund-link reads with 16 KB tokens from one client keep at most 10 MB", async () => {
    const { refundLink } = freshRoutes()
    const kept = await heapKeptBy(async () => {
      for (let i = 0; i < REQUESTS; i++) {
        await refundLink(refundRead(longSegment(), "203.0.113.7"), response())
      }
    })
    expect(kept).toBeLessThanOrEqual(10)
  })

  it("10,000 refund-link reads with forged 2 KB client addresses keep at most 10 MB", async () => {
    const { refundLink } = freshRoutes()
    const kept = await heapKeptBy(async () => {
      for (let i = 0; i < REQUESTS; i++) {
        const token = `cryptoowed_${randomBytes(12).toString("hex")}.${randomBytes(32).toString("base64url")}`
        await refundLink(refundRead(token, randomBytes(1_500).toString("base64url")), response())
      }
    })
    expect(kept).toBeLessThanOrEqual(10)
  })

  it("10,000 crypto session requests for made-up 16 KB collection ids keep at most 10 MB", async () => {
    const { boundCryptoSessionCreation } = freshRoutes()
    const next: MedusaNextFunction = () => undefined
    const kept = await heapKeptBy(async () => {
      for (let i = 0; i < REQUESTS; i++) {
        const req = { body: { provider_id: "pp_crypto_crypto" }, params: { id: longSegment() }, scope: {} }
        await boundCryptoSessionCreation(req as unknown as MedusaRequest, response(), next)
      }
    })
    expect(kept).toBeLessThanOrEqual(10)
  })
})
