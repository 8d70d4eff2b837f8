import type { IncomingMessage, ServerResponse } from "node:http"

/** A request to the service's endpoints (or the ECB's file), as tests count and inspect them (the API key redacted). */
export type LoggedRequest = {
  at: string
  method: string
  path: string
  headers: Record<string, string | string[] | undefined>
  body: unknown
  status?: number
}

function redactHeaders(headers: IncomingMessage["headers"]): LoggedRequest["headers"] {
  const out: LoggedRequest["headers"] = { ...headers }
  if (out["x-api-key"] !== undefined) out["x-api-key"] = "[redacted]"
  return out
}

/** Logs a request to the service's endpoints (or the ECB's file); its status is filled in once the answer is sent. */
export function logRequest(
  requests: LoggedRequest[],
  req: IncomingMessage,
  res: ServerResponse,
  request: Pick<LoggedRequest, "method" | "path" | "body">
): void {
  const entry: LoggedRequest = { at: new Date().toISOString(), ...request, headers: redactHeaders(req.headers) }
  requests.push(entry)
  res.on("finish", () => (entry.status = res.statusCode))
}
