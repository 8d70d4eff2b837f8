import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { cryptoCores, type PaymentCore } from "../../../../modules/crypto-payment/core"

/** The crypto provider a settings change is for: the one named, or the only one registered. */
export async function providerOf(scope: MedusaContainer, named: string | undefined): Promise<PaymentCore> {
  const cores = await cryptoCores(scope)
  const providerId = named ?? (cores.length === 1 ? cores[0].providerId : undefined)
  if (!providerId)
    throw new MedusaError(
      MedusaError.Types.INVALID_DATA,
      `Several crypto providers are registered: name one in provider_id (${cores.map((c) => c.providerId).join(", ")}).`
    )
  const core = cores.find((c) => c.providerId === providerId)
  if (!core) throw unknownProvider(providerId)
  return core
}

export const unknownProvider = (providerId: string) =>
  new MedusaError(MedusaError.Types.NOT_FOUND, `No crypto payment provider ${providerId} is registered.`)
