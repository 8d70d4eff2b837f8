import {
  CryptoPaymentView,
  cryptoSessionOf,
  describeCryptoPayment,
  formatTimeLeft,
  remainingAmount,
} from "../../../../docs/storefront/crypto-payment"

const view = (over: Partial<CryptoPaymentView> = {}): CryptoPaymentView => ({
  paymentId: "pay_1",
  kind: "payment",
  status: "PENDING",
  final: false,
  confirmations: 0,
  requiredConfirmations: 3,
  receivedAmount: "0",
  requiredAmount: "0.0013",
  currency: "BTC",
  address: "bc1qaddress",
  qrCode: "btc:bc1qaddress?amount=0.0013",
  invoiceUrl: "https://pay.example.test/p/pay_1",
  expiresAt: "2026-11-22T12:00:00.000Z",
  underpaid: false,
  overpaid: false,
  checkedAt: "2026-11-22T11:00:00.000Z",
  ...over,
})

describe("storefront helpers (docs/storefront/crypto-payment.ts)", () => {
  it.each([
    ["0.0013", "0.001", "0.0003"],
    ["0.3", "0.1", "0.2"],
    ["84", "83.5", "0.5"],
    ["0.02584616", "0", "0.02584616"],
    ["1", "0.99999999", "0.00000001"],
    ["0.5", "0.5", "0"],
    ["0.5", "0.7", "0"],
  ])("what is still to send of %s after %s is %s, exactly", (required, received, rest) => {
    expect(remainingAmount({ requiredAmount: required, receivedAmount: received })).toBe(rest)
  })

  it("says nothing is left when the amount is not known yet", () => {
    expect(remainingAmount({ requiredAmount: null, receivedAmount: "0" })).toBe("0")
  })

  it("tells an underpaying customer how much more to send, and where", () => {
    expect(describeCryptoPayment(view({ receivedAmount: "0.001", underpaid: true }))).toEqual({
      state: "underpaid",
      title: "Partly paid",
      detail: "0.001 of 0.0013 BTC received. Send the remaining 0.0003 BTC to the same address.",
    })
  })

  it.each([
    ["PENDING without a coin", view({ currency: null, address: null, requiredAmount: null }), "choose_coin"],
    ["PENDING, nothing received", view(), "awaiting_funds"],
    ["PENDING, all received", view({ receivedAmount: "0.0013", confirmations: 1 }), "confirming"],
    ["COMPLETED", view({ status: "COMPLETED", final: true, receivedAmount: "0.0013" }), "paid"],
    ["EXPIRED", view({ status: "EXPIRED", final: true }), "expired"],
    ["FAILED", view({ status: "FAILED", final: true }), "failed"],
  ])("%s is shown as %s", (_, input, state) => {
    expect(describeCryptoPayment(input).state).toBe(state)
  })

  it.each([
    [59 * 60_000 + 7_000, "59:07"],
    [3_725_000, "1:02:05"],
    [999, "0:00"],
    [-5_000, "0:00"],
  ])("counts %i ms down as %s", (ms, text) => {
    expect(formatTimeLeft(ms)).toBe(text)
  })

  it("finds the crypto session among a collection's sessions, whatever the provider's id", () => {
    const data = { paymentId: "inv_1", kind: "invoice" }
    expect(
      cryptoSessionOf({
        payment_sessions: [
          { provider_id: "pp_system_default", data: {} },
          { provider_id: "pp_crypto_backup", data },
        ],
      })
    ).toBe(data)
    expect(cryptoSessionOf({ payment_sessions: [{ provider_id: "pp_system_default", data: {} }] })).toBeUndefined()
    expect(cryptoSessionOf(undefined)).toBeUndefined()
  })
})
