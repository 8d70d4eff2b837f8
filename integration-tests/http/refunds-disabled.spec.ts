import { cryptoIntegrationRunner } from "../helpers/runner"
import { useSandbox } from "../helpers/sandbox"
import { demoCheckoutTests } from "./parts/demo-checkout"
import { adminOrder, CryptoStore, failing, paidCryptoOrder, setupCryptoStore } from "../helpers/checkout"
import { claimMeetsOrderTests } from "./parts/cut-anywhere"

jest.setTimeout(120_000)

/**
 * Refunds disabled, the job slowed right down, a status read shared for 2 s (the storefront helpers' watch
 * sees each change sooner), and no shop in the database the tests start from: the demo's checkout seeds its
 * own regions (the United States and Europe), which a file's shop would hold.
 */
const sandbox = useSandbox({
  CRYPTO_RECONCILE_INTERVAL_SECONDS: "3600",
  CRYPTO_REFUNDS: "disabled",
  CRYPTO_STATUS_CACHE_SECONDS: "2",
})

cryptoIntegrationRunner({
  testSuite: (options) => {
    const { api, getContainer } = options
    describe("demo-checkout", () => demoCheckoutTests(options, sandbox))
    describe("claim-meets-order", () => {
      // each test's own shop: the database the file's tests start from holds none (see above)
      let shop: CryptoStore
      beforeEach(async () => {
        shop = await setupCryptoStore(api, getContainer())
      })
      claimMeetsOrderTests(options, sandbox, () => shop)
    })

    it('refuses a refund of a paid crypto order with refunds: "disabled", saying where refunds are sent', async () => {
      const shop = await setupCryptoStore(api, getContainer())
      await sandbox.control().setWebhooks({ enabled: false })
      const { order, session } = await paidCryptoOrder(api, shop, sandbox.control())
      const paid = await adminOrder(api, shop, order.id)
      expect(paid.payment_status).toBe("captured")

      const res = await failing(
        api.post(`/admin/payments/${paid.payment_collections[0].payments[0].id}/refund`, { amount: 25 }, shop.admin)
      )
      expect(res.status).toBe(400)
      expect(res.data.message).toMatch(/no refund API. Send the refund from the service's dashboard/)
      const { payment } = (await api.get(`/admin/crypto/payments/${session.data.paymentId}`, shop.admin)).data
      expect(payment.refund).toMatchObject({ owed: false, amount: null })
    })
  },
})
