import type { MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { FINAL_STATUSES, PaymentStatus } from "./crypto-api/constants"
import { CryptoGateway, CRYPTO_PROVIDER_ID } from "./crypto-gateway"
import { SharedReadCache } from "./status-cache"
import { CRYPTO_PAYMENT_MODULE } from "../modules/crypto-payment"
import type CryptoPaymentModuleService from "../modules/crypto-payment/service"

/** What a storefront may know about a payment while the customer pays. */
export type PublicPaymentView = {
  paymentId: string
  kind: "invoice" | "payment"
  status: PaymentStatus
  /** COMPLETED, EXPIRED or FAILED: stop polling. */
  final: boolean
  confirmations: number
  requiredConfirmations: number | null
  receivedAmount: string
  requiredAmount: string | null
  currency: string | null
  address: string | null
  qrCode: string | null
  invoiceUrl: string
  expiresAt: string
  underpaid: boolean
  overpaid: boolean
  checkedAt: string
}

/** Seconds a status is shared by all pollers; a final one changes no more. */
export const STATUS_TTL_MS = 10_000
export const FINAL_STATUS_TTL_MS = 60_000

const views = new SharedReadCache<PublicPaymentView>((view) => (view.final ? FINAL_STATUS_TTL_MS : STATUS_TTL_MS))

const PAYMENT_ID = /^[A-Za-z0-9_-]{1,128}$/

type SessionRow = { id: string; provider_id: string; data: Record<string, unknown> | null }

/** The crypto session of this store whose service payment is `paymentId`, if any. */
async function findSession(container: MedusaContainer, paymentId: string): Promise<SessionRow | undefined> {
  const payments = container.resolve(Modules.PAYMENT)
  const records: CryptoPaymentModuleService = container.resolve(CRYPTO_PAYMENT_MODULE)
  const [record] = await records.listCryptoPayments({ payment_id: paymentId }, { select: ["session_id"] })
  const filters = record
    ? { id: record.session_id }
    : ({ provider_id: CRYPTO_PROVIDER_ID, data: { paymentId } } as unknown as Parameters<typeof payments.listPaymentSessions>[0])
  const [session] = await payments.listPaymentSessions(filters, { select: ["id", "provider_id", "data"] })
  return session && (session.data as Record<string, unknown> | null)?.paymentId === paymentId ? (session as SessionRow) : undefined
}

async function readView(container: MedusaContainer, session: SessionRow): Promise<PublicPaymentView> {
  const data = session.data ?? {}
  const a = await new CryptoGateway(container.resolve(Modules.PAYMENT)).assess(session.provider_id, session.id, data)
  const kind = data.kind === "payment" ? "payment" : "invoice"
  const qrCode =
    kind === "payment" && typeof data.qrCode === "string"
      ? data.qrCode
      : a.coin && a.address && a.required
        ? `${a.coin.toLowerCase()}:${a.address}?amount=${a.required}`
        : null
  return {
    paymentId: String(data.paymentId),
    kind,
    status: a.status,
    final: FINAL_STATUSES.includes(a.status),
    confirmations: a.confirmations,
    requiredConfirmations: a.requiredConfirmations ?? null,
    receivedAmount: a.received,
    requiredAmount: a.required ?? null,
    currency: a.coin ?? null,
    address: a.address ?? (typeof data.address === "string" ? data.address : null),
    qrCode,
    invoiceUrl: String(data.invoiceUrl ?? ""),
    expiresAt: String(data.expiresAt ?? ""),
    underpaid: a.underpaid,
    overpaid: a.overpaid,
    checkedAt: new Date().toISOString(),
  }
}

/**
 * The public status of one of this store's crypto payments, shared by every poller: at most one
 * read of the service per payment per STATUS_TTL_MS. Undefined for a payment this store did not create.
 */
export async function publicPaymentView(
  container: MedusaContainer,
  paymentId: string
): Promise<PublicPaymentView | undefined> {
  if (!PAYMENT_ID.test(paymentId)) return undefined
  try {
    const { value } = await views.get(paymentId, async () => {
      const session = await findSession(container, paymentId)
      if (!session) throw new NotThisStores()
      return readView(container, session)
    })
    return value
  } catch (error) {
    if (error instanceof NotThisStores) return undefined
    throw error
  }
}

class NotThisStores extends Error {}

/** The last view served for a payment, for answering while the service rate-limits us. */
export function stalePaymentView(paymentId: string): PublicPaymentView | undefined {
  return views.stale(paymentId)?.value
}
