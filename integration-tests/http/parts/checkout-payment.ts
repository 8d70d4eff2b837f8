import type { CryptoSuite } from "../../helpers/runner"
import type { SandboxHandle } from "../../helpers/sandbox"
import { Modules } from "@medusajs/framework/utils"
import {
  addCryptoSession,
  addItemByOrderEdit,
  adminOrder,
  completeCart,
  createCryptoCart,
  CryptoStore,
  failing,
  ordersOfCart,
  paidCryptoOrder,
  payInFull,
  startCryptoSession,
} from "../../helpers/checkout"
import { createCart, createStockedProduct, CRYPTO_PROVIDER_ID } from "../../helpers/store"
import { holdReconciliationInEachTest, notifyFromService, readByJob } from "../../helpers/reconciliation"
import { CRYPTO_PAYMENT_MODULE, CryptoPaymentModuleService } from "../../../src/modules/crypto-payment"
import { coinText, coinUnits } from "../../../src/lib/domain/money"
import { baseFor, rateOf } from "../../../src/lib/domain/owed"
import { ledgerRowOf } from "../../helpers/ledger"

/** Medusa's payment module's own door to a provider (what its refundPayment calls once its refund row is written). */
type ProviderCalls = { refundPayment(providerId: string, input: Record<string, unknown>): Promise<unknown> }

const BTC_MAINNET = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"
const btc = (text: string | null | undefined) => coinUnits(text ?? "0", "BTC")
/** BTC amounts compared as text (a failed assertion on a bigint cannot be reported across jest's workers). */
const sumBtc = (texts: Array<string | null | undefined>) =>
  coinText(
    texts.reduce((sum, t) => sum + btc(t), 0n),
    "BTC"
  )
/** Today's export period, as the admin asks it. */
const TODAY = () => {
  const from = new Date(Date.now() - 86_400_000).toISOString()
  const to = new Date(Date.now() + 86_400_000).toISOString()
  return `from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`
}

/**
 * Every coin accounted for, part three (issue 44): one checkout's money spread over a first payment and
 * its remainder is one payment wherever it is priced, capped or netted, and the admin's actions on owed
 * coins carry what the admin saw. Each test is named after the item of the issue it holds.
 */
export function checkoutPaymentTests(
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

  afterEach(async () => {
    await api
      .post("/admin/crypto/settings", { underpayment_tolerance_percent: null }, shop.admin)
      .catch(() => undefined)
  })

  const cryptoPayment = (): CryptoPaymentModuleService => getContainer().resolve(CRYPTO_PAYMENT_MODULE)
  const row = (paymentId: string) => ledgerRowOf(getContainer(), paymentId)
  const notify = (paymentId: string) => notifyFromService(sandbox.control(), paymentId)
  const adminPayment = async (paymentId: string) =>
    (await api.get(`/admin/crypto/payments/${paymentId}`, shop.admin)).data.payment
  const requestRemainder = (paymentId: string) =>
    api.post(`/admin/crypto/payments/${paymentId}/remainder`, {}, shop.admin)
  const payout = (paymentId: string, owedId: string, address: string) =>
    api.post(`/admin/crypto/payments/${paymentId}/owed/${owedId}/payout`, { address }, shop.admin)
  const linkOf = async (paymentId: string, owedId: string) =>
    (await api.get(`/admin/crypto/payments/${paymentId}/owed/${owedId}/link`, shop.admin)).data.link
  const exported = async (query: string) => {
    const res = await api.get(`/admin/crypto/payments/export?${query}`, {
      ...shop.admin,
      responseType: "arraybuffer",
    })
    const [header, ...lines] = Buffer.from(res.data)
      .toString("utf8")
      .replace(/^\uFEFF/, "")
      .split("\r\n")
    const columns = header.split(",")
    // no cell of these lines holds a comma or a quote: split as they are
    return lines.filter(Boolean).map((line) => Object.fromEntries(line.split(",").map((v, i) => [columns[i], v])))
  }

  /**
   * A paid order edited to add an item; its outstanding amount paid short in BTC, confirmed, expired:
   * the first payment, its session closed and its coins owed back as late.
   */
  async function shortFirstPayment() {
    const { order } = await paidCryptoOrder(api, shop, sandbox.control())
    await addItemByOrderEdit(api, shop, order.id)
    const outstanding = (await adminOrder(api, shop, order.id)).payment_collections.find(
      (c: { status: string }) => c.status === "not_paid"
    )
    const session = await addCryptoSession(api, shop, outstanding.id, { currency: "BTC" })
    const first: string = session.data.paymentId
    await sandbox.control().pay(first, { mode: "partial" })
    await sandbox.control().confirm(first)
    await sandbox.control().expire(first)
    expect((await notify(first)).data).toMatchObject({ applied: "cancel_session" })
    const owed = await cryptoPayment().ledger.listOwed([first])
    expect(owed).toEqual([expect.objectContaining({ kind: "late", coin_amount: (await row(first)).received_amount })])
    return { order, outstanding, first, late: owed[0] }
  }

  it("1. a remainder end to end: short, expired, remainder paid, captured, refunded in full from Medusa's admin, basis chosen; every figure shown", async () => {
    const { order, outstanding, first } = await shortFirstPayment()
    const remainder: string = (await requestRemainder(first)).data.payment.id
    await payInFull(sandbox.control(), remainder)
    expect((await notify(remainder)).data).toMatchObject({ applied: "capture" })
    expect((await adminOrder(api, shop, order.id)).payment_status).toBe("captured")
    // the first payment's coins paid the order with its remainder: no longer owed back
    expect(await cryptoPayment().ledger.listOwed([first, remainder])).toEqual([])
    const F = await row(first)
    const R = await row(remainder)
    const required = F.required_amount!
    expect(sumBtc([F.received_amount, R.received_amount])).toBe(required)
    expect(btc(F.received_amount) < btc(required)).toBe(true)

    // refunded in full from Medusa's admin: the whole checkout's coins are owed, on the first payment
    const paid = (await adminOrder(api, shop, order.id)).payment_collections.find(
      (c: { id: string }) => c.id === outstanding.id
    ).payments[0]
    await api.post(`/admin/payments/${paid.id}/refund`, { amount: paid.amount }, shop.admin)
    const refunded = await adminPayment(first)
    expect(refunded.refund.records).toEqual([
      expect.objectContaining({ kind: "refund", coin_amount: required, base_amount: F.base_amount }),
    ])
    expect((await adminPayment(remainder)).refund.records).toEqual([])
    const [record] = refunded.refund.records

    // the admin picks "rate at payment" with a 1 % fee: the fee comes off the checkout's coins, not the first payment's
    const fee = (btc(required) + 99n) / 100n
    const net = coinText(btc(required) - fee, "BTC")
    const chosen = (
      await api.post(
        `/admin/crypto/payments/${first}/owed/${record.id}/basis`,
        { basis: "rate_then", fee_percent: "1" },
        shop.admin
      )
    ).data.payment
    expect(chosen.refund).toMatchObject({ owed: true, owed_now: net, owed_now_base: F.base_amount, coin: "BTC" })
    expect(chosen.refund.records[0]).toMatchObject({
      coin_amount: net,
      basis: "rate_then",
      fee_percent: "1",
      basis_chosen_by_name: expect.any(String),
    })

    // the customer's refund page
    const link = await linkOf(first, record.id)
    const page = (
      await api.get(`/store/crypto/refunds`, {
        headers: { ...shop.store.storeHeaders.headers, "x-crypto-refund-token": link.token },
      })
    ).data.refund
    expect(page).toMatchObject({
      kind: "refund",
      coin: "BTC",
      coin_amount: net,
      store_amount: F.base_amount,
      store_currency: F.base_currency,
    })

    // the accountant's export: both payments, the remainder naming its checkout's first payment
    const payments = await exported(TODAY())
    const lineOf = (id: string) => payments.find((l) => l.payment_id === id)!
    expect(lineOf(first)).toMatchObject({
      required,
      received: F.received_amount,
      refunded_coin: net,
      owed_coin: net,
      owed_store: F.base_amount,
      remainder_of: "",
    })
    expect(lineOf(remainder)).toMatchObject({ received: R.received_amount, remainder_of: first, owed_coin: "" })
    const checkoutLines = payments.filter((l) => l.payment_id === first || l.remainder_of === first)
    expect(sumBtc(checkoutLines.map((l) => l.received))).toBe(required)
    const refunds = await exported(`${TODAY()}&kind=refunds`)
    expect(refunds.find((l) => l.owed_id === record.id)).toMatchObject({
      payment_id: first,
      kind: "refund",
      coin_amount: net,
      store_amount: F.base_amount,
      basis: "rate_then",
      fee_percent: "1",
    })
  })

  it("2. a late record whose payout started is never completed by a remainder; an open remainder holds the payout", async () => {
    const { first, late } = await shortFirstPayment()
    const link = await linkOf(first, late.id)
    await api.post(
      `/store/crypto/refunds`,
      { token: link.token, coin: "BTC", address: BTC_MAINNET },
      shop.store.storeHeaders
    )

    // a remainder is open: if it is paid, these coins pay the order, so the payout waits
    const remainder: string = (await requestRemainder(first)).data.payment.id
    const held = await failing(payout(first, late.id, BTC_MAINNET))
    expect(held.status).toBe(400)
    expect(held.data.message).toMatch(new RegExp(`remainder ${remainder} of this checkout is still open`))
    expect((await cryptoPayment().ledger.listOwed([first]))[0].payout_started_at).toBeNull()

    // it expired unpaid: the payout starts, and from then on no remainder may complete these coins
    await sandbox.control().expire(remainder)
    await notify(remainder)
    expect((await payout(first, late.id, BTC_MAINNET)).status).toBe(200)
    const refused = await failing(requestRemainder(first))
    expect(refused.status).toBe(400)
    expect(refused.data.message).toMatch(/being sent back to the customer/)
    expect(await cryptoPayment().ledger.listOwed([first])).toEqual([
      expect.objectContaining({ id: late.id, kind: "late", payout_started_at: expect.any(Date), sent_at: null }),
    ])
  })

  it("3. a remainder's capture that made no order owes what arrived on the checkout once, netted with the refund Medusa's compensation recorded", async () => {
    const stocked = await createStockedProduct(api, shop.admin, shop.store.salesChannel.id, { stocked: 1 })
    const cartOf = () => createCart(api, shop.store, shop.region.id, stocked.variantId, 1, "us")
    const mine = await cartOf()
    const { session } = await startCryptoSession(api, shop, mine.id, { currency: "BTC" })
    const first: string = session.data.paymentId
    await sandbox.control().pay(first, { mode: "partial" })
    await sandbox.control().confirm(first)
    await sandbox.control().expire(first)
    await notify(first)
    const remainder: string = (await requestRemainder(first)).data.payment.id

    // meanwhile someone else buys the last unit
    const theirs = await cartOf()
    const { session: other } = await startCryptoSession(api, shop, theirs.id, { currency: "BTC" })
    await payInFull(sandbox.control(), other.data.paymentId)
    await completeCart(api, shop, theirs.id)

    await payInFull(sandbox.control(), remainder)
    expect((await notify(remainder)).status).toBe(200)
    expect(await ordersOfCart(getContainer(), mine.id)).toEqual([])
    expect(await row(remainder)).toMatchObject({ captured_no_order: true, needs_attention: true })

    const arrived = sumBtc([(await row(first)).received_amount, (await row(remainder)).received_amount])
    const owedNow = async () => (await cryptoPayment().ledger.listOwed([first, remainder])).filter((r) => !r.sent_at)
    const expectOwedOnce = async () => {
      const open = await owedNow()
      expect(sumBtc(open.map((r) => r.coin_amount))).toBe(arrived)
      expect(open.every((r) => r.payment_id === first)).toBe(true)
    }
    await expectOwedOnce()
    // read again by the job: nothing more is owed
    await readByJob(getContainer(), remainder)
    await readByJob(getContainer(), first)
    await expectOwedOnce()
  })

  it("5. mark sent marks the records the admin saw, with their coins: one written meanwhile stays owed; changed coins are a 409, the old bodies a 400", async () => {
    const { order, paymentId } = await paidCryptoOrder(api, shop, sandbox.control())
    const paid = (await adminOrder(api, shop, order.id)).payment_collections[0].payments[0]
    const refund = (amount: number) => api.post(`/admin/payments/${paid.id}/refund`, { amount }, shop.admin)
    const sent = (body: Record<string, unknown>) =>
      api.post(`/admin/crypto/payments/${paymentId}/refund-sent`, body, shop.admin)
    type Shown = { id: string; coin_amount: string | null; sent_at: string | null }
    const asSeen = (r: Shown) => ({ id: r.id, coin_amount: r.coin_amount })
    const nothingSent = async () =>
      expect((await cryptoPayment().ledger.listOwed([paymentId])).every((r) => !r.sent_at)).toBe(true)
    await refund(5)
    await refund(5)
    const read = await adminPayment(paymentId)
    const seen = read.refund.records.map(asSeen)
    const seenIds = seen.map((r: { id: string }) => r.id)
    // written between reading "send …" and pressing the button
    await refund(5)

    // the bodies before owed (the total read as of a time, the one open record, ids without their coins): 400
    for (const body of [
      { total: "0.00000001", as_of: new Date().toISOString() },
      { reference: "0xold" },
      { owed_ids: seenIds },
    ]) {
      const old = await failing(sent(body))
      expect(old.status).toBe(400)
      expect(old.data.message).toContain("Send owed: [{ id, coin_amount }]")
    }
    await nothingSent()

    // the coins of a record the admin saw changed since (a 1 % fee chosen meanwhile): 409, nothing sent
    await api.post(
      `/admin/crypto/payments/${paymentId}/owed/${seenIds[0]}/basis`,
      { basis: "rate_then", fee_percent: "1" },
      shop.admin
    )
    const changed = await failing(sent({ owed: seen, reference: "0xstale" }))
    expect(changed.status).toBe(409)
    expect(changed.data).toMatchObject({
      type: "conflict",
      code: "crypto.changed_since_read",
      message: expect.stringContaining(`The amount owed changed since you read it: ${seenIds[0]} is now`),
    })
    await nothingSent()

    // read again: the records with the coins shown now
    const reread = (await adminPayment(paymentId)).refund.records as Shown[]
    const seenAgain = seenIds.map((id: string) => asSeen(reread.find((r) => r.id === id)!))
    expect(seenAgain[0].coin_amount).not.toBe(seen[0].coin_amount)
    const marked = (await sent({ owed: seenAgain, reference: "0xseen" })).data.payment
    const open = marked.refund.records.filter((r: Shown) => !r.sent_at)
    expect(open).toHaveLength(1)
    expect(seenIds).not.toContain(open[0].id)
    expect(marked.refund).toMatchObject({ owed: true, owed_now_base: "5.00" })
    expect(marked.flags).toContain("refund_owed")
    expect(marked.timeline.at(-1)).toMatchObject({ outcome: "refund_sent", note: expect.stringContaining("0xseen") })
    // the same records again: no longer open
    const again = await failing(sent({ owed: seenAgain }))
    expect(again.status).toBe(409)
    expect(again.data.message).toContain("is no longer owed")

    // the last open record, named with its coins
    const last = await sent({ owed: open.map(asSeen), reference: "0xlast" })
    expect(last.headers.deprecation).toBeUndefined()
    expect(last.data.payment.refund.owed).toBe(false)
    expect(last.data.payment.flags).not.toContain("refund_owed")
  })

  it("issue 65, 4. owed ETH is shown at the places a wallet sends, rounded down; marked sent with that figure it is settled in full, with less it is a 409", async () => {
    const cart = await createCryptoCart(api, shop)
    const { session } = await startCryptoSession(api, shop, cart.id, { currency: "ETH" })
    const { order } = await completeCart(api, shop, cart.id)
    const paymentId: string = session.data.paymentId
    await payInFull(sandbox.control(), paymentId)
    expect((await notify(paymentId)).data).toMatchObject({ applied: "capture" })
    const paid = (await adminOrder(api, shop, order.id)).payment_collections[0].payments[0]
    await api.post(`/admin/payments/${paid.id}/refund`, { amount: 10 }, shop.admin)

    const read = await adminPayment(paymentId)
    const [record] = read.refund.records
    const exact: string = record.coin_amount
    // 10 of 25 USD at the payment's rate: more places than a wallet sends ETH with
    expect(exact.replace(/0+$/, "").split(".")[1].length).toBeGreaterThan(8)
    const shown = exact.slice(0, exact.indexOf(".") + 9)
    const unit = 10n ** 10n // 0.00000001 ETH at ETH's 18 places
    const short = coinUnits(exact, "ETH") - coinUnits(shown, "ETH")
    expect(short > 0n && short < unit).toBe(true)
    expect(record).toMatchObject({ coin_amount: exact, coin_amount_sendable: shown })
    expect(read.refund).toMatchObject({ owed: true, owed_now: exact, owed_now_sendable: shown })
    // the customer's page shows the same figure, and the exact one beside it
    const link = await linkOf(paymentId, record.id)
    const page = (
      await api.get(`/store/crypto/refunds`, {
        headers: { ...shop.store.storeHeaders.headers, "x-crypto-refund-token": link.token },
      })
    ).data.refund
    expect(page).toMatchObject({ coin: "ETH", coin_amount: exact, coin_amount_sendable: shown })

    const sent = (coins: string, reference: string) =>
      api.post(
        `/admin/crypto/payments/${paymentId}/refund-sent`,
        { owed: [{ id: record.id, coin_amount: coins }], reference },
        shop.admin
      )
    // a unit less than shown is not what is owed: a 409, nothing marked
    const less = await failing(sent(coinText(coinUnits(shown, "ETH") - unit, "ETH"), "0xless"))
    expect(less.status).toBe(409)
    expect(less.data.message).toContain(`${record.id} is now ${exact} ETH`)
    expect((await cryptoPayment().ledger.listOwed([paymentId]))[0].sent_at).toBeNull()

    // the figure shown settles the record in full: nothing left owed, nothing flagged
    const marked = (await sent(shown, "0xshown")).data.payment
    expect(marked.refund).toMatchObject({ owed: false, owed_now: null, owed_now_sendable: null, reference: "0xshown" })
    expect(marked.flags).not.toContain("refund_owed")
    expect(marked.flags).not.toContain("mismatch")
    expect(marked.flags).not.toContain("needs_attention")
    expect(marked.timeline.at(-1)).toMatchObject({
      outcome: "refund_sent",
      note: `${shown} ETH owed to the customer marked sent (0xshown).`,
    })
    // the books keep the exact figure
    const refunds = await exported(`${TODAY()}&kind=refunds`)
    expect(refunds.find((l) => l.owed_id === record.id)).toMatchObject({ coin_amount: exact, reference: "0xshown" })
  })

  it("7. a remainder pair short within the tolerance is captured accepted short, though the remainder alone is not", async () => {
    await api.post("/admin/crypto/settings", { underpayment_tolerance_percent: 1 }, shop.admin)
    const { order, first } = await shortFirstPayment()
    const remainder: string = (await requestRemainder(first)).data.payment.id
    const required = btc((await row(first)).required_amount)
    const asked = btc((await row(remainder)).crypto_amount)
    // 0.8 % of the checkout short: 1.6 % of what the remainder asked, beyond the tolerance on its own
    const shortfall = (required * 8n) / 1000n
    expect(shortfall * 100n > asked).toBe(true)
    await sandbox.control().pay(remainder, { amount: coinText(asked - shortfall, "BTC") })
    await sandbox.control().confirm(remainder)
    await sandbox.control().expire(remainder)
    expect((await notify(remainder)).data).toMatchObject({ applied: "capture" })
    expect((await adminOrder(api, shop, order.id)).payment_status).toBe("captured")
    expect(await cryptoPayment().ledger.listOwed([first, remainder])).toEqual([])
    const shown = await adminPayment(remainder)
    expect(shown.flags).toContain("accepted_short")
    expect(shown.accepted_short).toMatchObject({ coin: "BTC", shortfall: coinText(shortfall, "BTC") })
  })

  it("7. concurrent refunds of an accepted-short payment never owe more than arrived together", async () => {
    await api.post("/admin/crypto/settings", { underpayment_tolerance_percent: 1 }, shop.admin)
    const cart = await createCryptoCart(api, shop)
    const { session } = await startCryptoSession(api, shop, cart.id, { currency: "BTC" })
    const { order } = await completeCart(api, shop, cart.id)
    const paymentId: string = session.data.paymentId
    const asked = btc(String(session.data.amount))
    await sandbox.control().pay(paymentId, { amount: coinText((asked * 995n) / 1000n, "BTC") })
    await sandbox.control().confirm(paymentId)
    await sandbox.control().expire(paymentId)
    expect((await notify(paymentId)).data).toMatchObject({ applied: "capture" })
    expect((await row(paymentId)).accepted_short).toBe(true)

    const paid = (await adminOrder(api, shop, order.id)).payment_collections[0].payments[0]
    const payments = getContainer().resolve(Modules.PAYMENT)
    const quarter = Number(paid.amount) / 4
    // through Medusa, which serializes its own refund rows but calls the provider after its lock...
    await Promise.all([1, 2].map(() => payments.refundPayment({ payment_id: paid.id, amount: quarter })))
    // ...and at the provider itself, as Medusa calls it, two at the very same moment
    const { data } = await payments.retrievePayment(paid.id, { select: ["data"] })
    const provider = (payments as unknown as { paymentProviderService_: ProviderCalls }).paymentProviderService_
    await Promise.all(
      ["ref_race_1", "ref_race_2"].map((key) =>
        provider.refundPayment(CRYPTO_PROVIDER_ID, { data, amount: quarter, context: { idempotency_key: key } })
      )
    )
    const refunds = (await cryptoPayment().ledger.listOwed([paymentId])).filter((r) => r.kind === "refund")
    expect(refunds).toHaveLength(4)
    expect(sumBtc(refunds.map((r) => r.coin_amount))).toBe(sumBtc([(await row(paymentId)).received_amount]))
  })

  it("issue 59, 3 and 6. a remainder of a remainder asks the checkout's shortfall at its first payment's rate; Medusa's reopen and close create nothing", async () => {
    // under a tolerance R1 is read with its first payment when its remainder is asked (where R2 was mispriced)
    await api.post("/admin/crypto/settings", { underpayment_tolerance_percent: 1 }, shop.admin)
    const { first } = await shortFirstPayment()
    const r1: string = (await requestRemainder(first)).data.payment.id
    // R1 gets half of what it asked, confirmed, and expires
    await sandbox.control().pay(r1, { amount: coinText(btc((await row(r1)).crypto_amount) / 2n, "BTC") })
    await sandbox.control().confirm(r1)
    await sandbox.control().expire(r1)
    await notify(r1)
    const r2: string = (await requestRemainder(r1)).data.payment.id
    const [F, R1, R2] = [await row(first), await row(r1), await row(r2)]
    expect(R2.remainder_of).toBe(r1)
    // the first payment's coins less what arrived on both, its store amount at the first payment's rate
    const missing = btc(F.required_amount) - btc(F.received_amount) - btc(R1.received_amount)
    expect(R2.crypto_amount).toBe(coinText(missing, "BTC"))
    expect(R2.base_amount).toBe(baseFor(rateOf(F)!, R2.crypto_amount!))
    expect((await adminPayment(r2)).base_amount).toBe(R2.base_amount)
    // the route's reopen passed the session's amount: no payment for the whole amount replaced R2
    const latest = async () => (await cryptoPayment().ledger.latestOfSession(F.session_id))?.payment_id
    expect(await latest()).toBe(r2)
    // nor does closing the session when R2 expires unpaid
    await sandbox.control().expire(r2)
    await notify(r2)
    expect(await latest()).toBe(r2)
  })
}
