/**
 * How far one webhook and one checkout travel through the plugin's code (issue 34's before/after):
 * `npm run architecture`. Two measures per path:
 * - the calls (call-graph.ts): from the functions where the path begins, every function, method and
 *   step its bodies call, resolved by TypeScript's checker: the files it runs through;
 * - the imports (import-graph.ts): from the path's entry files, every run-time import (type-only
 *   imports hand nothing over): the files it could reach, a class's imports for all its methods.
 * Each counts our files and the hand-offs between layers (src/api, src/lib, src/providers, src/modules,
 * src/workflows …). Where Medusa itself calls the provider (the capture, checkout), the provider functions
 * it calls are entries of the path. Then the longest files and functions of src (tests left out).
 */
import fs from "node:fs"
import path from "node:path"
import { callPathFigures, projectProgram } from "./lib/call-graph"
import { longestFunction, pathFigures } from "./lib/import-graph"

const ROOT = path.resolve(__dirname, "..")

const PROVIDER = "src/providers/crypto/service.ts#CryptoPaymentProviderService."

/**
 * The two paths. A webhook enters the token route, whose provider core reads the payment, then runs the
 * workflow, whose capture makes Medusa call the provider's authorizePayment (capturePayment only when an
 * authorized payment is left to capture). A checkout enters the provider from Medusa's own store routes.
 * `stops`: what runs once per process, not per request: finding the providers in the configuration and
 * building a core (the constructors of the core and of the provider).
 */
const ONCE_PER_PROCESS = [
  "src/modules/crypto-payment/core/registry.ts#coreOf",
  "src/modules/crypto-payment/core/registrations.ts#cryptoRegistrations",
  "src/modules/crypto-payment/core/cores.ts#enabledCryptoProviders",
  "src/modules/crypto-payment/core/payment-core.ts#PaymentCore.constructor",
  "src/providers/crypto/service.ts#CryptoPaymentProviderService.constructor",
]
const PATHS = [
  {
    name: "webhook",
    files: ["src/api/hooks/crypto/[token]/route.ts", "src/providers/crypto/index.ts"],
    calls: ["src/api/hooks/crypto/[token]/route.ts#POST", `${PROVIDER}authorizePayment`, `${PROVIDER}capturePayment`],
    stops: ONCE_PER_PROCESS,
  },
  {
    name: "checkout",
    files: ["src/providers/crypto/index.ts"],
    calls: [`${PROVIDER}initiatePayment`, `${PROVIDER}authorizePayment`, `${PROVIDER}capturePayment`],
    stops: ONCE_PER_PROCESS,
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
  const lines = ["| path | measure | our files | layers visited | hand-offs between layers |", "|---|---|---|---|---|"]
  const program = projectProgram(ROOT)
  for (const p of PATHS) {
    const calls = callPathFigures(program, ROOT, p.calls, p.stops)
    const imports = pathFigures(ROOT, p.files)
    for (const [measure, figures] of [
      ["calls", calls],
      ["imports", imports],
    ] as const)
      lines.push(
        `| ${p.name} | ${measure} | ${figures.files.length} | ${figures.layers.join(" → ")} | ${figures.handOffs} |`
      )
    if (process.argv.includes("--files")) lines.push(`| | files the calls reach | ${calls.files.join(" ")} | | |`)
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
