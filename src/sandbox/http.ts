import { createServer, IncomingMessage, ServerResponse } from "node:http"
import type { AddressInfo, Socket } from "node:net"
import { stringifyJson } from "./json"

export const MAX_BODY_BYTES = 1024 * 1024

export class BodyTooLarge extends Error {}

export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on("data", (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) {
        reject(new BodyTooLarge())
        req.destroy()
        return
      }
      chunks.push(chunk)
    })
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
    req.on("error", reject)
  })
}

/** Answers with `body` as JSON; a JsonDecimal in it is written as its exact decimal text (./json.ts). */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {}
): void {
  const text = stringifyJson(body)
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
    ...headers,
  })
  res.end(text)
}

export function sendText(res: ServerResponse, status: number, contentType: string, text: string): void {
  res.writeHead(status, { "content-type": contentType, "content-length": Buffer.byteLength(text) })
  res.end(text)
}

/** The service's success envelope. */
export function ok(res: ServerResponse, data: unknown, message: string): void {
  sendJson(res, 200, { success: true, data, message, statusCode: 200 })
}

/** The service's error envelope. */
export function fail(
  res: ServerResponse,
  status: number,
  error: string,
  details?: Record<string, string>,
  headers: Record<string, string> = {}
): void {
  sendJson(res, status, { success: false, error, ...(details ? { details } : {}), statusCode: status }, headers)
}

/** Matches "/v1/invoice/:paymentId/status" style patterns; returns the named segments or null. */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split("/")
  const got = path.split("/")
  if (want.length !== got.length) return null
  const params: Record<string, string> = {}
  for (let i = 0; i < want.length; i++) {
    if (want[i].startsWith(":")) {
      if (!got[i]) return null
      params[want[i].slice(1)] = decodeURIComponent(got[i])
    } else if (want[i] !== got[i]) {
      return null
    }
  }
  return params
}

/** Parses a request body; an empty body is `undefined`, not an error. */
function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  if (!text) return { ok: true, value: undefined }
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch {
    return { ok: false }
  }
}

/** The request's body as text and as parsed JSON; undefined once a body too large has been answered with 413. */
export async function readRequest(
  req: IncomingMessage,
  res: ServerResponse
): Promise<{ raw: string; json: ReturnType<typeof parseJson> } | undefined> {
  let raw: string
  try {
    raw = await readBody(req)
  } catch (error) {
    if (error instanceof BodyTooLarge) {
      fail(res, 413, "Request body too large")
      return undefined
    }
    throw error
  }
  return { raw, json: parseJson(raw) }
}

/**
 * Listens on `port`/`host` with `handle` for every request; a handler that fails answers 500.
 * close() also ends the open sockets, so that keep-alive connections do not hold the server open.
 */
export async function serve(
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
  port: number,
  host: string
): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>()
  const server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      if (!res.headersSent) fail(res, 500, "Internal server error")
      // eslint-disable-next-line no-console
      console.error("sandbox error", error)
    })
  })
  server.on("connection", (socket) => {
    sockets.add(socket)
    socket.on("close", () => sockets.delete(socket))
  })
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(port, host, () => resolve())
  })
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        sockets.forEach((socket) => socket.destroy())
        server.close(() => resolve())
      }),
  }
}
