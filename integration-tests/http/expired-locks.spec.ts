import { cryptoIntegrationRunner } from "../helpers/runner"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { useSandbox } from "../helpers/sandbox"
import {
  adminOrder,
  completeCart,
  createCryptoCart,
  CryptoStore,
  shopForFile,
  startCryptoSession,
} from "../helpers/checkout"
import { notifyFromService } from "../helpers/reconciliation"
import { RECONCILE_TICK_LOCK } from "../../src/jobs/_due-payments-runner"
import reconcileCryptoPayments from "../../src/jobs/reconcile-crypto-payments"
import { CRYPTO_PAYMENT_MODULE, CryptoPaymentModuleService } from "../../src/modules/crypto-payment"
import { ledgerRowOf } from "../helpers/ledger"
import { SWEEP_GRACE_SECONDS } from "../../src/modules/crypto-payment/lock-table"
import { LEASE_SECONDS } from "../../src/lib/runtime/lock-lease"
import { acquirePaymentLock, releasePaymentLock } from "../../src/workflows/steps/payment-lock"

jest.setTimeout(120_000)

// Postgres locking: a lock is a row of "locking", and the provider never gives another owner an expired one
const sandbox = useSandbox({ CRYPTO_RECONCILE_INTERVAL_SECONDS: "3600", CRYPTO_LOCKING: "postgres" })

cryptoIntegrationRunner({
  testSuite: ({ api, getContainer }) => {
    const fileShop = shopForFile({ api, getContainer })
    let shop: CryptoStore

    beforeEach(async () => {
      shop = fileShop()
    })

    const db = () => getContainer().resolve(ContainerRegistrationKeys.PG_CONNECTION)
    /** A lock as a process killed while holding it leaves it: its owner gone, its expiration `seconds` from now. */
    const leftLock = (key: string, seconds: number) =>
      db().raw(
        // over the row of a tick this process's job may be running right now
        `insert into "locking" ("id", "owner_id", "expiration") values (?, 'crypto-a-killed-process', now() + make_interval(secs => ?))
         on conflict ("id") do update set "owner_id" = excluded."owner_id", "expiration" = excluded."expiration"`,
        [key, seconds]
      )
    const lockRow = async (key: string) => (await db().raw(`select * from "locking" where "id" = ?`, [key])).rows[0]

    /** An order awaiting payment whose BTC payment the service completed, its notification not sent yet. */
    const paidAwaitingOrder = async () => {
      await sandbox.control().setWebhooks({ enabled: false })
      const cart = await createCryptoCart(api, shop)
      const { collectionId, session } = await startCryptoSession(api, shop, cart.id, { currency: "BTC" })
      const { order } = await completeCart(api, shop, cart.id)
      await sandbox.control().pay(session.data.paymentId)
      await sandbox.control().confirm(session.data.paymentId)
      return { collectionId, paymentId: session.data.paymentId as string, orderId: order.id as string }
    }

    it("a webhook captures although a killed process left its collection's lock, once the lock has expired", async () => {
      const { collectionId, paymentId, orderId } = await paidAwaitingOrder()
      const key = `crypto-collection:${collectionId}`
      // its lease ran out more than the sweep's grace ago
      await leftLock(key, -(SWEEP_GRACE_SECONDS + 1))

      const answer = await notifyFromService(sandbox.control(), paymentId)
      expect(answer.status).toBe(200)
      expect((await adminOrder(api, shop, orderId)).payment_status).toBe("captured")
      // taken and released by the capture: nothing of the dead process is left
      expect(await lockRow(key)).toBeUndefined()
    })

    it("clears only the plugin's and carts' locks expired for longer than the grace period", async () => {
      const cryptoPayment: CryptoPaymentModuleService = getContainer().resolve(CRYPTO_PAYMENT_MODULE)
      await leftLock("crypto-collection:pay_col_live", 60)
      await db().raw(
        `insert into "locking" ("id", "owner_id", "expiration") values ('crypto-order:no_expiry', 'x', null)`
      )
      // just expired: a live lease whose renewal is a moment late is never taken from its run
      await leftLock("crypto-collection:pay_col_late", -2)
      await leftLock("cart_expired", -(SWEEP_GRACE_SECONDS + 5))
      await leftLock("crypto-order:order_expired", -(SWEEP_GRACE_SECONDS + 5))
      // another module's lock is its own business
      await leftLock("another-module:job", -600)

      expect(await cryptoPayment.clearExpiredLocks(["crypto-collection:pay_col_live", "crypto-order:no_expiry"])).toBe(
        0
      )
      expect(await cryptoPayment.clearExpiredLocks()).toBe(2)
      expect(await lockRow("crypto-collection:pay_col_live")).toBeDefined()
      expect(await lockRow("crypto-order:no_expiry")).toBeDefined()
      expect(await lockRow("crypto-collection:pay_col_late")).toBeDefined()
      expect(await lockRow("another-module:job")).toBeDefined()
      expect(await lockRow("cart_expired")).toBeUndefined()
      expect(await lockRow("crypto-order:order_expired")).toBeUndefined()
      await db().raw(`delete from "locking"`)
    })

    it("holds a payment's lock as a lease: renewed by its owner only, and lapsed once it is gone", async () => {
      const container = getContainer()
      const cryptoPayment: CryptoPaymentModuleService = container.resolve(CRYPTO_PAYMENT_MODULE)
      const locking = container.resolve(Modules.LOCKING)
      const lock = await acquirePaymentLock(container, {
        keys: ["crypto-collection:pay_col_lease", "crypto-order:order_lease"],
        holdSeconds: 360,
        timeoutSeconds: 1,
      })
      try {
        const expiresIn = async (): Promise<Array<{ seconds: number; owner: string }>> =>
          (
            await db().raw(
              `select extract(epoch from ("expiration" - now())) as "seconds", "owner_id" from "locking" where "id" = any(?) order by "id"`,
              [lock.keys]
            )
          ).rows.map((r: { seconds: string; owner_id: string }) => ({ seconds: Number(r.seconds), owner: r.owner_id }))
        // taken for the lease, not the longest run
        for (const row of await expiresIn()) {
          expect(row.owner).toBe(lock.ownerId)
          expect(row.seconds).toBeGreaterThan(LEASE_SECONDS - 5)
          expect(row.seconds).toBeLessThanOrEqual(LEASE_SECONDS)
        }
        await db().raw(`update "locking" set "expiration" = now() + interval '3 seconds' where "id" = any(?)`, [
          lock.keys,
        ])
        // the owner's renewal extends both keys; another owner's extends nothing
        expect(await cryptoPayment.renewLock(locking, lock.keys, "crypto-someone-else", LEASE_SECONDS)).toBe(false)
        expect((await expiresIn()).every((row) => row.seconds <= 3)).toBe(true)
        expect(await cryptoPayment.renewLock(locking, lock.keys, lock.ownerId, LEASE_SECONDS)).toBe(true)
        expect((await expiresIn()).every((row) => row.seconds > LEASE_SECONDS - 5)).toBe(true)
        // a key swept away (the run's renewals failed for longer than the lease) is not won back by a renewal
        await db().raw(`delete from "locking" where "id" = ?`, [lock.keys[1]])
        expect(await cryptoPayment.renewLock(locking, lock.keys, lock.ownerId, LEASE_SECONDS)).toBe(false)
        expect(await lockRow(lock.keys[1])).toBeUndefined()
      } finally {
        await releasePaymentLock(container, lock)
      }
      expect(cryptoPayment.leases.get(lock.ownerId)).toBeUndefined()
    })

    it("the job ticks again after a process was killed during a tick: the tick's expired lock is cleared", async () => {
      const { paymentId, orderId } = await paidAwaitingOrder()
      await leftLock(RECONCILE_TICK_LOCK, -(SWEEP_GRACE_SECONDS + 1))
      const cryptoPayment: CryptoPaymentModuleService = getContainer().resolve(CRYPTO_PAYMENT_MODULE)
      const row = await ledgerRowOf(getContainer(), paymentId)
      await cryptoPayment.updateCryptoPayments({ id: row.id, next_check_at: new Date(Date.now() - 1000) })

      await reconcileCryptoPayments(getContainer())
      expect((await adminOrder(api, shop, orderId)).payment_status).toBe("captured")
      expect(await lockRow(RECONCILE_TICK_LOCK)).toBeUndefined()
    })
  },
})
