/**
 * How far one webhook and one checkout travel through the plugin's code (issue 34's before/after):
 * `npm run architecture`. Two measures per path:
 * - the calls (call-graph.ts): from the functions where the path begins, every function, method and
 *   step its bodies call, resolved by TypeScript's checker: the files it runs through;
 * - the imports (import-graph.ts): from the path's entry files, every run-time import (type-only
 *   imports hand nothing over): the files it could reach, a class's imports for all its methods.
 * Each counts our files, the hand-offs between layers (src/api, src/lib, src/providers, src/modules,
 * src/workflows …), and the calls through the door, which no import or call shows: the routes and the
 * job reach the provider out through Medusa's payment module and back. Where Medusa itself calls the
 * provider (the capture, checkout), the provider functions it calls are entries of the path. Then the
 * longest files and functions of src (tests left out).
 */
import fs from "node:fs"
import path from "node:path"
import { callPathFigures, projectProgram } from "./lib/call-graph"
import { longestFunction, pathFigures } from "./lib/import-graph"

const ROOT = path.resolve(__dirname, "..")

const PROVIDER = "src/providers/crypto/service.ts#CryptoPaymentProviderService."

/**
 * The two paths. A webhook enters the token route, which asks the provider through the door (one call:
 * out through the payment module to the provider's webhook handler, and back), then runs
 * the workflow, whose capture makes Medusa call the provider's authorizePayment / capturePayment. A
 * checkout enters the provider from Medusa's own store routes. `stops`: the door's table of handlers,
 * of which a webhook runs one (an entry of its own).
 */
const PATHS = [
  {
    name: "webhook",
    files: ["src/api/hooks/crypto/[token]/route.ts", "src/providers/crypto/index.ts"],
    calls: [
      "src/api/hooks/crypto/[token]/route.ts#POST",
      `${PROVIDER}getWebhookActionAndData`,
      "src/providers/crypto/operations.ts#ProviderOperations.tokenWebhook",
      `${PROVIDER}authorizePayment`,
      `${PROVIDER}capturePayment`,
    ],
    stops: ["src/providers/crypto/operations.ts#ProviderOperations.handlers"],
    doorCalls: 1,
  },
  {
    name: "checkout",
    files: ["src/providers/crypto/index.ts"],
    calls: [`${PROVIDER}initiatePayment`, `${PROVIDER}authorizePayment`, `${PROVIDER}capturePayment`],
    stops: [],
    doorCalls: 0,
  },
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
    "| path | measure | our files | layers visited | hand-offs between layers | door calls (out through the payment module and back) |",
    "|---|---|---|---|---|---|",
  ]
  const program = projectProgram(ROOT)
  for (const p of PATHS) {
    const calls = callPathFigures(program, ROOT, p.calls, p.stops)
    const imports = pathFigures(ROOT, p.files)
    for (const [measure, figures] of [
      ["calls", calls],
      ["imports", imports],
    ] as const)
      lines.push(
        `| ${p.name} | ${measure} | ${figures.files.length} | ${figures.layers.join(" → ")} | ${figures.handOffs} | ${p.doorCalls} |`
      )
    if (process.argv.includes("--files")) lines.push(`| | files the calls reach | ${calls.files.join(" ")} | | | |`)
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
