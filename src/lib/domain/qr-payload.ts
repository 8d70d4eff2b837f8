/** The spec's QR payload, `<lowercase coin>:<address>?amount=<amount>`, once a coin and address are known. */
export function qrPayload(coin?: string | null, address?: string | null, amount?: string | null): string | null {
  return coin && address && amount ? `${coin.toLowerCase()}:${address}?amount=${amount}` : null
}
