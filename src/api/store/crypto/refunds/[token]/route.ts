import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { z } from "zod"
import { owedOfToken } from "../../../../../workflows/refund-links"
import { sendStoreRouteError, storeRouteErrorMessage } from "../../route-errors"
import { RateWindow } from "../../../../../lib/runtime/rate-window"
import { RequestLimits } from "../request-limits"
import { pluginLog } from "../../../../../lib/runtime/log"
import { CRYPTO_PAYMENT_MODULE } from "../../../../../modules/crypto-payment"
import type CryptoPaymentModuleService from "../../../../../modules/crypto-payment/service"
import { refundPageView, sendAddressConfirmation } from "../refund-page"
import { sharesAddressFormat, validateRefundAddress } from "../../../../../lib/domain/refund-address"
import { isCoin } from "../../../../../lib/crypto-api/constants"

/**
 * Reads of one link, and addresses given through it, per process; a client's across links. Each window
 * holds at most RATE_WINDOW_MAX_KEYS keys (lib/runtime/rate-window.ts), shaped by RequestLimits (an IP
 * or "invalid", a token's digest), and drops a key once its window has ended.
 */
const reads = new RequestLimits(new RateWindow(120, 60_000), new RateWindow(60, 60_000))
const writes = new RequestLimits(new RateWindow(30, 10 * 60_000), new RateWindow(10, 10 * 60_000))

/** Answers 429 with Retry-After when the client or the link has asked too often. */
function limited(req: MedusaRequest, res: MedusaResponse, limits: RequestLimits): boolean {
  const taken = limits.take(req.ip, req.params.token)
  if (taken.allowed) return false
  res.setHeader("Retry-After", String(taken.retryAfterSeconds))
  sendStoreRouteError(req, res, 429, "too_many_requests", "crypto.too_many_requests")
  return true
}

/**
 * GET /store/crypto/refunds/:token — what the shop owes the customer through this link: the coins and
 * their worth in the store currency, the coins and networks the refund may be sent on (the one paid
 * with), the address given so far (masked: a link is a bearer token) and whether it can still change.
 * A bad, another shop's or an expired token is a 404, the same for each.
 */
export async function GET(req: MedusaRequest, res: MedusaResponse) {
  if (limited(req, res, reads)) return
  const found = await owedOfToken(req.scope, req.params.token)
  if (!found) return sendStoreRouteError(req, res, 404, "not_found", "crypto.refund_link_not_found")
  res.setHeader("Cache-Control", "no-store")
  return res.json({ refund: refundPageView(found) })
}

const AddressBody = z.strictObject({
  coin: z.string().trim().min(1).max(20),
  address: z.string().max(200),
  /** Required when another network takes the same address format (ETH, ERC20, BEP20): coins on the wrong chain are lost. */
  network_confirmed: z.boolean().optional(),
})

/** A 400 naming the field, in Medusa's error shape, with the reason's code. */
function fieldError(req: MedusaRequest, res: MedusaResponse, field: string, reason: string, message: string) {
  return res.status(400).json({ type: "invalid_data", code: "crypto.refund_address_invalid", field, reason, message })
}

/**
 * POST /store/crypto/refunds/:token { coin, address, network_confirmed? } — the customer gives (or
 * changes) the address the refund goes to: validated for the coin's network (mainnet only), refused
 * once the admin started the payout (409), logged, and confirmed by email to the order's address when
 * customer emails are on.
 */
export async function POST(req: MedusaRequest, res: MedusaResponse) {
  if (limited(req, res, writes)) return
  const found = await owedOfToken(req.scope, req.params.token)
  if (!found) return sendStoreRouteError(req, res, 404, "not_found", "crypto.refund_link_not_found")
  const parsed = AddressBody.safeParse(req.body ?? {})
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const field = String(issue.path[0] ?? "body")
    return fieldError(req, res, field, "invalid", `${field}: ${issue.message}`)
  }
  const { coin, address, network_confirmed } = parsed.data
  const allowed = refundPageView(found).networks.map((n) => n.coin)
  if (!isCoin(coin) || !allowed.includes(coin))
    return fieldError(req, res, "coin", "not_allowed", `coin must be one of ${allowed.join(", ")}`)
  const checked = validateRefundAddress(coin, address)
  if (!checked.ok) return fieldError(req, res, "address", checked.code, checked.message)
  if (sharesAddressFormat(coin) && network_confirmed !== true)
    return fieldError(
      req,
      res,
      "network_confirmed",
      "network_unconfirmed",
      "Confirm the network: this address format is used on several networks, and coins sent on the wrong one are lost."
    )

  const ledger: CryptoPaymentModuleService = req.scope.resolve(CRYPTO_PAYMENT_MODULE)
  const given = await ledger.refundAddresses.give(found.owed.id, coin, checked.address, "customer")
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
