import { MedusaError } from "@medusajs/framework/utils"
import { cryptoError } from "../../../lib/domain/customer-errors"
import type { PluginLog } from "../../../lib/runtime/log"

/** A ledger read or write; a failure becomes a MedusaError saying what could not be done. */
export type TryLedger = <T>(call: () => Promise<T>, action: string) => Promise<T>

/** The provider's TryLedger: what could not be done is written to the shop's log, and the MedusaError says it. */
export function tryLedgerLogging(log: PluginLog): TryLedger {
  return async <T>(call: () => Promise<T>, action: string): Promise<T> => {
    try {
      return await call()
    } catch (error) {
      if (error instanceof MedusaError) throw error
      log.error(`could not ${action}: ${(error as Error)?.message}`)
      throw cryptoError(MedusaError.Types.UNEXPECTED_STATE, "crypto.try_again", { action })
    }
  }
}
