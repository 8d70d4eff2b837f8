import type { MedusaContainer } from "@medusajs/framework/types"
import type { PaymentStatus } from "../../../../lib/crypto-api/constants"
import { cryptoCore, inLedger } from "../../../../modules/crypto-payment/core"
import { EXPIRING_SET_MAX_ENTRIES, ExpiringSet } from "../../../../lib/runtime/expiring-set"
import { qrPayload } from "../../../../lib/domain/qr-payload"
import { walletUriOf } from "../../../../lib/domain/wallet-uri"
import { addressForCoin } from "../../../../lib/domain/evm-address"
import { SHARED_READ_MAX_ENTRIES, SharedReadCache } from "./status-cache"
import { Verdict, verdictOf } from "../../../../lib/domain/verdict"
import type { LedgerRow } from "../../../../modules/crypto-payment/ledger"
import { CRYPTO_PAYMENT_MODULE } from "../../../../modules/crypto-payment"
import type CryptoPaymentModuleService from "../../../../modules/crypto-payment/service"
import { webUrlOrNull } from "../../../../lib/domain/web-url"

/** What a storefront may know about a payment while the customer pays. */
export type PublicPaymentView = {
  paymentId: string
  kind: "invoice" | "payment"
  status: PaymentStatus
  verdict: Verdict
  /** The verdict can no longer change for the customer: stop polling. */
  final: boolean
  confirmations: number
  requiredConfirmations: number | null
  receivedAmount: string
  requiredAmount: string | null
  currency: string | null
  /** EIP-55 for the EVM coins. */
  address: string | null
  /** The service's own QR payload, as it wrote it: no wallet's scheme (kept for storefronts that read it). */
  qrCode: string | null
  /** BIP-21 or EIP-681 for what is still to send; null before a coin is chosen or once nothing is left to send. */
  walletUri: string | null
  invoiceUrl: string
  expiresAt: string
  underpaid: boolean
  overpaid: boolean
  checkedAt: string
}

/**
 * Views are shared only for a second (the provider already shares its status reads), so a burst of
 * pollers costs one ledger lookup and a webhook's news reaches every poller at once.
 */
const VIEW_SHARE_MS = 1_000
const STRANGER_TTL_MS = 60_000

/** One view per payment polled, at most SHARED_READ_MAX_ENTRIES, kept STALE_KEEP_MS for answering through a 429. */
const views = new SharedReadCache<PublicPaymentView>(() => VIEW_SHARE_MS, SHARED_READ_MAX_ENTRIES)
/**
 * Ids that are not the shop's payments, remembered briefly: a flood of them costs one indexed query
 * each. Anyone can make ids up: at most EXPIRING_SET_MAX_ENTRIES are held, the oldest forgotten first.
 */
const strangers = new ExpiringSet(STRANGER_TTL_MS, EXPIRING_SET_MAX_ENTRIES)

const PAYMENT_ID = /^[A-Za-z0-9_-]{1,128}$/

async function readView(container: MedusaContainer, row: LedgerRow): Promise<PublicPaymentView> {
  const core = await cryptoCore(container, row.provider_id)
  const report = await core.report(row.payment_id, "shared")
  const { assessment: a, readAt } = inLedger(report, row.payment_id)
  if (!a) throw new NotThisStores()
  const qrCode = row.qr_code ?? qrPayload(a.coin, a.address, a.required)
  const address = a.address ?? row.address ?? null
  const own = a.own ?? a
  return {
    paymentId: row.payment_id,
    kind: row.kind,
    status: a.status,
    ...verdictOf(row, a),
    confirmations: a.confirmations,
    requiredConfirmations: a.requiredConfirmations ?? null,
    receivedAmount: a.received,
    requiredAmount: a.required ?? null,
    currency: a.coin ?? null,
    address: address && addressForCoin(a.coin ?? row.coin, address),
    qrCode,
    walletUri: walletUriOf({ status: a.status, coin: a.coin, address, required: own.required, received: own.received }),
    invoiceUrl: webUrlOrNull(row.invoice_url) ?? "",
    expiresAt: row.expires_at ? new Date(row.expires_at).toISOString() : "",
    underpaid: a.underpaid,
    overpaid: a.overpaid,
    checkedAt: readAt ?? new Date().toISOString(),
  }
}

/**
 * Shared by every poller: at most one read of the service per payment per statusCacheSeconds for the
 * whole shop, none once it is final. Undefined for a payment this store did not create.
 */
export async function publicPaymentView(
  container: MedusaContainer,
  paymentId: string
): Promise<PublicPaymentView | undefined> {
  if (!PAYMENT_ID.test(paymentId)) return undefined
  try {
    if (strangers.has(paymentId)) return undefined
    const { value } = await views.get(paymentId, async () => {
      const cryptoPayment: CryptoPaymentModuleService = container.resolve(CRYPTO_PAYMENT_MODULE)
      const row = await cryptoPayment.ledger.byPaymentId(paymentId)
      if (!row) {
        strangers.add(paymentId)
        throw new NotThisStores()
      }
      return readView(container, row)
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
