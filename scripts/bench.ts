/**
 * npm run bench — what the shared status cache saves the payment service, measured in one run:
 * many storefront tabs poll the status of the same payments; count the reads that reach the
 * (sandbox) service with the cache and without it, and print the ratio. Counts, not timings,
 * so the result does not depend on how busy the machine is.
 */
import { startSandbox, SandboxControl } from "../src/sandbox"
import { CryptoApiClient } from "../src/lib/crypto-api/client"
import { SharedReadCache } from "../src/lib/status-cache"

const PAYMENTS = 5
const TABS_PER_PAYMENT = 40
const POLLS_PER_TAB = 10
const TTL_MS = 200

async function main() {
  const sandbox = await startSandbox({ apiKey: "bench_key" })
  const control = new SandboxControl(sandbox.url)
  const client = new CryptoApiClient({ baseUrl: sandbox.url, apiKey: "bench_key", timeoutMs: 5000 })
  const ids: string[] = []
  for (let i = 0; i < PAYMENTS; i++) ids.push((await client.createPayment({ amount: 10 + i, amountCurrency: "USD", currency: "BTC" })).paymentId)

  async function run(read: (id: string) => Promise<unknown>): Promise<{ requests: number; upstream: number; ms: number }> {
    await control.clearRequests()
    const started = Date.now()
    let requests = 0
    await Promise.all(
      ids.flatMap((id) =>
        Array.from({ length: TABS_PER_PAYMENT }, async () => {
          for (let poll = 0; poll < POLLS_PER_TAB; poll++) {
            await read(id)
            requests++
            await new Promise((resolve) => setTimeout(resolve, 50))
          }
        })
      )
    )
    return { requests, upstream: (await control.requests("/status")).length, ms: Date.now() - started }
  }

  const direct = await run((id) => client.getStatus(id))
  const cache = new SharedReadCache<unknown>(() => TTL_MS)
  const cached = await run((id) => cache.get(id, () => client.getStatus(id)))

  const line = (name: string, r: { requests: number; upstream: number; ms: number }) =>
    `${name.padEnd(14)} ${String(r.requests).padStart(6)} polls → ${String(r.upstream).padStart(5)} service reads (${(r.upstream / r.requests).toFixed(3)} per poll) in ${r.ms} ms`
  console.log(`${PAYMENTS} payments × ${TABS_PER_PAYMENT} tabs × ${POLLS_PER_TAB} polls, 50 ms apart; cache TTL ${TTL_MS} ms`)
  console.log(line("without cache", direct))
  console.log(line("shared cache", cached))
  console.log(`service reads saved: ${(direct.upstream / Math.max(1, cached.upstream)).toFixed(1)}× fewer with the shared cache`)
  await sandbox.close()
}

main().catch((error) => {
  console.error(error)
  process.exitCode = 1
})
