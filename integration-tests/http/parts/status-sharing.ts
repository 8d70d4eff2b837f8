import { Modules } from "@medusajs/framework/utils"
import type { CryptoSuite } from "../../helpers/runner"
import type { SandboxHandle } from "../../helpers/sandbox"
import { createCryptoCart, CryptoStore, startCryptoSession } from "../../helpers/checkout"
import { waitFor } from "../../helpers/wait"
import { CHOOSING_SHARE_SECONDS } from "../../../src/lib/domain/read-schedule"
import { checksummedAddress } from "../../../src/lib/domain/evm-address"

/**
 * What storefront polls cost the shop at the service under the default statusCacheSeconds (30): one read
 * per payment per 30 s whoever polls, except while an invoice's customer may be choosing its coin. The
 * file's configuration keeps the job out of the way and webhooks are off, so only the polls read.
 */
export function statusSharingTests(
  { api, getContainer }: CryptoSuite,
  sandbox: SandboxHandle,
  fileShop: () => CryptoStore
) {
  let shop: CryptoStore

  beforeEach(async () => {
    shop = fileShop()
    await sandbox.control().setWebhooks({ enabled: false })
  })

  const view = async (paymentId: string) =>
    (await api.get(`/store/crypto/payments/${paymentId}`, shop.store.storeHeaders)).data.payment
  const readsOf = async (paymentId: string) =>
    (await sandbox.control().requests(`/v1/invoice/${paymentId}/status`)).length
  const started = async (data?: Record<string, unknown>) => {
    const cart = await createCryptoCart(api, shop)
    const { session } = await startCryptoSession(api, shop, cart.id, data)
    return session
  }

  it("shows the coin chosen on the hosted page within CHOOSING_SHARE_SECONDS, while a pending payment's polls share one read", async () => {
    const invoiceId: string = (await started()).data.paymentId
    const paymentId: string = (await started({ currency: "BTC" })).data.paymentId
    expect(await view(invoiceId)).toMatchObject({ kind: "invoice", currency: null, address: null })
    expect(await view(paymentId)).toMatchObject({ kind: "payment", status: "PENDING" })
    expect([await readsOf(invoiceId), await readsOf(paymentId)]).toEqual([1, 1])

    await sandbox.control().select(invoiceId, "ETH")
    // a storefront polling both every second: the poll after the invoice's read is CHOOSING_SHARE_SECONDS old shows the coin
    const chosen = await waitFor(
      async () => (await Promise.all([view(invoiceId), view(paymentId)]))[0],
      (invoice) => invoice.currency !== null,
      { timeoutMs: (CHOOSING_SHARE_SECONDS + 3) * 1000, intervalMs: 1000, what: "the coin chosen" }
    )
    expect(chosen).toMatchObject({ currency: "ETH", address: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/) })
    expect(chosen.walletUri).toContain(chosen.address)
    expect(await readsOf(invoiceId)).toBe(2)

    // with its coin the invoice is shared for statusCacheSeconds like every open payment: polls for longer
    // than the short window read nothing more, and the payment's polls still share their first read
    await waitFor(
      async () => {
        await Promise.all([view(invoiceId), view(paymentId)])
        return Date.now()
      },
      (now) => now - Date.parse(chosen.checkedAt) > (CHOOSING_SHARE_SECONDS + 1) * 1000,
      { timeoutMs: (CHOOSING_SHARE_SECONDS + 3) * 1000, intervalMs: 1000, what: "the short window to pass" }
    )
    expect([await readsOf(invoiceId), await readsOf(paymentId)]).toEqual([2, 1])
  })

  it("hands out an ETH payment's address in its session data in EIP-55, as the status view and the wallet URI", async () => {
    const session = await started({ currency: "ETH" })
    const written = (await sandbox.control().payment(session.data.paymentId)).address!
    expect(written).toMatch(/^0x[0-9a-f]{40}$/)
    const shown = checksummedAddress(written)
    expect(shown).toMatch(/[A-F]/)
    expect(session.data.address).toBe(shown)
    expect(session.data.walletUri).toMatch(new RegExp(`^ethereum:${shown}@1\\?value=\\d+$`))
    // as Medusa keeps the session, and as the storefront's status view shows the payment
    const kept = await getContainer().resolve(Modules.PAYMENT).retrievePaymentSession(session.id)
    expect(kept.data?.address).toBe(shown)
    expect((await view(session.data.paymentId)).address).toBe(shown)
  })
}
