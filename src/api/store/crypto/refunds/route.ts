import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { z } from "zod"
import { owedOfToken, type OwedOfLink } from "../../../../workflows/refund-links"
import { sendStoreRouteError, storeRouteErrorMessage } from "../route-errors"
import { RateWindow } from "../../../../lib/runtime/rate-window"
import { clientAddressOf, RequestLimits } from "./request-limits"
import { pluginLog } from "../../../../lib/runtime/log"
import { CRYPTO_PAYMENT_MODULE } from "../../../../modules/crypto-payment"
import type CryptoPaymentModuleService from "../../../../modules/crypto-payment/service"
import { answerAddressRefused, refundPageView, sendAddressConfirmation } from "./refund-page"
import { checkAddressGiven } from "../../../../lib/domain/refund-address-given"

/** The header that carries the link's token: never the path, which Medusa logs with every request. */
export const REFUND_TOKEN_HEADER = "x-crypto-refund-token"

/** Tokens that opened nothing, per client (one window for reads and writes); reads and writes per link. */
const failures = new RateWindow(20, 10 * 60_000)
const reads = new RequestLimits(failures, new RateWindow(60, 60_000))
const writes = new RequestLimits(failures, new RateWindow(10, 10 * 60_000))

function tooMany(req: MedusaRequest, res: MedusaResponse, retryAfterSeconds: number) {
  res.setHeader("Retry-After", String(retryAfterSeconds))
  sendStoreRouteError(req, res, 429, "too_many_requests", "crypto.too_many_requests")
}

/**
 * The owed record the token opens, or the answer already sent: 429, or 404 alike for a token that is
 * bad, another shop's, re-issued since or expired.
 */
async function opened(
  req: MedusaRequest,
  res: MedusaResponse,
  limits: RequestLimits,
  token: unknown
): Promise<OwedOfLink | undefined> {
  const cryptoPayment: CryptoPaymentModuleService = req.scope.resolve(CRYPTO_PAYMENT_MODULE)
  const client = clientAddressOf(req, cryptoPayment.trustedProxyHops())
  const refused = limits.refused(client)
  if (!refused.allowed) return void tooMany(req, res, refused.retryAfterSeconds)
  const found = typeof token === "string" ? await owedOfToken(req.scope, token) : undefined
  if (!found) {
    limits.failed(client)
    return void sendStoreRouteError(req, res, 404, "not_found", "crypto.refund_link_not_found")
  }
  const taken = limits.take(found.owed.id)
  if (!taken.allowed) return void tooMany(req, res, taken.retryAfterSeconds)
  return found
}

/** GET /store/crypto/refunds (header `x-crypto-refund-token`) — what the shop owes through this link. */
export async function GET(req: MedusaRequest, res: MedusaResponse) {
  const found = await opened(req, res, reads, req.get(REFUND_TOKEN_HEADER))
  if (!found) return
  res.setHeader("Cache-Control", "no-store")
  return res.json({ refund: refundPageView(found) })
}

const AddressBody = z.strictObject({
  /** The link's token, when the client cannot send the header. */
  token: z.string().max(300).optional(),
  coin: z.string().trim().min(1).max(20),
  address: z.string().max(200),
  /** Required when another network takes the same address format (ETH, ERC-20, BEP-20): coins on the wrong chain are lost. */
  network_confirmed: z.boolean().optional(),
})

/**
 * POST /store/crypto/refunds (header `x-crypto-refund-token`, or `token` in the body) — the customer
 * gives the refund's address; refused (409) once the admin started the payout.
 */
export async function POST(req: MedusaRequest, res: MedusaResponse) {
  const body = (req.body ?? {}) as Record<string, unknown>
  const found = await opened(req, res, writes, req.get(REFUND_TOKEN_HEADER) ?? body.token)
  if (!found) return
  const parsed = AddressBody.safeParse(body)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const field = String(issue.path[0] ?? "body")
    return answerAddressRefused(res, { field, reason: "invalid", message: `${field}: ${issue.message}` })
  }
  const checked = checkAddressGiven(
    refundPageView(found).networks.map((n) => n.coin),
    parsed.data
  )
  if (!checked.ok) return answerAddressRefused(res, checked)
  const { coin, address } = checked

  const cryptoPayment: CryptoPaymentModuleService = req.scope.resolve(CRYPTO_PAYMENT_MODULE)
  const given = await cryptoPayment.refundAddresses.give(found.owed.id, coin, address, "customer")
  if (!given) return sendStoreRouteError(req, res, 404, "not_found", "crypto.refund_link_not_found")
  if (given.outcome === "frozen" || given.outcome === "sent")
    return res.status(409).json({
      type: "not_allowed",
      code: "crypto.refund_address_frozen",
      message: storeRouteErrorMessage("crypto.refund_address_frozen", req.locale),
    })
  if (given.outcome === "saved") {
    pluginLog(req.scope.resolve(ContainerRegistrationKeys.LOGGER)).info(
      `refund address for ${given.owed.payment_id} (${given.owed.kind}) given by the customer on ${coin}`
    )
    await sendAddressConfirmation(req.scope, { ...found, owed: given.owed }, given.change.id)
  }
  return res.json({ refund: refundPageView({ ...found, owed: given.owed }) })
}
