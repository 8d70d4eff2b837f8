import type { IncomingMessage } from "node:http"

/** Notifications are hints of a few hundred bytes: anything larger is refused with 413. */
export const NOTIFICATION_BODY_LIMIT = 16 * 1024

export type NotificationBody = { ok: true; hint: unknown } | { ok: false; status: 413 }

/**
 * Read here, not by Medusa's body parser, which would log a refused body with the path, and the path
 * holds the webhook token. A body that does not parse is an empty hint, never an error.
 */
export async function readNotificationBody(req: IncomingMessage): Promise<NotificationBody> {
  const declared = Number(req.headers["content-length"])
  if (declared > NOTIFICATION_BODY_LIMIT) return drained(req)
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    size += (chunk as Buffer).length
    if (size > NOTIFICATION_BODY_LIMIT) return drained(req)
    chunks.push(chunk as Buffer)
  }
  return { ok: true, hint: parsed(Buffer.concat(chunks).toString("utf8"), String(req.headers["content-type"] ?? "")) }
}

function parsed(text: string, contentType: string): unknown {
  if (!text.trim()) return {}
  if (/application\/x-www-form-urlencoded/i.test(contentType)) return Object.fromEntries(new URLSearchParams(text))
  try {
    return JSON.parse(text)
  } catch {
    return {}
  }
}

/** Refuses a body over the limit without keeping it; the rest of the stream is discarded. */
function drained(req: IncomingMessage): NotificationBody {
  req.resume()
  return { ok: false, status: 413 }
}
