import type { CryptoSuite } from "../../helpers/runner"
import type { SandboxHandle } from "../../helpers/sandbox"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import {
  adminOrder,
  completeCart,
  createCryptoCart,
  CryptoStore,
  failing,
  paidCryptoOrder,
  payInFull,
  startCryptoSession,
} from "../../helpers/checkout"
import { notifyFromService } from "../../helpers/reconciliation"
import { waitFor } from "../../helpers/wait"
import { holdReconciliationInEachTest } from "../../helpers/reconciliation"
import { CRYPTO_PAYMENT_MODULE, CryptoPaymentModuleService } from "../../../src/modules/crypto-payment"
import { signLegacyRefundToken } from "../../../src/lib/domain/refund-link"
import { signingKeyOf } from "../../../src/lib/domain/webhook-token"
import { SANDBOX_API_KEY } from "../../helpers/sandbox"

const BTC_MAINNET = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"
const BTC_OTHER = "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa"
const BTC_TESTNET = "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx"

/**
 * Issue 36: the customer's refund-address link per owed record (expiring, renewable), validated per
 * network, frozen once the admin starts the payout; the refund's basis chosen by the admin. Issue 45:
 * the link's token a secret of the record's own (re-issue revokes, no key mints one), out of every
 * path; the client read behind the shop's proxies; the admin recording an address.
 */
export function refundAddressesTests(
  { api, getContainer }: CryptoSuite,
  sandbox: SandboxHandle,
  fileShop: () => CryptoStore
) {
  let shop: CryptoStore
  holdReconciliationInEachTest(getContainer)

  beforeEach(async () => {
    shop = fileShop()
    await sandbox.control().setWebhooks({ enabled: false })
  })

  const cryptoPayment = (): CryptoPaymentModuleService => getContainer().resolve(CRYPTO_PAYMENT_MODULE)
  const adminPayment = async (paymentId: string) =>
    (await api.get(`/admin/crypto/payments/${paymentId}`, shop.admin)).data.payment
  /** A paid BTC order refunded $10 in Medusa: its owed record, its link, its payment. */
  async function refundedOrder() {
    const { order, paymentId } = await paidCryptoOrder(api, shop, sandbox.control())
    const email = `refund-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@example.com`
    await getContainer().resolve(Modules.ORDER).updateOrders(order.id, { email })
    const payment = (await adminOrder(api, shop, order.id)).payment_collections[0].payments[0]
    await api.post(`/admin/payments/${payment.id}/refund`, { amount: 10 }, shop.admin)
    const [owed] = (await adminPayment(paymentId)).refund.records
    const link = (await api.get(`/admin/crypto/payments/${paymentId}/owed/${owed.id}/link`, shop.admin)).data.link
    return { order, paymentId, owed, link, email }
  }
  /**
   * A link as they were before secrets: signed with the key the provider mints with here (derived from
   * the API key: these tests set neither webhookSecret nor CRYPTO_SECRETS_KEY).
   */
  const legacyTokenOf = async (owedId: string) => signLegacyRefundToken(owedId, signingKeyOf(SANDBOX_API_KEY))
  /** The store's headers with the link's token, and a client address of the test's own when given. */
  const withToken = (token: string, client?: string) => ({
    headers: {
      ...shop.store.storeHeaders.headers,
      "x-crypto-refund-token": token,
      ...(client ? { "x-forwarded-for": client } : {}),
    },
  })
  const page = (token: string, client?: string) => api.get(`/store/crypto/refunds`, withToken(token, client))
  const give = (token: string, body: Record<string, unknown>, client?: string) =>
    api.post(`/store/crypto/refunds`, body, withToken(token, client))

  it("a link per owed record shows what is owed; a bad, another's or an expired token is a 404; renewing brings it back", async () => {
    const { paymentId, owed, link } = await refundedOrder()
    expect(link).toMatchObject({
      token: expect.stringMatching(new RegExp(`^${owed.id}\\.[A-Za-z0-9_-]{43}$`)),
      url: `http://localhost:8000/crypto-refund#${link.token}`,
      path: `/crypto-refund#${link.token}`,
      expires_at: expect.any(String),
    })
    const days = (Date.parse(link.expires_at) - Date.now()) / 86_400_000
    expect(days).toBeGreaterThan(29.9)
    expect(days).toBeLessThanOrEqual(30)

    const { data } = await page(link.token)
    expect(data.refund).toEqual({
      kind: "refund",
      coin: "BTC",
      coin_amount: owed.coin_amount,
      // BTC's coins are at the places a wallet sends already
      coin_amount_sendable: owed.coin_amount,
      store_amount: "10.00",
      store_currency: "USD",
      networks: [expect.objectContaining({ coin: "BTC", network: "bitcoin", label: "Bitcoin", shares_format: false })],
      address: null,
      address_coin: null,
      can_change: true,
      sent: false,
      expires_at: link.expires_at,
    })
    // nothing of the order or the customer
    expect(JSON.stringify(data)).not.toMatch(/order_|@example\.com|pay_/)

    const [signature] = link.token.split(".").slice(-1)
    for (const bad of [
      "nonsense",
      // 3. signed as links were before, with the key the provider mints webhook tokens with: no key mints a link
      await legacyTokenOf(owed.id),
      `${owed.id}.${"A".repeat(43)}`,
      `cryptoowed_01ANOTHERRECORD0000000000.${signature}`,
      // a webhook token of the same payment's session: another context, refused
      new URL((await sandbox.control().payment(paymentId)).webhookUrl!).pathname.split("/").pop()!,
    ]) {
      const refused = await failing(page(bad))
      expect(refused.status).toBe(404)
      expect(refused.data.code).toBe("crypto.refund_link_not_found")
    }

    await cryptoPayment().updateCryptoOwedAmounts({ id: owed.id, link_expires_at: new Date(Date.now() - 1000) })
    expect((await failing(page(link.token))).status).toBe(404)
    const renewed = (await api.post(`/admin/crypto/payments/${paymentId}/owed/${owed.id}/link`, {}, shop.admin)).data
      .link
    expect(renewed.token).toBe(link.token)
    expect((await page(link.token)).status).toBe(200)
    // the admin copies the same open link again
    const again = (await api.get(`/admin/crypto/payments/${paymentId}/owed/${owed.id}/link`, shop.admin)).data.link
    expect(again.url).toBe(link.url)
  })

  it("2. a re-issued link revokes every earlier copy; the token rides in a header or the body, never the path", async () => {
    const { paymentId, owed, link } = await refundedOrder()
    const reissued = (
      await api.post(`/admin/crypto/payments/${paymentId}/owed/${owed.id}/link/reissue`, {}, shop.admin)
    ).data.link
    expect(reissued.token).not.toBe(link.token)
    expect(reissued.token.startsWith(`${owed.id}.`)).toBe(true)
    expect((await failing(page(link.token))).status).toBe(404)
    expect((await page(reissued.token)).data.refund.kind).toBe("refund")
    // the body may carry it where a client cannot set the header
    const inBody = await api.post(
      `/store/crypto/refunds`,
      { token: reissued.token, coin: "BTC", address: BTC_MAINNET },
      shop.store.storeHeaders
    )
    expect(inBody.data.refund.address).toBe("bc1qar…5mdq")
    // the path form is gone from the API: a token in a path is in every access log
    expect((await failing(api.get(`/store/crypto/refunds/${reissued.token}`, shop.store.storeHeaders))).status).toBe(
      404
    )
    // a form post (a cross-site page's) is refused before anything is read
    const form = await failing(
      api.post(`/store/crypto/refunds`, `coin=BTC&address=${BTC_OTHER}`, {
        headers: { ...withToken(reissued.token).headers, "content-type": "application/x-www-form-urlencoded" },
      })
    )
    expect(form.status).toBe(415)
    expect((await adminPayment(paymentId)).refund.records[0].refund_address).toBe(BTC_MAINNET)
  })

  it("4. guesses close the form for the client that made them, not for a customer behind another address", async () => {
    const { link } = await refundedOrder()
    const guesser = "203.0.113.66"
    const answers: number[] = []
    for (let i = 0; i < 21; i++)
      answers.push((await failing(page(`cryptoowed_01GUESS${i}.${"A".repeat(43)}`, guesser))).status)
    expect(answers.slice(0, 20)).toEqual(Array(20).fill(404))
    expect(answers[20]).toBe(429)
    // refused before any read, even with a good link
    expect((await failing(page(link.token, guesser))).status).toBe(429)
    // another customer behind the same proxy, told apart by the address the proxy saw
    expect((await page(link.token, "198.51.100.23")).status).toBe(200)
    // a forwarding entry that is no IP makes no key of its own: one shared "invalid" client
    for (let i = 0; i < 20; i++) await failing(page(`junk${i}`, `not-an-ip-${i}`))
    expect((await failing(page(link.token, "still-not-an-ip"))).status).toBe(429)
  })

  it("4. the admin records an address the customer gave by another channel, checked and logged with who", async () => {
    const { paymentId, owed, link } = await refundedOrder()
    const record = (body: Record<string, unknown>) =>
      api.post(`/admin/crypto/payments/${paymentId}/owed/${owed.id}/address`, body, shop.admin)
    const testnet = await failing(record({ coin: "BTC", address: BTC_TESTNET }))
    expect(testnet.status).toBe(400)
    expect(testnet.data).toMatchObject({ field: "address", reason: "testnet" })
    const recorded = (await record({ coin: "BTC", address: BTC_OTHER })).data.payment.refund.records[0]
    expect(recorded).toMatchObject({
      refund_address: BTC_OTHER,
      address_given_by: expect.stringMatching(/^user_/),
      address_changes: [expect.objectContaining({ address: BTC_OTHER, actor: expect.stringMatching(/^user_/) })],
    })
    // the customer's link shows it (masked)
    expect((await page(link.token)).data.refund.address).toBe("1A1zP1…vfNa")
    await api.post(`/admin/crypto/payments/${paymentId}/owed/${owed.id}/payout`, { address: BTC_OTHER }, shop.admin)
    expect((await failing(record({ coin: "BTC", address: BTC_MAINNET }))).status).toBe(400)
  })

  it("2. links emailed before links had secrets open until the expiry they had, and a re-issue ends them", async () => {
    const { paymentId, owed } = await refundedOrder()
    // the shape a record migrated from the HMAC links has: no secret yet, a legacy window
    await cryptoPayment().updateCryptoOwedAmounts({
      id: owed.id,
      link_secret: null,
      link_legacy_until: new Date(Date.now() + 86_400_000),
    })
    const legacy = await legacyTokenOf(owed.id)
    expect((await page(legacy)).data.refund.kind).toBe("refund")
    await cryptoPayment().updateCryptoOwedAmounts({ id: owed.id, link_legacy_until: new Date(Date.now() - 1000) })
    expect((await failing(page(legacy))).status).toBe(404)
    await cryptoPayment().updateCryptoOwedAmounts({
      id: owed.id,
      link_legacy_until: new Date(Date.now() + 86_400_000),
    })
    await api.post(`/admin/crypto/payments/${paymentId}/owed/${owed.id}/link/reissue`, {}, shop.admin)
    expect((await failing(page(legacy))).status).toBe(404)
  })

  it("validates the address for the network, logs each change, emails each, and freezes it once the payout started", async () => {
    const { paymentId, owed, link, email } = await refundedOrder()
    const testnet = await failing(give(link.token, { coin: "BTC", address: BTC_TESTNET }))
    expect(testnet.status).toBe(400)
    expect(testnet.data).toMatchObject({ field: "address", reason: "testnet", code: "crypto.refund_address_invalid" })
    expect(testnet.data.message).not.toContain(BTC_TESTNET)
    const wrongCoin = await failing(
      give(link.token, { coin: "ETH", address: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed" })
    )
    expect(wrongCoin.data).toMatchObject({ field: "coin" })
    expect((await failing(give(link.token, { coin: "BTC" }))).data).toMatchObject({ field: "address" })

    const saved = (await give(link.token, { coin: "BTC", address: BTC_MAINNET })).data.refund
    expect(saved).toMatchObject({ address: "bc1qar…5mdq", address_coin: "BTC", can_change: true })
    await give(link.token, { coin: "BTC", address: BTC_OTHER })
    // the same again changes nothing
    await give(link.token, { coin: "BTC", address: BTC_OTHER })

    const view = await adminPayment(paymentId)
    expect(view.refund.records[0]).toMatchObject({
      refund_address: BTC_OTHER,
      refund_coin: "BTC",
      address_given_by: "customer",
      address_changes: [
        expect.objectContaining({ address: BTC_MAINNET, actor: "customer" }),
        expect.objectContaining({ address: BTC_OTHER, actor: "customer" }),
      ],
    })

    // the link went out with the refund, and each address given is confirmed, masked
    const notifications = getContainer().resolve(Modules.NOTIFICATION)
    const emails = await waitFor(
      () => notifications.listNotifications({ to: email, template: "crypto-refund-address" }),
      (got) => got.length >= 3,
      { what: "the refund link and two confirmations" }
    )
    expect(emails).toHaveLength(3)
    const data = emails.map((n) => (n.data as { refund: Record<string, unknown> }).refund)
    expect(data.find((d) => d.address_masked === null)).toMatchObject({ link_url: link.url, owed_kind: "refund" })
    expect(data.filter((d) => d.address_masked).map((d) => d.address_masked)).toEqual(
      expect.arrayContaining(["bc1qar…5mdq", "1A1zP1…vfNa"])
    )
    expect(JSON.stringify(emails)).not.toContain(BTC_MAINNET)

    // 5. the admin starts the payout to the address they were shown: a changed one is a 409, nothing frozen
    const payout = (address: string) =>
      api.post(`/admin/crypto/payments/${paymentId}/owed/${owed.id}/payout`, { address }, shop.admin)
    const stale = await failing(payout(BTC_MAINNET))
    expect(stale.status).toBe(409)
    expect(stale.data).toMatchObject({
      type: "conflict",
      message: expect.stringMatching(/changed the refund address/),
    })
    expect(
      (await failing(api.post(`/admin/crypto/payments/${paymentId}/owed/${owed.id}/payout`, {}, shop.admin))).status
    ).toBe(409)
    expect((await adminPayment(paymentId)).refund.records[0].payout_started_at).toBeNull()
    expect((await payout(BTC_OTHER)).data.payment.refund.records[0]).toMatchObject({
      payout_started_at: expect.any(String),
      payout_started_by: expect.any(String),
      payout_started_by_name: expect.any(String),
    })
    const frozen = await failing(give(link.token, { coin: "BTC", address: BTC_MAINNET }))
    expect(frozen.status).toBe(409)
    expect(frozen.data.code).toBe("crypto.refund_address_frozen")
    expect((await page(link.token)).data.refund).toMatchObject({ can_change: false, address: "1A1zP1…vfNa" })
  })

  it("asks the customer to confirm the network when another takes the same address format (USDT on ERC-20)", async () => {
    const cart = await createCryptoCart(api, shop)
    const { session } = await startCryptoSession(api, shop, cart.id, { currency: "USDT_ERC20" })
    const { order } = await completeCart(api, shop, cart.id)
    const paymentId = session.data.paymentId
    await payInFull(sandbox.control(), paymentId)
    expect((await notifyFromService(sandbox.control(), paymentId)).data).toMatchObject({ applied: "capture" })
    const payment = (await adminOrder(api, shop, order.id)).payment_collections[0].payments[0]
    await api.post(`/admin/payments/${payment.id}/refund`, { amount: 5 }, shop.admin)
    const [owed] = (await adminPayment(paymentId)).refund.records
    const { token } = (await api.get(`/admin/crypto/payments/${paymentId}/owed/${owed.id}/link`, shop.admin)).data.link
    expect((await page(token)).data.refund.networks).toEqual([
      expect.objectContaining({ coin: "USDT_ERC20", label: "Ethereum (ERC-20)", shares_format: true }),
    ])
    const address = "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359"
    const unconfirmed = await failing(give(token, { coin: "USDT_ERC20", address }))
    expect(unconfirmed.data).toMatchObject({ field: "network_confirmed", reason: "network_unconfirmed" })
    const badChecksum = await failing(
      give(token, { coin: "USDT_ERC20", address: address.replace("fB69", "Fb69"), network_confirmed: true })
    )
    expect(badChecksum.data).toMatchObject({ field: "address", reason: "bad_checksum" })
    const saved = (await give(token, { coin: "USDT_ERC20", address, network_confirmed: true })).data.refund
    expect(saved).toMatchObject({ address_coin: "USDT_ERC20", address: "0xfB69…d359" })
  })

  it("6. after 500 address changes the admin still sees the newest, where the coins go now", async () => {
    const { paymentId, owed, link } = await refundedOrder()
    const db = getContainer().resolve(ContainerRegistrationKeys.PG_CONNECTION)
    await db.raw(
      `insert into "crypto_refund_address_change" ("id", "owed_id", "payment_id", "coin", "address", "actor", "created_at", "updated_at")
         select 'cryptoaddr_old' || n, ?, ?, 'BTC', ?, 'customer', now() - make_interval(secs => 600 - n), now()
         from generate_series(1, 500) n`,
      [owed.id, paymentId, BTC_OTHER]
    )
    await give(link.token, { coin: "BTC", address: BTC_MAINNET })
    const changes = (await adminPayment(paymentId)).refund.records[0].address_changes
    expect(changes).toHaveLength(500)
    expect(changes.at(-1)).toMatchObject({ address: BTC_MAINNET, actor: "customer" })
  })

  it("starts no payout without an address", async () => {
    const { paymentId, owed } = await refundedOrder()
    const refused = await failing(
      api.post(`/admin/crypto/payments/${paymentId}/owed/${owed.id}/payout`, {}, shop.admin)
    )
    expect(refused.status).toBe(400)
    expect(refused.data.message).toMatch(/not given a refund address yet/)
  })

  it("limits how often one link may give an address", async () => {
    const { link } = await refundedOrder()
    const answers: number[] = []
    for (let i = 0; i < 12; i++)
      answers.push((await failing(give(link.token, { coin: "BTC", address: BTC_TESTNET }))).status)
    expect(answers.slice(0, 10)).toEqual(Array(10).fill(400))
    expect(answers.slice(10)).toEqual([429, 429])
  })

  it("refunds on the basis the admin chooses: the payment's rate or fixed coins, less a fee, capped at what arrived", async () => {
    const { paymentId, owed } = await refundedOrder()
    const basis = (body: Record<string, unknown>) =>
      api.post(`/admin/crypto/payments/${paymentId}/owed/${owed.id}/basis`, body, shop.admin)
    const atRate = (await basis({ basis: "rate_then", fee_percent: "10" })).data.payment.refund.records[0]
    const units = (amount: string) => BigInt(amount.replace(".", ""))
    // 10% off the coins at the payment's rate, rounded in the shop's favour
    expect(units(atRate.coin_amount)).toBe(units(owed.coin_amount) - (units(owed.coin_amount) + 9n) / 10n)
    expect(atRate).toMatchObject({ basis: "rate_then", fee_percent: "10", basis_chosen_by: expect.any(String) })

    const fixed = (await basis({ basis: "fixed_coins", coins: "0.0001" })).data.payment.refund.records[0]
    expect(fixed).toMatchObject({ basis: "fixed_coins", coin_amount: "0.00010000", fee_percent: null })
    const capped = (await basis({ basis: "fixed_coins", coins: "5" })).data.payment.refund.records[0]
    expect(capped.coin_amount).toBe((await adminPayment(paymentId)).amount_received)
    expect((await failing(basis({ basis: "fixed_coins" }))).status).toBe(400)
    expect((await failing(basis({ basis: "rate_then", fee_percent: "101" }))).status).toBe(400)
  })
}
