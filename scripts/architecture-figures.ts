/**
 * How far one webhook and one checkout travel through the plugin's code (issue 34's before/after):
 * `npm run architecture`. From each path's entry points it follows the run-time imports (type-only
 * imports hand nothing over) and counts our files, the hand-offs between layers (src/api, src/lib,
 * src/providers, src/modules, src/workflows …), and the crossings of Medusa's payment module, which no
 * import shows: the routes and the job reach the provider through it, and the provider answers back
 * through it. Then the longest files and functions of src (tests left out).
 */
import fs from "node:fs"
import path from "node:path"
import { longestFunction, pathFigures } from "./lib/import-graph"

const ROOT = path.resolve(__dirname, "..")

/**
 * The two paths, by their entry points. A webhook enters the token route, which asks the provider
 * through the payment module (out and back: two crossings), then runs the workflow. A checkout enters
 * the provider from Medusa's own store routes; its capture re-enters the workflow's steps from
 * processPaymentWorkflow, which no import shows either.
 */
const PATHS = [
  {
    name: "webhook",
    entries: ["src/api/hooks/crypto/[token]/route.ts", "src/providers/crypto/index.ts"],
    crossings: 2,
  },
  { name: "checkout", entries: ["src/providers/crypto/index.ts"], crossings: 0 },
]

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === "__tests__" ? [] : sourceFiles(full)
    return /\.tsx?$/.test(entry.name) && !/\.spec\.tsx?$/.test(entry.name) ? [full] : []
  })
}

function main(): void {
  const lines = [
    "| path | our files | layers visited | hand-offs between layers | crossings of the payment module |",
    "|---|---|---|---|---|",
  ]
  for (const p of PATHS) {
    const figures = pathFigures(ROOT, p.entries)
    lines.push(
      `| ${p.name} | ${figures.files.length} | ${figures.layers.join(" → ")} | ${figures.handOffs} | ${p.crossings} |`
    )
  }
  const files = sourceFiles(path.join(ROOT, "src")).map((file) => {
    const text = fs.readFileSync(file, "utf8")
    return { file: path.relative(ROOT, file), lines: text.split("\n").length, longest: longestFunction(text, file) }
  })
  const byLines = [...files].sort((a, b) => b.lines - a.lines).slice(0, 5)
  const byFunction = files
    .filter((f) => f.longest)
    .sort((a, b) => b.longest!.lines - a.longest!.lines)
    .slice(0, 5)
  lines.push("", "| longest files (src, no tests) | lines |", "|---|---|")
  for (const f of byLines) lines.push(`| ${f.file} | ${f.lines} |`)
  lines.push("", "| longest functions (src, no tests) | lines |", "|---|---|")
  for (const f of byFunction) lines.push(`| ${f.file}: ${f.longest!.name} | ${f.longest!.lines} |`)
  process.stdout.write(`${lines.join("\n")}\n`)
}

main()
