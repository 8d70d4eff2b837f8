/**
 * Where an after_payment webhook's time goes, against a plain cart completion, for docs/performance.md:
 * `node -r ts-node/register/transpile-only scripts/profile/after-payment-cpu.ts`.
 * Starts the development store (placeOrder after_payment) with scripts/profile/cpu-profile.js preloaded, sends
 * ORDERS webhooks of paid crypto carts, CONCURRENCY at once, then completes ORDERS carts with a
 * pp_system_default session the same way, then ORDERS paid crypto carts completed by the storefront (the
 * webhook's floor: one status read, the completion and its capture), and cuts the server's CPU profile to each
 * window. It prints each window's wall time and busy CPU per order, the self time by package, and the inclusive
 * time of the frames that name a workflow step or a module call (per order). PROFILE_OUT keeps the profile.
 */
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { execFileSync } from "node:child_process"
import { setTimeout as sleep } from "node:timers/promises"
import axios from "axios"
import { startProfiledStore } from "./profiled-store"
import { shippedCart } from "../demo/checkout"

const ORDERS = Number(process.env.ORDERS ?? 40)
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 10)
const TOP = Number(process.env.TOP ?? 30)

type Node = {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  children?: number[]
}
type Profile = { nodes: Node[]; startTime: number; samples: number[]; timeDeltas: number[] }
type Window = { name: string; from: bigint; to: bigint }

const now = () => process.hrtime.bigint() / 1000n

function where(url: string): string {
  const modules = url.lastIndexOf("node_modules/")
  if (modules >= 0) {
    const rest = url.slice(modules + "node_modules/".length).split("/")
    return rest[0].startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0]
  }
  if (url.includes("/src/")) return `plugin ${url.slice(url.indexOf("/src/") + 1)}`
  if (url.startsWith("node:") || !url) return url || "(native)"
  return url
}

function analyse(profile: Profile, windows: Window[], orders: number) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const parent = new Map<number, number>()
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  let t = BigInt(profile.startTime)
  const times = profile.samples.map((_, i) => (t += BigInt(profile.timeDeltas[i])))
  for (const w of windows) {
    const self = new Map<string, number>()
    const inclusive = new Map<string, number>()
    let busy = 0
    let total = 0
    profile.samples.forEach((id, i) => {
      if (times[i] < w.from || times[i] > w.to) return
      const dt = Number(profile.timeDeltas[i + 1] ?? profile.timeDeltas[i]) / 1000
      total += dt
      const node = byId.get(id)!
      const name = node.callFrame.functionName
      if (name === "(idle)" || name === "(program)") return
      busy += dt
      const pkg = name === "(garbage collector)" ? "(gc)" : where(node.callFrame.url)
      self.set(pkg, (self.get(pkg) ?? 0) + dt)
      const seen = new Set<string>()
      for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
        const f = byId.get(cur)!.callFrame
        if (!f.functionName || f.functionName.startsWith("(")) continue
        const key = `${f.functionName} ${where(f.url)}`
        if (seen.has(key)) continue
        seen.add(key)
        inclusive.set(key, (inclusive.get(key) ?? 0) + dt)
      }
    })
    const per = (v: number) => (v / orders).toFixed(1).padStart(7)
    process.stdout.write(
      `\n== ${w.name}: ${(Number(w.to - w.from) / 1000).toFixed(0)} ms wall for ${orders}; busy ${per(busy)} ms/order of ${per(total)}\n-- self by package (ms/order)\n`
    )
    for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 15)) process.stdout.write(`${per(v)}  ${k}\n`)
    process.stdout.write(`-- inclusive (ms/order)\n`)
    for (const [k, v] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, TOP))
      process.stdout.write(`${per(v)}  ${k}\n`)
  }
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cpu-"))
  let stop: (() => Promise<void>) | undefined
  try {
    const store = await startProfiledStore("cpu-profile.js", {
      CRYPTO_PLACE_ORDER: "after_payment",
      CPU_PROFILE_DIR: dir,
    })
    stop = store.stop
    const { running, api } = store
    let carts = 0
    /** A crypto cart paid in full at the service, nobody told: its cart and its payment's webhook URL. */
    const paidCryptoCart = async () => {
      const { cartId, collectionId } = await shippedCart(api, running.store, `cpu${carts++}@example.com`)
      const { data } = await api.post(`/store/payment-collections/${collectionId}/payment-sessions`, {
        provider_id: "pp_crypto_crypto",
        data: { currency: "BTC" },
      })
      const paymentId = data.payment_collection.payment_sessions[0].data.paymentId as string
      await running.control.pay(paymentId)
      await running.control.confirm(paymentId)
      return { cartId, webhookUrl: (await running.control.payment(paymentId)).webhookUrl! }
    }
    const paidCart = async () => (await paidCryptoCart()).webhookUrl
    /** A paid crypto cart the storefront completes itself: one status read, the completion and the capture. */
    const paidCartOnly = async () => (await paidCryptoCart()).cartId
    const systemCart = async () => {
      const { cartId, collectionId } = await shippedCart(api, running.store, `cpu${carts++}@example.com`)
      await api.post(`/store/payment-collections/${collectionId}/payment-sessions`, {
        provider_id: "pp_system_default",
      })
      return cartId
    }
    const webhook = async (url: string) => {
      const answer = await axios.post(url, {})
      if (answer.data?.applied !== "capture") throw new Error(`the webhook applied ${answer.data?.applied}`)
    }
    const complete = async (cartId: string) => {
      const { data } = await api.post(`/store/carts/${cartId}/complete`, {})
      if (data.type !== "order") throw new Error(`cart ${cartId} not completed`)
    }
    const batch = async <T>(items: T[], work: (item: T) => Promise<void>) => {
      const queue = [...items]
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item)
        })
      )
    }
    const prepare = async <T>(count: number, make: () => Promise<T>) => {
      const made: T[] = []
      for (let i = 0; i < count; i++) made.push(await make())
      return made
    }
    // warm-up: each path's code compiled and its caches filled
    await batch(await prepare(CONCURRENCY, paidCart), webhook)
    await batch(await prepare(CONCURRENCY, systemCart), complete)
    await batch(await prepare(CONCURRENCY, paidCartOnly), complete)
    const hooks = await prepare(ORDERS, paidCart)
    const systems = await prepare(ORDERS, systemCart)
    const paidCarts = await prepare(ORDERS, paidCartOnly)
    await sleep(1500)
    const windows: Window[] = []
    const timedWindow = async (name: string, work: () => Promise<void>) => {
      const from = now()
      await work()
      const to = now()
      windows.push({ name, from, to })
      await sleep(1500)
      // what the answers left to do (the outbox's batch, the emails): counted apart, per order of the window
      windows.push({ name: `${name}, the 1.5 s after`, from: to, to: now() })
    }
    await timedWindow("after_payment webhooks", () => batch(hooks, webhook))
    await timedWindow("system completions", () => batch(systems, complete))
    await timedWindow("storefront completions of paid crypto carts", () => batch(paidCarts, complete))
    // the server `medusa develop` started (signalling npx or develop itself could stop them)
    const servers = execFileSync("pgrep", ["-f", "@medusajs/cli/cli.js start"], { encoding: "utf8" })
    for (const pid of servers.trim().split("\n").map(Number)) process.kill(pid, "SIGUSR2")
    await sleep(3000)
    const files = fs.readdirSync(dir).map((f) => path.join(dir, f))
    // the server is the process whose profile was busy the most
    const busy = (p: Profile) => {
      const idle = new Set(p.nodes.filter((n) => n.callFrame.functionName === "(idle)").map((n) => n.id))
      return p.samples.filter((id) => !idle.has(id)).length
    }
    const profiles = files.map((f) => JSON.parse(fs.readFileSync(f, "utf8")) as Profile)
    const profile = profiles.sort((a, b) => busy(b) - busy(a))[0]
    if (process.env.PROFILE_OUT) fs.writeFileSync(process.env.PROFILE_OUT, JSON.stringify(profile))
    analyse(profile, windows, ORDERS)
  } finally {
    await stop?.()
  }
}

main().catch((error) => {
  console.error(`after-payment-cpu failed: ${(error as Error).stack}`)
  process.exitCode = 1
})
