/**
 * Storefront helpers for medusa-payment-crypto, framework-agnostic (use them from the Next.js
 * starter's server actions or client components). Tested by integration-tests/http/demo-checkout.spec.ts.
 */
import type Medusa from "@medusajs/js-sdk"
import type { HttpTypes } from "@medusajs/types"

export const CRYPTO_PROVIDER_ID = "pp_crypto_crypto"
export const COINS = ["BTC", "ETH", "LTC", "USDT_ERC20", "USDT_BEP20"] as const
export type Coin = (typeof COINS)[number]

/** The public session data the provider stores (session.data). */
export type CryptoSessionData = {
  paymentId: string
  kind: "invoice" | "payment"
  invoiceUrl: string
  expiresAt: string
  status: string
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
 * Polls until the payment is final, calling `onUpdate` with each view. Every 10 s is plenty: the
 * status is cached for 10 s on the server anyway. Returns a function that stops polling.
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
          detail: `${view.receivedAmount} of ${view.requiredAmount} ${coin} received. Send the rest to the same address.`,
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
