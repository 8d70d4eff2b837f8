import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { runDuePayments, settledShare, type TickSteps } from "../_due-payments-runner"
import { CRYPTO_PAYMENT_MODULE } from "../../modules/crypto-payment"
import type { PaymentCore, PaymentReport } from "../../modules/crypto-payment/core"
import type { DuePayment } from "../../modules/crypto-payment/ledger"
import { CryptoApiError } from "../../lib/crypto-api/errors"
import { PAYMENT_LOCK_BUSY } from "../../workflows/steps/payment-lock"
import { failedReadDelaySeconds, FAILURES_BEFORE_ATTENTION } from "../../lib/domain/read-schedule"

/**
 * One tick of the reconciliation job with fakes for the ledger, the cores and the workflow: what it reads,
 * in which order, within which budget, and what a failure, a busy lock, a 404 and a 429 do to the payment
 * and to the job. The real scheduler, ledger and workflow run in integration-tests (ledger, reconciliation).
 */

const NOW = new Date("2026-11-29T12:00:00.000Z")
const INTERVAL = 20

type Outcome = "decided" | "none" | "missing" | "busy" | "fails" | "429"

function due(paymentId: string, failures = 0): DuePayment {
  return {
    id: `cryptopay_${paymentId}`,
    payment_id: paymentId,
    provider_id: "pp_crypto_crypto",
    check_failures: failures,
  }
}

function tick(
  rows: { open?: DuePayment[]; settled?: DuePayment[] },
  outcomes: Record<string, Outcome> = {},
  budget = 10
) {
  const calls = {
    read: [] as string[],
    dueLimits: [] as number[],
    readAgainAt: [] as Array<[string, Date]>,
    failures: [] as Array<[string, Date | undefined]>,
    missing: [] as string[],
    logs: [] as string[],
  }
  let pausedUntil = 0
  const failureCounts = new Map<string, number>()
  const ledger = {
    listDue: async (_now: Date, limit: number) => {
      calls.dueLimits.push(limit)
      return (rows.open ?? []).slice(0, limit)
    },
    listDueSettled: async (_now: Date, limit: number) => (rows.settled ?? []).slice(0, limit),
    readAgainAt: async (paymentId: string, at: Date) => void calls.readAgainAt.push([paymentId, at]),
    recordFailure: async (paymentId: string, _message: string, next: { nextCheckAt?: Date }) => {
      calls.failures.push([paymentId, next.nextCheckAt])
      const row = [...(rows.open ?? []), ...(rows.settled ?? [])].find((r) => r.payment_id === paymentId)
      const failures = (failureCounts.get(paymentId) ?? row?.check_failures ?? 0) + 1
      failureCounts.set(paymentId, failures)
      return { failures, firstFlag: failures === FAILURES_BEFORE_ATTENTION }
    },
    recordMissing: async (paymentId: string) => {
      calls.missing.push(paymentId)
      return { firstTime: true }
    },
  }
  const module = {
    ledger,
    reconciliationPausedUntil: () => pausedUntil,
    pauseReconciliation: (until: number) => (pausedUntil = Math.max(pausedUntil, until)),
  }
  const logger = Object.fromEntries(
    ["debug", "info", "warn", "error"].map((level) => [level, (line: string) => calls.logs.push(`${level}: ${line}`)])
  )
  const container = {
    resolve: (key: string) => ({ [CRYPTO_PAYMENT_MODULE]: module, [ContainerRegistrationKeys.LOGGER]: logger })[key],
  } as unknown as MedusaContainer
  const core = {
    providerId: "pp_crypto_crypto",
    options: { reconcileIntervalSeconds: INTERVAL, reconcileBatchSize: budget },
    report: async (paymentId: string): Promise<PaymentReport | null> => {
      calls.read.push(paymentId)
      const outcome = outcomes[paymentId] ?? "decided"
      if (outcome === "fails") throw new Error("service down")
      if (outcome === "429")
        throw new CryptoApiError("http", "rate limited", {
          method: "GET",
          path: "/v1/status",
          status: 429,
          retryAfterMs: 90_000,
        })
      const policy = { reconcileIntervalSeconds: INTERVAL } as PaymentReport["policy"]
      if (outcome === "missing") return { paymentId, sessionId: "payses", policy }
      return { paymentId, sessionId: "payses", policy, assessment: { outcome: "paid" } as PaymentReport["assessment"] }
    },
  } as unknown as PaymentCore
  const steps: TickSteps = {
    cores: async () => [core],
    apply: async (input) => {
      const outcome = outcomes[input.payment_id] ?? "decided"
      if (outcome === "busy") throw new MedusaError(MedusaError.Types.CONFLICT, `${PAYMENT_LOCK_BUSY}: held`)
      return { decision: { action: outcome === "none" ? "none" : "capture" } }
    },
  }
  return {
    calls,
    run: (tickHeld?: () => boolean) => runDuePayments(container, NOW, steps, tickHeld),
    pausedUntil: () => pausedUntil,
  }
}

describe("one reconciliation tick", () => {
  it("reads the open payments due, then the settled ones within their share, and counts what changed", async () => {
    const { calls, run } = tick({ open: [due("a"), due("b")], settled: [due("s1"), due("s2")] }, { b: "none" }, 10)
    expect(settledShare(10)).toBe(1)
    const report = await run()
    expect(calls.read).toEqual(["a", "b", "s1"])
    expect(report).toEqual({
      loaded: 3,
      checked: 3,
      failed: 0,
      changed: 2,
      rateLimited: false,
      paused: false,
      tickLost: false,
    })
  })

  it("stops before its next read once the tick's lease is lost", async () => {
    const { calls, run } = tick({ open: [due("a"), due("b")], settled: [due("s1")] }, {}, 10)
    let reads = 0
    const report = await run(() => reads++ < 1)
    expect(calls.read).toEqual(["a"])
    expect(report).toMatchObject({ checked: 1, tickLost: true })
    expect(calls.logs.some((line) => line.startsWith("warn:") && line.includes("reconciliation tick stopped"))).toBe(
      true
    )
  })

  it("keeps the settled share free of open payments, except with a budget of one", async () => {
    const open = Array.from({ length: 20 }, (_, i) => due(`o${i}`))
    const busy = tick({ open, settled: [due("s1")] }, {}, 10)
    await busy.run()
    expect(busy.calls.dueLimits).toEqual([9])
    expect(busy.calls.read).toEqual([...open.slice(0, 9).map((r) => r.payment_id), "s1"])

    const one = tick({ open, settled: [due("s1")] }, {}, 1)
    await one.run()
    expect(one.calls.read).toEqual(["o0"])
  })

  it("postpones a payment whose lock is busy to the next interval without counting a failure", async () => {
    const { calls, run } = tick({ open: [due("a"), due("b")] }, { a: "busy" })
    const report = await run()
    expect(calls.readAgainAt).toEqual([["a", new Date(NOW.getTime() + INTERVAL * 1000)]])
    expect(calls.failures).toEqual([])
    expect(calls.read).toEqual(["a", "b"])
    expect(report.failed).toBe(1)
  })

  it("backs a failed read off by its failures so far, raises attention at the threshold, and goes on with the next", async () => {
    const { calls, run } = tick({ open: [due("a", FAILURES_BEFORE_ATTENTION - 1), due("b")] }, { a: "fails" })
    await run()
    const delay = failedReadDelaySeconds(INTERVAL, FAILURES_BEFORE_ATTENTION)
    expect(calls.failures).toEqual([["a", new Date(NOW.getTime() + delay * 1000)]])
    expect(calls.read).toEqual(["a", "b"])
    expect(calls.logs).toEqual(
      expect.arrayContaining([
        `warn: medusa-payment-crypto: reconciliation of a failed (service down); next try in ${delay} s`,
        `warn: medusa-payment-crypto: payment a needs attention: ${FAILURES_BEFORE_ATTENTION} runs failed in a row`,
      ])
    )
  })

  it("flags a payment the service does not know without running the workflow", async () => {
    const { calls, run } = tick({ open: [due("a")] }, { a: "missing" })
    const report = await run()
    expect(calls.missing).toEqual(["a"])
    expect(report.changed).toBe(0)
    expect(calls.logs).toContain(
      "warn: medusa-payment-crypto: the service does not know payment a (404); flagged for attention"
    )
  })

  it("stops at a 429 and pauses every tick until Retry-After", async () => {
    const t = tick({ open: [due("a"), due("b")], settled: [due("s1")] }, { a: "429" })
    const report = await t.run()
    expect(report).toMatchObject({ rateLimited: true, checked: 1 })
    expect(t.calls.read).toEqual(["a"])
    expect(t.pausedUntil()).toBe(NOW.getTime() + 90_000)
    expect(t.calls.failures.map(([id, at]) => [id, at?.getTime()])).toEqual([["a", NOW.getTime() + 90_000]])

    const paused = await t.run()
    expect(paused).toMatchObject({ paused: true, checked: 0 })
    expect(t.calls.read).toEqual(["a"])
  })
})
