import type { CryptoSuite } from "../../helpers/runner"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { holdReconciliation } from "../../helpers/reconciliation"
import { waitFor } from "../../helpers/wait"
import reconcileCryptoPayments from "../../../src/jobs/reconcile-crypto-payments"
import { CRYPTO_PAYMENT_MODULE, CryptoPaymentModuleService } from "../../../src/modules/crypto-payment"

const DAY_MS = 24 * 60 * 60 * 1000
const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS)

/**
 * Issue 45: the job deletes delivered events and finished customer emails older than the plugin's
 * retentionDays (the development store leaves it at its default, 90), and nothing else.
 */
export function retentionTests({ getContainer }: CryptoSuite) {
  let infos: string[] = []
  let warnings: string[] = []

  beforeEach(() => {
    infos = []
    warnings = []
    const logger = getContainer().resolve(ContainerRegistrationKeys.LOGGER)
    jest.spyOn(logger, "info").mockImplementation((message: string) => {
      infos.push(message)
    })
    jest.spyOn(logger, "warn").mockImplementation((message: string) => {
      warnings.push(message)
    })
  })

  afterEach(() => {
    jest.restoreAllMocks()
  })

  const db = () => getContainer().resolve(ContainerRegistrationKeys.PG_CONNECTION)
  const cryptoPayment = (): CryptoPaymentModuleService => getContainer().resolve(CRYPTO_PAYMENT_MODULE)

  /** An outbox row created and (unless null) delivered that many days ago; `claimed`: another process is delivering it. */
  const outboxRow = (id: string, created: number, delivered: number | null, claimed = false) =>
    db().raw(
      `insert into "crypto_payment_event" ("id", "event_key", "name", "crypto_payment_id", "payment_id",
           "created_at", "updated_at", "delivered_at", "claimed_until")
         values (?, ?, 'crypto_payment.created', ?, ?, ?, ?, ?, ?)`,
      [
        id,
        `pay_${id}:created`,
        `cryptopay_${id}`,
        `pay_${id}`,
        daysAgo(created),
        daysAgo(delivered ?? created),
        delivered === null ? null : daysAgo(delivered),
        claimed ? new Date(Date.now() + 3600_000) : null,
      ]
    )
  /** A customer-email record created `created` days ago, its status last written `updated` days ago. */
  const emailRow = (id: string, status: string, created: number, updated = created) =>
    db().raw(
      `insert into "crypto_payment_email" ("id", "payment_id", "kind", "template", "channel", "to", "status",
           "created_at", "updated_at")
         values (?, ?, 'paid', 'crypto-payment-paid', 'email', 'buyer@example.com', ?, ?, ?)`,
      [id, `pay_${id}`, status, daysAgo(created), daysAgo(updated)]
    )
  const outboxIds = async () =>
    ((await db().raw(`select "id" from "crypto_payment_event" order by "id"`)).rows as Array<{ id: string }>).map(
      (r) => r.id
    )
  const emailIds = async () =>
    ((await db().raw(`select "id" from "crypto_payment_email" order by "id"`)).rows as Array<{ id: string }>).map(
      (r) => r.id
    )
  const prunedLines = () => infos.filter((line) => line.includes(" pruned "))

  it("deletes delivered events and finished emails older than retentionDays, and nothing else", async () => {
    expect(cryptoPayment().retentionDays()).toBe(90)
    // no tick prunes while the rows go in: the one that prunes sees them all
    const release = await holdReconciliation(getContainer())
    try {
      await outboxRow("evt_old_delivered", 100, 100)
      await outboxRow("evt_delivered_91_days_ago", 95, 91)
      // never delivered (another process holds it): kept however old
      await outboxRow("evt_old_undelivered", 100, null, true)
      // created long ago but delivered within the retention: the age counts from delivery
      await outboxRow("evt_delivered_89_days_ago", 120, 89)
      await outboxRow("evt_fresh_delivered", 0, 0)

      await emailRow("mail_old_sent", "sent", 100)
      await emailRow("mail_old_skipped", "skipped", 100)
      await emailRow("mail_old_failed", "failed", 100)
      // its process died while sending: kept, so it is never sent twice
      await emailRow("mail_old_sending", "sending", 100)
      await emailRow("mail_sent_89_days_ago", "sent", 120, 89)
      await emailRow("mail_fresh_sent", "sent", 0)
    } finally {
      await release()
    }

    // the job's tick: ours, or the scheduled one if it took the tick's lock first (ours then skips); its
    // line is written once both tables are pruned
    await waitFor(
      async () => {
        await reconcileCryptoPayments(getContainer())
        return prunedLines()
      },
      (lines) => lines.length > 0,
      { what: "a reconciliation tick to prune" }
    )

    expect(await outboxIds()).toEqual(["evt_delivered_89_days_ago", "evt_fresh_delivered", "evt_old_undelivered"])
    expect(await emailIds()).toEqual(["mail_fresh_sent", "mail_old_sending", "mail_sent_89_days_ago"])
    const undelivered = await db().raw(`select "delivered_at" from "crypto_payment_event" where "id" = ?`, [
      "evt_old_undelivered",
    ])
    expect(undelivered.rows[0].delivered_at).toBeNull()
    expect(prunedLines()).toEqual([
      "medusa-payment-crypto: pruned 2 outbox rows and 3 email records older than 90 days",
    ])

    // what is left is not old enough: the next tick prunes nothing and says nothing
    infos = []
    await expect(cryptoPayment().pruneOld()).resolves.toEqual({ outbox: 0, emails: 0, days: 90 })
    await reconcileCryptoPayments(getContainer())
    expect(prunedLines()).toEqual([])
  })

  it("a pruning that fails is a warning: the tick goes on", async () => {
    jest.spyOn(cryptoPayment(), "pruneOld").mockRejectedValue(new Error("canceling statement due to statement timeout"))
    await waitFor(
      async () => {
        await expect(reconcileCryptoPayments(getContainer())).resolves.toBeUndefined()
        return warnings
      },
      (lines) => lines.some((line) => line.includes("not pruned")),
      { what: "a reconciliation tick to try pruning" }
    )
    expect(warnings).toContain(
      "medusa-payment-crypto: old events and email records not pruned: canceling statement due to statement timeout"
    )
    expect(prunedLines()).toEqual([])
  })
}
