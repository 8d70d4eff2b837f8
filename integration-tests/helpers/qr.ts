import { Resvg } from "@resvg/resvg-js"
import jsQR from "jsqr"

/** The text of the QR code an SVG draws, read as a phone would: the SVG rendered to pixels, then decoded. */
export function decodeQrSvg(svg: string): string {
  const image = new Resvg(svg, { fitTo: { mode: "width", value: 600 }, background: "white" }).render()
  const found = jsQR(new Uint8ClampedArray(image.pixels), image.width, image.height)
  if (!found) throw new Error("no QR code found in the SVG")
  return found.data
}
