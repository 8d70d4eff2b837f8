import http from "node:http"
import https from "node:https"
import type { AddressInfo } from "node:net"
import axios, { AxiosInstance } from "axios"
import { MAX_ANSWER_BYTES, serviceAdapter, serviceTransport } from "../transport"

/** A server whose answer each test chooses; it records what it was sent. */
let answer: (req: http.IncomingMessage, res: http.ServerResponse) => void
let received: Array<{ method?: string; url?: string; headers: http.IncomingHttpHeaders; body: string }>
let server: http.Server
let base: string
const agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) }

function instance(timeout = 1000): AxiosInstance {
  return axios.create({
    baseURL: base,
    timeout,
    headers: { Accept: "application/json", "Content-Type": "application/json" },
    validateStatus: () => true,
    adapter: serviceTransport(agents),
    transformResponse: [(data) => data],
    responseType: "text",
  })
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = ""
    req.on("data", (chunk) => (body += chunk))
    req.on("end", () => {
      received.push({ method: req.method, url: req.url, headers: req.headers, body })
      answer(req, res)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  agents.http.destroy()
  await new Promise((resolve) => server.close(resolve))
})
beforeEach(() => {
  received = []
  answer = (_req, res) => res.end(JSON.stringify({ success: true }))
})

describe("serviceTransport", () => {
  it("sends the method, path, headers and body, and answers the status and the body as text", async () => {
    answer = (_req, res) => {
      res.writeHead(201, { "content-type": "application/json", "x-trace": "t1" })
      res.end('{"success":true,"data":{"id":"é"}}')
    }
    const response = await instance().request({
      method: "POST",
      url: "/v1/create_payment",
      data: '{"amount":1}',
      headers: { "X-API-Key": "k" },
    })

    expect(response.status).toBe(201)
    expect(response.data).toBe('{"success":true,"data":{"id":"é"}}')
    expect(response.headers["x-trace"]).toBe("t1")
    expect(received).toEqual([
      {
        method: "POST",
        url: "/v1/create_payment",
        headers: expect.objectContaining({
          "x-api-key": "k",
          "content-type": "application/json",
          "content-length": "12",
          accept: "application/json",
        }),
        body: '{"amount":1}',
      },
    ])
  })

  it("keeps the connection open between calls", async () => {
    const ports: number[] = []
    answer = (req, res) => {
      ports.push(req.socket.remotePort!)
      res.end("{}")
    }
    await instance().get("/a")
    await instance().get("/b")
    expect(ports).toHaveLength(2)
    expect(ports[1]).toBe(ports[0])
  })

  it("joins each path to its base URL, path prefix and all, and sends an absolute URL where it points", async () => {
    answer = (_req, res) => res.end("{}")
    const transport = serviceTransport(agents)
    const via = (baseURL: string) =>
      axios.create({ baseURL, adapter: transport, transformResponse: [(data) => data], responseType: "text" })

    await via(`${base}/gateway`).get("/v1/invoice/p%2F1/status")
    await via(`${base}/gateway`).get("/v1/merchant/balance")
    // the same transport given another base (the base is parsed once per base, not kept forever)
    await via(base).post("/v1/create_invoice", "{}")
    await via(`${base}/gateway`).get(`${base}/elsewhere?x=1`)

    expect(received.map((r) => `${r.method} ${r.url}`)).toEqual([
      "GET /gateway/v1/invoice/p%2F1/status",
      "GET /gateway/v1/merchant/balance",
      "POST /v1/create_invoice",
      "GET /elsewhere?x=1",
    ])
  })

  it("counts the timeout over the whole exchange: an answer that drips in slower fails", async () => {
    answer = (_req, res) => {
      res.writeHead(200)
      const drip = setInterval(() => res.write(" "), 20)
      res.on("close", () => clearInterval(drip))
    }
    await expect(instance(150).get("/slow")).rejects.toMatchObject({ code: "ECONNABORTED" })
  })

  it("refuses an answer heavier than the limit", async () => {
    answer = (_req, res) => res.end("x".repeat(MAX_ANSWER_BYTES + 1))
    await expect(instance().get("/big")).rejects.toMatchObject({ code: "ERR_BAD_RESPONSE" })
  })

  it("stops when the signal aborts, as a cancellation", async () => {
    answer = () => undefined // never answers
    const controller = new AbortController()
    const call = instance(5000).get("/hang", { signal: controller.signal })
    setTimeout(() => controller.abort(), 30)
    await expect(call).rejects.toMatchObject({ name: "CanceledError" })
  })

  it("passes Node's code on for a refused connection", async () => {
    const closed = http.createServer()
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise((resolve) => closed.close(resolve))
    await expect(instance().get(`http://127.0.0.1:${port}/x`, { baseURL: "" })).rejects.toMatchObject({
      code: "ECONNREFUSED",
    })
  })
})

describe("serviceAdapter", () => {
  it("keeps axios's own adapter where the environment names a proxy", () => {
    expect(serviceAdapter(agents, { HTTPS_PROXY: "http://proxy:3128" })).toBe("http")
    expect(serviceAdapter(agents, { http_proxy: "http://proxy:3128" })).toBe("http")
    expect(typeof serviceAdapter(agents, {})).toBe("function")
  })
})

describe("serviceTransport on a kept-alive connection the service reset", () => {
  /**
   * An http server on loopback that answers each connection's first request and destroys the connection
   * at any later one, before answering: a service's idle timeout racing the reuse of its connection.
   */
  async function resetting() {
    const seen: string[] = []
    const served = new WeakMap<object, number>()
    const server = http.createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`)
      const count = (served.get(req.socket) ?? 0) + 1
      served.set(req.socket, count)
      if (count > 1) return req.socket.destroy()
      res.end('{"success":true}')
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const kept = new http.Agent({ keepAlive: true, maxSockets: 1 })
    const client = axios.create({
      baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      timeout: 1000,
      validateStatus: () => true,
      adapter: serviceTransport({ http: kept, https: new https.Agent() }),
      transformResponse: [(data) => data],
      responseType: "text",
    })
    const close = async () => {
      kept.destroy()
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
    return { client, seen, close }
  }

  it("sends a read once more, on a fresh connection, and answers that", async () => {
    const { client, seen, close } = await resetting()
    try {
      expect((await client.get("/v1/invoice/pay_1/status")).data).toBe('{"success":true}')
      // the same kept-alive connection: reset at the second read, which goes again on a new one
      expect((await client.get("/v1/invoice/pay_1/status")).data).toBe('{"success":true}')
      expect(seen).toEqual(Array(3).fill("GET /v1/invoice/pay_1/status"))
    } finally {
      await close()
    }
  })

  it.each(["/v1/create_invoice", "/v1/create_payment"])(
    "never sends a create (POST %s) twice: its reset goes to the caller",
    async (path) => {
      const { client, seen, close } = await resetting()
      try {
        await client.get("/v1/merchant/balance")
        await expect(client.post(path, "{}")).rejects.toMatchObject({ code: "ECONNRESET" })
        expect(seen).toEqual(["GET /v1/merchant/balance", `POST ${path}`])
      } finally {
        await close()
      }
    }
  )
})
