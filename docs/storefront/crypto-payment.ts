/**
 * Storefront helpers for medusa-payment-crypto, framework-agnostic (use them from the Next.js
 * starter's server actions or client components). Tested by integration-tests/http/demo-checkout.spec.ts,
 * and used by the demo storefront (scripts/demo/storefront) that the browser test buys through.
 */
import type Medusa from "@medusajs/js-sdk"
import type { HttpTypes } from "@medusajs/types"

export const CRYPTO_PROVIDER_ID = "pp_crypto_crypto"
export const COINS = ["BTC", "ETH", "LTC", "USDT_ERC20", "USDT_BEP20"] as const
export type Coin = (typeof COINS)[number]
/** What to call each coin in front of a customer. */
export const COIN_NAMES: Record<Coin, string> = {
  BTC: "Bitcoin",
  ETH: "Ether",
  LTC: "Litecoin",
  USDT_ERC20: "USDT on Ethereum (ERC20)",
  USDT_BEP20: "USDT on BNB Chain (BEP20)",
}

/** The public session data the provider stores (session.data). */
export type CryptoSessionData = {
  paymentId: string
  kind: "invoice" | "payment"
  invoiceUrl: string
  expiresAt: string
  status: string
  /** When the shop places the order (the provider's `placeOrder` option): the checkout follows it. */
  placeOrder: "before_payment" | "after_payment"
  /** The cart's total as the service was asked for it, e.g. "84.00" "USD". */
  baseAmount: string
  baseCurrency: string
  /** Invoice: what each coin would cost (decimal text), before the customer picks one. */
  quotes?: Partial<Record<Coin, string>>
  amount?: number
  currency?: Coin
  address?: string
  qrCode?: string
}

/** GET /store/crypto/payments/:paymentId */
export type CryptoPaymentView = {
  paymentId: string
  kind: "invoice" | "payment"
  status: "PENDING" | "COMPLETED" | "EXPIRED" | "FAILED"
  final: boolean
  confirmations: number
  requiredConfirmations: number | null
  receivedAmount: string
  requiredAmount: string | null
  currency: Coin | null
  address: string | null
  qrCode: string | null
  invoiceUrl: string
  expiresAt: string
  underpaid: boolean
  overpaid: boolean
  checkedAt: string
}

/**
 * Starts the crypto payment of a cart. Without a coin the customer gets a multi-coin invoice
 * (send them to `invoiceUrl`); with one, a single-coin payment (show `address`, `amount`, `qrCode`).
 * Call it when the cart is final: a later change of total drops the session.
 */
export async function startCryptoPayment(
  sdk: Medusa,
  cart: HttpTypes.StoreCart,
  coin?: Coin
): Promise<CryptoSessionData> {
  const { payment_collection } = await sdk.store.payment.initiatePaymentSession(cart, {
    provider_id: CRYPTO_PROVIDER_ID,
    ...(coin ? { data: { currency: coin } } : {}),
  })
  const session = payment_collection.payment_sessions?.find((s) => s.provider_id === CRYPTO_PROVIDER_ID)
  if (!session) throw new Error("the crypto payment session was not created")
  return session.data as unknown as CryptoSessionData
}

type WithSessions = { payment_sessions?: Array<{ provider_id: string; data?: Record<string, unknown> | null }> | null }

/**
 * The crypto session data of a payment collection: the cart's (`cart.payment_collection`) or the
 * order's (`order.payment_collections[0]`; retrieve the order with `fields: "*payment_collections.payment_sessions"`).
 * The provider id is `pp_crypto_<id>`: `pp_crypto_crypto` unless the shop gave its provider another id.
 */
export function cryptoSessionOf(collection: WithSessions | null | undefined): CryptoSessionData | undefined {
  const session = collection?.payment_sessions?.find(
    (s) => s.provider_id.startsWith("pp_crypto_") && typeof s.data?.paymentId === "string"
  )
  return session?.data as unknown as CryptoSessionData | undefined
}

/** One read of the shared, cached status (every tab of every customer shares one upstream read). */
export async function fetchCryptoPayment(sdk: Medusa, paymentId: string): Promise<CryptoPaymentView> {
  const { payment } = await sdk.client.fetch<{ payment: CryptoPaymentView }>(
    `/store/crypto/payments/${encodeURIComponent(paymentId)}`
  )
  return payment
}

/** The QR code as SVG markup (the route needs the publishable key, so fetch it rather than <img src>). */
export async function fetchCryptoQrSvg(sdk: Medusa, paymentId: string): Promise<string> {
  // with an Accept other than JSON the SDK hands back the raw Response
  const response = await sdk.client.fetch<Response>(`/store/crypto/payments/${encodeURIComponent(paymentId)}/qr`, {
    headers: { accept: "image/svg+xml" },
  })
  return response.text()
}

/**
 * Polls until the payment is final, calling `onUpdate` with each view. Every 5–10 s is plenty: the
 * server shares one read of the service per `statusCacheSeconds` between all pollers, and a webhook's
 * news reaches them at once. Returns a function that stops polling.
 */
export function watchCryptoPayment(
  sdk: Medusa,
  paymentId: string,
  onUpdate: (view: CryptoPaymentView) => void,
  { intervalMs = 10_000, onError = (_: unknown) => {} } = {}
): () => void {
  let stopped = false
  let timer: ReturnType<typeof setTimeout> | undefined
  const tick = async () => {
    try {
      const view = await fetchCryptoPayment(sdk, paymentId)
      if (stopped) return
      onUpdate(view)
      if (view.final) return
    } catch (error) {
      onError(error)
    }
    if (!stopped) timer = setTimeout(tick, intervalMs)
  }
  void tick()
  return () => {
    stopped = true
    if (timer) clearTimeout(timer)
  }
}

export type CryptoPaymentMessage = {
  state: "choose_coin" | "awaiting_funds" | "underpaid" | "confirming" | "paid" | "expired" | "failed"
  title: string
  detail: string
}

/** What to tell the customer for a status. Never treat a return from the hosted page as payment: only this. */
export function describeCryptoPayment(view: CryptoPaymentView): CryptoPaymentMessage {
  const coin = view.currency ?? ""
  switch (view.status) {
    case "COMPLETED":
      return {
        state: "paid",
        title: "Payment received",
        detail: `${view.receivedAmount} ${coin} confirmed on chain. Thank you!`,
      }
    case "EXPIRED":
      return {
        state: "expired",
        title: "Payment window closed",
        detail: view.underpaid
          ? `Only ${view.receivedAmount} of ${view.requiredAmount} ${coin} arrived in time. Contact the shop for a refund, or start a new payment.`
          : "No payment arrived in time. Start a new payment to place the order.",
      }
    case "FAILED":
      return {
        state: "failed",
        title: "Payment failed",
        detail: "The payment service could not process this payment. Start a new payment.",
      }
    case "PENDING":
      if (!view.currency)
        return {
          state: "choose_coin",
          title: "Choose a coin",
          detail: "Pick the coin you want to pay with on the payment page.",
        }
      if (view.underpaid) {
        return {
          state: "underpaid",
          title: "Partly paid",
          detail: `${view.receivedAmount} of ${view.requiredAmount} ${coin} received. Send the remaining ${remainingAmount(view)} ${coin} to the same address.`,
        }
      }
      if (view.receivedAmount !== "0" && Number(view.receivedAmount) > 0) {
        return {
          state: "confirming",
          title: "Confirming on chain",
          detail: `${view.confirmations} of ${view.requiredConfirmations} confirmations. This page updates by itself.`,
        }
      }
      return {
        state: "awaiting_funds",
        title: "Waiting for your payment",
        detail: `Send ${view.requiredAmount} ${coin} to ${view.address}.`,
      }
  }
}

/**
 * What is still to send, as exact decimal text ("0.00012"): required − received, never below 0.
 * Computed on the decimal strings (no floating point: 0.3 − 0.1 is 0.2 here).
 */
export function remainingAmount(view: Pick<CryptoPaymentView, "requiredAmount" | "receivedAmount">): string {
  if (view.requiredAmount == null) return "0"
  const [required, received] = [view.requiredAmount, view.receivedAmount || "0"]
  const places = Math.max(...[required, received].map((text) => text.split(".")[1]?.length ?? 0))
  const units = (text: string) => {
    const [whole, fraction = ""] = text.split(".")
    return BigInt(whole + fraction.padEnd(places, "0"))
  }
  const rest = units(required) - units(received)
  if (rest <= 0n) return "0"
  const digits = rest.toString().padStart(places + 1, "0")
  const whole = digits.slice(0, digits.length - places)
  const fraction = digits.slice(digits.length - places).replace(/0+$/, "")
  return fraction ? `${whole}.${fraction}` : whole
}

/** A countdown's text: "59:07", "1:02:05" past an hour, "0:00" once it is over. */
export function formatTimeLeft(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000))
  const [h, m, s] = [Math.floor(total / 3600), Math.floor(total / 60) % 60, total % 60]
  const pad = (n: number) => String(n).padStart(2, "0")
  return h ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`
}
