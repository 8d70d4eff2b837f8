import type { IncomingMessage, ServerResponse } from "node:http"

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

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body)
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
