import fs from "node:fs"
import os from "node:os"
import path from "node:path"

/** The full profile (`npm run test:reliability`) or the short one `npm test` runs. */
export const FULL = process.env.RELIABILITY_PROFILE === "full"

export type Figure = { id: string; title: string; count: number; result: string; ms: number }

const RESULTS = path.join(os.tmpdir(), `crypto-reliability-${process.env.RELIABILITY_RUN ?? "local"}.json`)

/** Adds a figure to the run's results (scripts/reliability.js writes RELIABILITY.md from them). */
export function recordFigure(figure: Figure): void {
  const current = fs.existsSync(RESULTS)
    ? (JSON.parse(fs.readFileSync(RESULTS, "utf8")) as { figures: Figure[] })
    : { figures: [] }
  const figures = [...current.figures.filter((f) => f.id !== figure.id), figure].sort((a, b) =>
    a.id.localeCompare(b.id)
  )
  fs.writeFileSync(RESULTS, JSON.stringify({ profile: FULL ? "full" : "short", figures }, null, 2))
}
