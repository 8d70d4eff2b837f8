/**
 * The statements a request sends, for docs/performance.md:
 * `node -r ts-node/register/transpile-only scripts/profile/session-statements.ts`.
 * Starts the development store with scripts/profile/statements.js preloaded and, one request at a time
 * after a warm-up, SESSIONS of each:
 * - WHAT=session (default): a payment session, crypto against pp_system_default;
 * - WHAT=after-payment: with placeOrder after_payment, the webhook of a paid crypto cart (which completes
 *   the cart and captures) against the completion of a cart with a pp_system_default session.
 * It prints per kind the median statements sent while the request was open and those sent in the second
 * after it (event delivery, say), then one crypto request's statements in order (EXAMPLES=all: each kind's). The job is kept out of
 * the way (its interval an hour; a tick in the window still adds its few statements, which the medians
 * leave out).
 */
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { setTimeout as sleep } from "node:timers/promises"
import axios from "axios"
import { startProfiledStore } from "./profiled-store"
import { shippedCart } from "../demo/checkout"
import { median } from "../lib/figures"

const SESSIONS = Number(process.env.SESSIONS ?? 20)
const WHAT = process.env.WHAT ?? "session"
const PROVIDERS = ["pp_crypto_crypto", "pp_system_default"]

type Noted = { at: number; sql: string }

async function main() {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "statements-")), "statements.jsonl")
  let stop: (() => Promise<void>) | undefined
  try {
    const store = await startProfiledStore("statements.js", {
      ...(WHAT === "after-payment" ? { CRYPTO_PLACE_ORDER: "after_payment" } : {}),
      STATEMENTS_FILE: file,
    })
    stop = store.stop
    const { running, api } = store
    let carts = 0
    const newSession = async (provider: string) => {
      const { cartId, collectionId } = await shippedCart(api, running.store, `statements${carts++}@example.com`)
      const timed = async (work: () => Promise<unknown>) => {
        const started = Date.now()
        await work()
        return { started, ended: Date.now() }
      }
      const create = () =>
        api.post(`/store/payment-collections/${collectionId}/payment-sessions`, {
          provider_id: provider,
          ...(provider === "pp_crypto_crypto" ? { data: { currency: "BTC" } } : {}),
        })
      return { cartId, create, timed }
    }
    /** The request measured: a session's creation, or (after-payment) the webhook or the system completion. */
    const session = async (provider: string) => {
      const { cartId, create, timed } = await newSession(provider)
      if (WHAT !== "after-payment") return timed(create)
      const { data } = await create()
      if (provider !== "pp_crypto_crypto") return timed(() => api.post(`/store/carts/${cartId}/complete`, {}))
      const paymentId = data.payment_collection.payment_sessions.find(
        (s: { provider_id: string }) => s.provider_id === provider
      ).data.paymentId as string
      await running.control.pay(paymentId)
      await running.control.confirm(paymentId)
      const webhookUrl = (await running.control.payment(paymentId)).webhookUrl!
      return timed(async () => {
        const answer = await axios.post(webhookUrl, { paymentId })
        if (answer.data?.applied !== "capture") throw new Error(`the webhook applied ${answer.data?.applied}`)
      })
    }
    /** Every process's statements noted since the last mark. */
    const collect = async (): Promise<Noted[]> => {
      const before = fs.existsSync(file) ? fs.readFileSync(file, "utf8").length : 0
      fs.writeFileSync(`${file}.mark`, String(Date.now()))
      await sleep(400)
      const added = fs.readFileSync(file, "utf8").slice(before).trim()
      return added ? added.split("\n").flatMap((line) => JSON.parse(line).statements as Noted[]) : []
    }
    for (const provider of PROVIDERS) for (let i = 0; i < 3; i++) await session(provider)
    for (const provider of PROVIDERS) {
      const inRequest: number[] = []
      const after: number[] = []
      const took: number[] = []
      let example: Noted[] = []
      for (let i = 0; i < SESSIONS; i++) {
        await sleep(1200)
        await collect()
        const span = await session(provider)
        await sleep(1000)
        const noted = (await collect()).sort((a, b) => a.at - b.at)
        // the cart's own requests came before `started`: only the session's request and what followed it
        const during = noted.filter((s) => s.at >= span.started && s.at <= span.ended)
        inRequest.push(during.length)
        after.push(noted.filter((s) => s.at > span.ended).length)
        took.push(span.ended - span.started)
        if (i === Math.floor(SESSIONS / 2)) example = during
      }
      process.stdout.write(
        `${provider}: ${median(inRequest)} statements in the request (min ${Math.min(...inRequest)}, max ${Math.max(...inRequest)}), ${median(after)} in the second after it; ${median(took)} ms (median, with the preload)\n`
      )
      if (provider === "pp_crypto_crypto" || process.env.EXAMPLES === "all")
        for (const s of example) process.stdout.write(`    ${s.sql.slice(0, 150)}\n`)
    }
  } finally {
    await stop?.()
  }
}

main().catch((error) => {
  console.error(`session-statements failed: ${(error as Error).message}`)
  process.exitCode = 1
})
