import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, MedusaError, Modules } from "@medusajs/framework/utils"
import { CryptoGateway } from "../../../../lib/crypto-gateway"
import { CryptoApiError } from "../../../../lib/crypto-api/errors"
import { reconcileCryptoPaymentWorkflow } from "../../../../workflows/reconcile-crypto-payment"

/**
 * The service's webhook for one payment session. The token in the URL is the credential (an HMAC
 * of the session id); the body is only a hint and is never read for the status, which comes from
 * the service's status endpoint through the same workflow reconciliation uses.
 *
 *   401  the token is not ours: nothing happens
 *   200  the decision is applied (or there was nothing to do: unknown session, already final)
 *   503  our side failed (service unreachable, lock busy, database): the service should retry
 */
export async function POST(req: MedusaRequest<unknown>, res: MedusaResponse) {
  const logger = req.scope.resolve(ContainerRegistrationKeys.LOGGER)
  const payments = req.scope.resolve(Modules.PAYMENT)
  const gateway = new CryptoGateway(payments)

  let sessionId: string
  try {
    sessionId = await gateway.verifyToken(req.params.token)
  } catch (error) {
    if (error instanceof MedusaError && error.type === MedusaError.Types.UNAUTHORIZED) {
      logger.warn("medusa-payment-crypto: webhook with an invalid token refused")
      return res.status(401).json({ message: "Invalid webhook token." })
    }
    logger.error(`medusa-payment-crypto: webhook token check failed: ${(error as Error).message}`)
    return res.status(503).json({ message: "Temporarily unable to process the notification; retry later." })
  }

  try {
    const [session] = await payments.listPaymentSessions({ id: sessionId }, { select: ["id"] })
    if (!session) {
      return res.status(200).json({ received: true, ignored: "unknown payment session" })
    }
    const { reconcileIntervalSeconds } = await gateway.settings()
    const { result } = await reconcileCryptoPaymentWorkflow(req.scope).run({
      input: { session_id: sessionId, source: "webhook", recheck_after_seconds: reconcileIntervalSeconds },
    })
    logger.info(
      `medusa-payment-crypto: webhook for ${sessionId}: service says ${result.assessment.status}, applied ${result.decision.action}`
    )
    return res.status(200).json({ received: true, status: result.assessment.status, applied: result.decision.action })
  } catch (error) {
    if (CryptoApiError.from(error)?.notFound) {
      logger.warn(`medusa-payment-crypto: webhook for ${sessionId}: the service does not know its payment`)
      return res.status(200).json({ received: true, ignored: "payment unknown to the service" })
    }
    logger.error(`medusa-payment-crypto: webhook for ${sessionId} not applied, asking for a retry: ${(error as Error).message}`)
    return res.status(503).json({ message: "Temporarily unable to process the notification; retry later." })
  }
}
