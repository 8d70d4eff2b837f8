import { cryptoIntegrationRunner } from "../helpers/runner"
import { Modules } from "@medusajs/framework/utils"
import { createAdminUser, AdminHeaders } from "../helpers/admin"
import { createRegion, createStoreAccess, CRYPTO_PROVIDER_ID, SYSTEM_PROVIDER_ID, StoreSetup } from "../helpers/store"

jest.setTimeout(120_000)

cryptoIntegrationRunner({
  testSuite: ({ api, getContainer }) => {
    describe("the development store with the crypto provider", () => {
      let admin: AdminHeaders
      let store: StoreSetup

      beforeEach(async () => {
        admin = await createAdminUser(api, getContainer())
        store = await createStoreAccess(api, admin)
      })

      it("registers the provider as pp_crypto_crypto in the payment module", async () => {
        const payment = getContainer().resolve(Modules.PAYMENT)
        const providers = await payment.listPaymentProviders({})
        expect(providers.map((p) => p.id)).toEqual(expect.arrayContaining([CRYPTO_PROVIDER_ID]))
      })

      it("lets an admin enable the provider in a region, and the store lists it there", async () => {
        const region = await createRegion(api, admin, {
          providers: [CRYPTO_PROVIDER_ID, SYSTEM_PROVIDER_ID],
        })
        const { data } = await api.get(`/store/payment-providers?region_id=${region.id}`, store.storeHeaders)
        expect(data.payment_providers.map((p: { id: string }) => p.id).sort()).toEqual(
          [CRYPTO_PROVIDER_ID, SYSTEM_PROVIDER_ID].sort()
        )
      })

      it("does not list the provider for a region that did not enable it", async () => {
        const region = await createRegion(api, admin, {
          name: "System only",
          providers: [SYSTEM_PROVIDER_ID],
        })
        const { data } = await api.get(`/store/payment-providers?region_id=${region.id}`, store.storeHeaders)
        expect(data.payment_providers.map((p: { id: string }) => p.id)).toEqual([SYSTEM_PROVIDER_ID])
      })
    })
  },
})
