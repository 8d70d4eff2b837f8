import type { MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"

/**
 * What the admin acted on changed since they read it: a MedusaError CONFLICT, answered 409 here with its
 * message, since Medusa's own handler replaces a conflict's message with a generic one about idempotency keys.
 */
export class AdminSawChanged extends MedusaError {
  constructor(message: string) {
    super(MedusaError.Types.CONFLICT, message)
  }
}

/** Answers an AdminSawChanged with 409; false when the error is another. */
export function answerSawChanged(res: MedusaResponse, error: unknown): boolean {
  if (!(error instanceof AdminSawChanged)) return false
  res.status(409).json({ type: "conflict", code: "crypto.changed_since_read", message: error.message })
  return true
}
