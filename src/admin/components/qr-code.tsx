import { useEffect, useState } from "react"
import QRCode from "qrcode"

/** A QR payload drawn as SVG: a payment's wallet URI (BIP-21 or EIP-681), or a payment page's URL. */
export function QrCode({ payload, size = 128, label }: { payload: string; size?: number; label: string }) {
  const [svg, setSvg] = useState<string>()
  useEffect(() => {
    let live = true
    QRCode.toString(payload, { type: "svg", errorCorrectionLevel: "M", margin: 1 }).then((text) => live && setSvg(text))
    return () => {
      live = false
    }
  }, [payload])
  return svg ? (
    <div aria-label={label} style={{ width: size, height: size }} dangerouslySetInnerHTML={{ __html: svg }} />
  ) : null
}
