/**
 * Beside the payment box of the demo: its QR code and "Open in a wallet app" link are real wallet requests
 * (BIP-21 / EIP-681, on mainnet) to an address the sandbox made up and nobody holds. Coins a real wallet sent
 * there would be lost; the sandbox's payment page is where the demo is paid.
 */
export function SandboxNote() {
  return (
    <p className="muted sandbox-note" data-testid="sandbox-note">
      Demo: the sandbox's addresses belong to nobody. Pay with the buttons of its payment page, never from a real
      wallet.
    </p>
  )
}
