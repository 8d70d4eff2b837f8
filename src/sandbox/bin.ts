#!/usr/bin/env node
import { ECB_FILE_PATH, startSandbox, SandboxOptions } from "./server"

const HELP = `medusa-crypto-sandbox — a local stand-in for the crypto payment service

Usage: medusa-crypto-sandbox [--port 4010] [--host 127.0.0.1] [--api-key sandbox_test_key]
                             [--public-url URL] [--webhook-field webhookUrl]
                             [--rate-limit N/SECONDS] [--block-interval MS]

  --port            port to listen on (default 4010; 0 picks a free one)
  --host            address to listen on (default 127.0.0.1)
  --api-key         the merchant key the service accepts in X-API-Key (default sandbox_test_key)
  --public-url      base of invoiceUrl links, when the sandbox is reached through another address
  --webhook-field   body field of create_invoice/create_payment carrying the webhook URL (default webhookUrl)
  --rate-limit      answer 429 beyond N requests per SECONDS to the service's endpoints (default: off)
  --block-interval  add one confirmation to every transaction each MS milliseconds (default: off)

Also served: GET /ecb/eurofxref-daily.xml, the ECB's daily euro reference rates (a shop's
exchangeRates.url), set with PUT /__sandbox/ecb {date?, rates?, status?: up|down|malformed|slow}.
GET /__sandbox/ lists every route of the control API.
`

function parseArgs(argv: string[]): SandboxOptions | "help" {
  const options: SandboxOptions = { port: 4010 }
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]
    const value = argv[i + 1]
    const need = () => {
      if (value === undefined || value.startsWith("--")) throw new Error(`${flag} needs a value`)
      i++
      return value
    }
    switch (flag) {
      case "--port":
        options.port = Number(need())
        break
      case "--host":
        options.host = need()
        break
      case "--api-key":
        options.apiKey = need()
        break
      case "--public-url":
        options.publicUrl = need().replace(/\/$/, "")
        break
      case "--webhook-field":
        options.webhookField = need()
        break
      case "--rate-limit": {
        const match = /^(\d+)\/(\d+)$/.exec(need())
        if (!match) throw new Error("--rate-limit takes N/SECONDS, e.g. 60/60")
        options.rateLimit = { limit: Number(match[1]), windowMs: Number(match[2]) * 1000 }
        break
      }
      case "--block-interval":
        options.blockIntervalMs = Number(need())
        break
      case "-h":
      case "--help":
        return "help"
      default:
        throw new Error(`unknown option ${flag}`)
    }
  }
  if (!Number.isInteger(options.port) || options.port! < 0 || options.port! > 65535) {
    throw new Error("--port must be a port number")
  }
  return options
}

/** Ends the process with `code` once output is flushed (no pending timers keep it alive). */
function finish(code: number): void {
  process.exitCode = code
}

async function main() {
  let parsed: SandboxOptions | "help"
  try {
    parsed = parseArgs(process.argv.slice(2))
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${HELP}`)
    return finish(2)
  }
  if (parsed === "help") {
    process.stdout.write(HELP)
    return finish(0)
  }
  const options = parsed
  const sandbox = await startSandbox(options)
  process.stdout.write(
    [
      `Crypto payment service sandbox listening on ${sandbox.url}`,
      `  API base URL (baseUrl):  ${sandbox.url}`,
      `  API key (X-API-Key):     ${options.apiKey ? "as given with --api-key" : sandbox.apiKey}`,
      `  hosted pages:            ${sandbox.url}/pay/<paymentId>`,
      `  control API:             ${sandbox.url}/__sandbox/`,
      `  ECB rates (daily file):  ${sandbox.url}${ECB_FILE_PATH}`,
      "",
    ].join("\n")
  )
  // closing the server and its sockets lets the process end by itself
  const stop = () => void sandbox.close().then(() => finish(0))
  process.on("SIGINT", stop)
  process.on("SIGTERM", stop)
}

main().catch((error) => {
  process.stderr.write(`${(error as Error).stack ?? error}\n`)
  finish(1)
})
