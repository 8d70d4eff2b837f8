import type Medusa from "@medusajs/js-sdk"
import {
  COINS,
  paymentPageUrl,
  CryptoPaymentVerdict,
  CryptoPaymentView,
  cryptoPaymentVerdict,
  cryptoSessionOf,
  describeCryptoPayment,
  describeCryptoVerdict,
  formatTimeLeft,
  isCryptoPaymentFinal,
  isCryptoPaymentPaid,
  isTokenCoin,
  readyToCompleteCart,
  remainingAmount,
  VERDICTS,
  walletUriOf,
  watchCryptoPayment,
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
    ["100", "99.999", "0.001"],
    ["12", "3", "9"],
    ["1000", "999.99999999", "0.00000001"],
    ["0.00000010", "0.00000001", "0.00000009"],
  ])("what is still to send of %s after %s is %s, exactly", (required, received, rest) => {
    expect(remainingAmount({ requiredAmount: required, receivedAmount: received })).toBe(rest)
  })

  it("says nothing is left when the amount is not known yet", () => {
    expect(remainingAmount({ requiredAmount: null, receivedAmount: "0" })).toBe("0")
  })

  it("tells a customer who sent too little how much more to send, and where", () => {
    expect(describeCryptoPayment(view({ verdict: "short", receivedAmount: "0.001", underpaid: true }))).toEqual({
      verdict: "short",
      state: "underpaid",
      title: "Partly paid",
      detail:
        "0.001 of 0.0013 BTC received. Send the remaining 0.0003 BTC to the same address before the payment window closes.",
    })
  })

  describe("the verdict, not the service's status, says what happened", () => {
    it.each<[CryptoPaymentVerdict, CryptoPaymentView["status"], string, string]>([
      ["awaiting", "PENDING", "awaiting_funds", "Awaiting payment"],
      ["confirming", "PENDING", "confirming", "Confirming"],
      ["confirming", "COMPLETED", "confirming", "Confirming"],
      ["paid", "COMPLETED", "paid", "Paid"],
      ["short", "PENDING", "underpaid", "Partly paid"],
      ["expired", "EXPIRED", "expired", "Expired"],
      ["failed", "FAILED", "failed", "Failed"],
      ["needs_attention", "COMPLETED", "needs_attention", "Needs attention"],
    ])("%s (service %s) is shown as %s, %j", (verdict, status, state, title) => {
      const message = describeCryptoPayment(view({ verdict, status, receivedAmount: "0.0013" }))
      expect(message).toMatchObject({ verdict, state, title })
      expect(message.detail).not.toBe("")
    })

    it("says paid only on the verdict paid", () => {
      const paid = VERDICTS.filter((verdict) =>
        (["PENDING", "COMPLETED", "EXPIRED", "FAILED"] as const).some((status) =>
          isCryptoPaymentPaid(view({ verdict, status }))
        )
      )
      expect(paid).toEqual(["paid"])
      expect(isCryptoPaymentPaid(view({ verdict: "paid", status: "COMPLETED", final: true }))).toBe(true)
    })

    it("a COMPLETED payment the shop did not accept is not paid: the customer keeps the id and contacts the shop", () => {
      const refused = view({
        verdict: "needs_attention",
        status: "COMPLETED",
        final: true,
        receivedAmount: "0.0013",
      })
      expect(isCryptoPaymentPaid(refused)).toBe(false)
      expect(readyToCompleteCart(refused)).toBe(false)
      const message = describeCryptoPayment(refused)
      expect(message).toMatchObject({ state: "needs_attention", title: "Needs attention" })
      expect(message.detail).toMatch(/has been notified/)
      expect(message.detail).toContain("keep the payment id pay_1 and contact the shop")
      expect(message.detail).not.toMatch(/thank you/i)
    })

    it("a COMPLETED payment from a backend without verdicts is not paid, only confirming", () => {
      const legacy = view({ status: "COMPLETED", final: true, receivedAmount: "0.0013" })
      expect(legacy.verdict).toBeUndefined()
      expect(cryptoPaymentVerdict(legacy)).toBe("confirming")
      expect(isCryptoPaymentPaid(legacy)).toBe(false)
      expect(describeCryptoPayment(legacy)).toMatchObject({ state: "confirming", title: "Confirming" })
      // an after_payment checkout still completes its cart on it; the backend decides
      expect(readyToCompleteCart(legacy)).toBe(true)
    })

    it("reads an unknown verdict as a backend without verdicts would have sent it, never as paid", () => {
      const future = view({ verdict: "refunded" as CryptoPaymentVerdict, status: "COMPLETED", final: true })
      expect(cryptoPaymentVerdict(future)).toBe("confirming")
      expect(isCryptoPaymentPaid(future)).toBe(false)
    })

    it.each([
      ["paid", view({ verdict: "paid", status: "COMPLETED", final: true }), true],
      ["confirming after COMPLETED", view({ verdict: "confirming", status: "COMPLETED", final: false }), false],
      ["needs attention, still moving", view({ verdict: "needs_attention", status: "COMPLETED", final: false }), false],
      ["needs attention, settled", view({ verdict: "needs_attention", status: "COMPLETED", final: true }), true],
      ["expired", view({ verdict: "expired", status: "EXPIRED", final: true }), true],
      ["short", view({ verdict: "short", underpaid: true, final: false }), false],
    ])("final follows the view's final: %s", (_, input, final) => {
      expect(isCryptoPaymentFinal(input)).toBe(final)
    })

    it("tells a short payment's customer the exact rest to send", () => {
      const text = describeCryptoVerdict(
        view({ verdict: "short", receivedAmount: "0.1", requiredAmount: "0.3", currency: "ETH", underpaid: true })
      )
      expect(text).toMatchObject({ verdict: "short", title: "Partly paid" })
      expect(text.detail).toContain("Send the remaining 0.2 ETH to the same address")
    })

    it("names the coin of a USDT payment as a person would write it", () => {
      const text = describeCryptoVerdict(
        view({ verdict: "short", receivedAmount: "50", requiredAmount: "84", currency: "USDT_ERC20" })
      )
      expect(text.detail).toContain("Send the remaining 34 USDT ERC20")
    })

    it("an expired payment with money received sends the customer to the shop with the id", () => {
      const some = describeCryptoVerdict(
        view({ verdict: "expired", status: "EXPIRED", final: true, receivedAmount: "0.001", underpaid: true })
      )
      expect(some.detail).toContain("only 0.001 of 0.0013 BTC received")
      expect(some.detail).toContain("payment id pay_1")
      const none = describeCryptoVerdict(view({ verdict: "expired", status: "EXPIRED", final: true }))
      expect(none.detail).toMatch(/Start a new payment/)
      expect(none.detail).not.toContain("pay_1")
    })

    it("completes an after_payment cart on paid, or on COMPLETED the shop has yet to apply", () => {
      expect(readyToCompleteCart(view({ verdict: "paid", status: "COMPLETED", final: true }))).toBe(true)
      expect(readyToCompleteCart(view({ verdict: "confirming", status: "COMPLETED" }))).toBe(true)
      expect(readyToCompleteCart(view({ verdict: "confirming", status: "PENDING", receivedAmount: "0.0013" }))).toBe(
        false
      )
      expect(readyToCompleteCart(view({ verdict: "short", underpaid: true }))).toBe(false)
    })
  })

  it.each<[string, string, CryptoPaymentView]>([
    ["PENDING without a coin", "choose_coin", view({ currency: null, address: null, requiredAmount: null })],
    ["PENDING, nothing received", "awaiting_funds", view()],
    ["PENDING, part received", "underpaid", view({ receivedAmount: "0.001", underpaid: true })],
    ["PENDING, all received", "confirming", view({ receivedAmount: "0.0013", confirmations: 1 })],
    ["COMPLETED", "confirming", view({ status: "COMPLETED", final: true, receivedAmount: "0.0013" })],
    ["EXPIRED", "expired", view({ status: "EXPIRED", final: true })],
    ["FAILED", "failed", view({ status: "FAILED", final: true })],
  ])("without a verdict (an older backend), %s is shown as %s", (_, state, input) => {
    expect(describeCryptoPayment(input).state).toBe(state)
  })

  it("polls until the view is final, not until the service's status is", async () => {
    const answers: Array<Partial<CryptoPaymentView>> = [
      { verdict: "confirming", status: "COMPLETED", final: false },
      { verdict: "needs_attention", status: "COMPLETED", final: false },
      { verdict: "needs_attention", status: "COMPLETED", final: true },
    ]
    let reads = 0
    const sdk = {
      client: { fetch: async () => ({ payment: view(answers[Math.min(reads++, answers.length - 1)]) }) },
    } as unknown as Medusa
    const seen: CryptoPaymentView[] = []
    let stop = () => {}
    await new Promise<void>((resolve, reject) => {
      stop = watchCryptoPayment(
        sdk,
        "pay_1",
        (next) => {
          seen.push(next)
          if (next.final) resolve()
        },
        { intervalMs: 1, onError: reject }
      )
    })
    // a watcher that went on after the final view would read again within these milliseconds
    await new Promise((resolve) => setTimeout(resolve, 30))
    stop()
    expect(seen.map((v) => [v.verdict, v.final])).toEqual([
      ["confirming", false],
      ["needs_attention", false],
      ["needs_attention", true],
    ])
    expect(reads).toBe(3)
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

describe("6. the payment page link", () => {
  it("is only a web page: a javascript: or data: URL never goes in a link", () => {
    expect(paymentPageUrl({ invoiceUrl: "https://pay.example/i/1" })).toBe("https://pay.example/i/1")
    expect(paymentPageUrl({ invoiceUrl: "javascript:alert(1)" })).toBeUndefined()
    expect(paymentPageUrl({ invoiceUrl: "data:text/html,x" })).toBeUndefined()
    expect(paymentPageUrl({ invoiceUrl: null })).toBeUndefined()
  })
})

describe("the wallet URI: what the QR code and the wallet link carry", () => {
  const bip21 = "bitcoin:bc1qaddress?amount=0.0013"
  const rest = "bitcoin:bc1qaddress?amount=0.0003"
  const eip681 =
    "ethereum:0x55d398326f99059fF775485246999027B3197955@56/transfer?address=0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed&uint256=84000000000000000000"

  it("is the view's once there is one, the session's before", () => {
    expect(walletUriOf(view({ walletUri: rest }), { walletUri: bip21 })).toBe(rest)
    expect(walletUriOf(undefined, { walletUri: bip21 })).toBe(bip21)
    expect(walletUriOf(view({ walletUri: eip681 }), {})).toBe(eip681)
    expect(walletUriOf(view({ walletUri: "litecoin:ltc1qaddress?amount=1.5" }), {})).toBe(
      "litecoin:ltc1qaddress?amount=1.5"
    )
  })

  it("a view's null (nothing left to send, or no longer open) is not replaced by the session's", () => {
    expect(walletUriOf(view({ walletUri: null }), { walletUri: bip21 })).toBeNull()
  })

  it("a view from a backend older than it falls back on the session, which then has none either", () => {
    expect(walletUriOf(view(), { walletUri: bip21 })).toBe(bip21)
    expect(walletUriOf(view(), {})).toBeNull()
  })

  it("is never the service's qrCode, nor any scheme but bitcoin:, litecoin: and ethereum:", () => {
    expect(walletUriOf(view({ qrCode: "btc:bc1qaddress?amount=0.0013" }), {})).toBeNull()
    for (const uri of ["btc:bc1q?amount=1", "usdt_bep20:0xabc?amount=1", "javascript:alert(1)", "https://x.test"]) {
      expect(walletUriOf(view({ walletUri: uri }), {})).toBeNull()
    }
  })

  it("tells the tokens (a network line) from the coins on their own chain", () => {
    expect(COINS.filter(isTokenCoin)).toEqual(["USDT_ERC20", "USDT_BEP20"])
  })
})
