import { useEffect, useState } from "react"
import QRCode from "qrcode"

/** The spec's QR payload (`<coin>:<address>?amount=<amount>`) drawn as SVG. */
export function QrCode({ payload, size = 128 }: { payload: string; size?: number }) {
  const [svg, setSvg] = useState<string>()
  useEffect(() => {
    let live = true
    QRCode.toString(payload, { type: "svg", errorCorrectionLevel: "M", margin: 1 }).then((text) => live && setSvg(text))
    return () => {
      live = false
    }
  }, [payload])
  return svg ? (
    <div aria-label="Payment QR code" style={{ width: size, height: size }} dangerouslySetInnerHTML={{ __html: svg }} />
  ) : null
}
