import type { MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import type { PluginLog } from "../../../../../lib/runtime/log"

/** A response as the stream writes it: Express's, with compression's `flush` when that middleware is on. */
type StreamedResponse = MedusaResponse & { flush?: () => void }

/**
 * One batch in memory at a time: the next is read once the last was handed to the socket. The first is
 * read before any header, so its failure is an ordinary error answer; a later failure destroys the
 * connection, so the client sees a broken transfer, not a short file that looks whole.
 */
export async function streamCsv(
  res: MedusaResponse,
  file: { name: string; chunks: AsyncGenerator<string, void> },
  log: PluginLog
): Promise<void> {
  const out = res as StreamedResponse
  let first: IteratorResult<string, void>
  try {
    first = await file.chunks.next()
  } catch (error) {
    log.error(`the accounting export could not read the ledger: ${(error as Error)?.message}`)
    throw new MedusaError(
      MedusaError.Types.UNEXPECTED_STATE,
      "The export could not read the crypto payments. Try again; if it keeps failing, the shop's log has the database's error."
    )
  }

  let closed = false
  let wake: (() => void) | undefined
  // one listener of each for the whole file (compression keeps drain listeners on its own stream,
  // where removing them from the response would not reach)
  out.on("drain", () => wake?.())
  out.on("close", () => {
    closed = true
    wake?.()
  })
  const drained = () =>
    closed
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          wake = () => {
            wake = undefined
            resolve()
          }
        })

  out.status(200)
  out.setHeader("Content-Type", "text/csv; charset=utf-8")
  out.setHeader("Content-Disposition", `attachment; filename="${file.name}"`)
  // the dashboard may be served from another origin: let it read the file's name
  out.setHeader("Access-Control-Expose-Headers", "Content-Disposition")
  out.setHeader("Cache-Control", "no-store")
  out.setHeader("X-Content-Type-Options", "nosniff")
  try {
    let chunk = first
    while (!chunk.done && !closed) {
      if (!out.write(chunk.value)) await drained()
      out.flush?.()
      if (!closed) chunk = await file.chunks.next()
    }
    if (closed) await file.chunks.return()
    else out.end()
  } catch (error) {
    log.error(`the accounting export failed after it started, the connection is closed: ${(error as Error)?.message}`)
    out.destroy(error as Error)
  }
}
