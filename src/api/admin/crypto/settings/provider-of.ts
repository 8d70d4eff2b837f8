import { MedusaError } from "@medusajs/framework/utils"
import type { CryptoGateway } from "../../../../lib/provider-door/gateway"

/** The crypto provider a settings change is for: the one named, or the only one registered. */
export async function providerOf(gateway: CryptoGateway, named: string | undefined): Promise<string> {
  const providerIds = await gateway.providerIds()
  const providerId = named ?? (providerIds.length === 1 ? providerIds[0] : undefined)
  if (!providerId)
    throw new MedusaError(
      MedusaError.Types.INVALID_DATA,
      `Several crypto providers are registered: name one in provider_id (${providerIds.join(", ")}).`
    )
  if (!providerIds.includes(providerId)) throw unknownProvider(providerId)
  return providerId
}

export const unknownProvider = (providerId: string) =>
  new MedusaError(MedusaError.Types.NOT_FOUND, `No crypto payment provider ${providerId} is registered.`)
