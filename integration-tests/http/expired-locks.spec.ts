import { cryptoIntegrationRunner } from "../helpers/runner"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
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
        `insert into "locking" ("id", "owner_id", "expiration") values (?, 'crypto-a-killed-process', now() + make_interval(secs => ?))`,
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
      await leftLock(key, -1)

      const answer = await notifyFromService(sandbox.control(), paymentId)
      expect(answer.status).toBe(200)
      expect((await adminOrder(api, shop, orderId)).payment_status).toBe("captured")
      // taken and released by the capture: nothing of the dead process is left
      expect(await lockRow(key)).toBeUndefined()
    })

    it("leaves a lock whose time is not up, and one without an expiration, alone", async () => {
      const cryptoPayment: CryptoPaymentModuleService = getContainer().resolve(CRYPTO_PAYMENT_MODULE)
      await leftLock("crypto-collection:pay_col_live", 60)
      await db().raw(
        `insert into "locking" ("id", "owner_id", "expiration") values ('crypto-order:no_expiry', 'x', null)`
      )
      await leftLock("cart_expired", -5)

      expect(await cryptoPayment.clearExpiredLocks(["crypto-collection:pay_col_live", "crypto-order:no_expiry"])).toBe(
        0
      )
      expect(await cryptoPayment.clearExpiredLocks()).toBe(1)
      expect(await lockRow("crypto-collection:pay_col_live")).toBeDefined()
      expect(await lockRow("crypto-order:no_expiry")).toBeDefined()
      expect(await lockRow("cart_expired")).toBeUndefined()
    })

    it("the job ticks again after a process was killed during a tick: the tick's expired lock is cleared", async () => {
      const { paymentId, orderId } = await paidAwaitingOrder()
      await leftLock(RECONCILE_TICK_LOCK, -1)
      const cryptoPayment: CryptoPaymentModuleService = getContainer().resolve(CRYPTO_PAYMENT_MODULE)
      const row = await ledgerRowOf(getContainer(), paymentId)
      await cryptoPayment.updateCryptoPayments({ id: row.id, next_check_at: new Date(Date.now() - 1000) })

      await reconcileCryptoPayments(getContainer())
      expect((await adminOrder(api, shop, orderId)).payment_status).toBe("captured")
      expect(await lockRow(RECONCILE_TICK_LOCK)).toBeUndefined()
    })
  },
})
