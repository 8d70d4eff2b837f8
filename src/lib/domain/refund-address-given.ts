import { isCoin } from "../crypto-api/constants"
import { sharesAddressFormat, validateRefundAddress } from "./refund-address"

/** An address someone gives for owed coins: the customer through the link, or an admin who was told it. */
export type AddressGiven = { coin: string; address: string; network_confirmed?: boolean }

export type AddressGivenCheck =
  | { ok: true; coin: string; address: string }
  | { ok: false; field: "coin" | "address" | "network_confirmed"; reason: string; message: string }

/**
 * An address of the coin's network, with the network confirmed where another takes the same address
 * format: coins on the wrong chain are lost.
 */
export function checkAddressGiven(allowedCoins: string[], given: AddressGiven): AddressGivenCheck {
  const { coin, address, network_confirmed } = given
  if (!isCoin(coin) || !allowedCoins.includes(coin))
    return {
      ok: false,
      field: "coin",
      reason: "not_allowed",
      message: `coin must be one of ${allowedCoins.join(", ")}`,
    }
  const checked = validateRefundAddress(coin, address)
  if (!checked.ok) return { ok: false, field: "address", reason: checked.code, message: checked.message }
  if (sharesAddressFormat(coin) && network_confirmed !== true)
    return {
      ok: false,
      field: "network_confirmed",
      reason: "network_unconfirmed",
      message:
        "Confirm the network: this address format is used on several networks, and coins sent on the wrong one are lost.",
    }
  return { ok: true, coin, address: checked.address }
}
