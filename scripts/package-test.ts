/**
 * The plugin as a shop gets it (`npm test -- package`, part of `npm test`): build, `npm pack`, a new
 * store outside this repository that depends on the Medusa version under test and on the tarball,
 * configured exactly as README's "Install in a store" says, `npm install` (no --legacy-peer-deps),
 * `medusa db:migrate`, `medusa develop`, seeded as Medusa's starter seeds a shop (one region, "Europe",
 * in EUR), then an invoice checkout in EUR paid at the sandbox and its webhook turning the order paid,
 * all over HTTP. Twice: on the Medusa version we build with, and on the starter's (2.18.0).
 *
 *   MEDUSA_VERSION=2.21.0 npm test -- package     one other Medusa 2.x (a comma-separated list for several)
 *
 * npm's cache makes a second run download nothing; the store directory is removed afterwards
 * (KEEP_STORE=1 keeps it).
 */
import { execFileSync } from "node:child_process"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { databaseFromEnv, runStep, startDemoStore, RunningStore } from "./demo/store"
import { runScriptedCheckout } from "./demo/checkout"
import { Client } from "pg"

const ROOT = path.resolve(__dirname, "..")
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"))
/** Medusa's starter (dtc-starter) pins its backend to this version. */
const STARTER_VERSION = "2.18.0"
const VERSIONS = (process.env.MEDUSA_VERSION || `${pkg.devDependencies["@medusajs/framework"]},${STARTER_VERSION}`)
  .split(",")
  .map((v) => v.trim())
  .filter(Boolean)
const say = (line: string) => process.stdout.write(`${line}\n`)
const counts = { passed: 0, failed: 0 }

/**
 * README's medusa-config.ts, word for word, plus the test's own database, an admin switched off, a
 * second registration of the provider under another id and secret (a second service account), and the
 * customer emails of docs/events-and-emails.md through Medusa's local notification provider.
 */
const MEDUSA_CONFIG = `import { defineConfig, loadEnv } from "@medusajs/framework/utils"

loadEnv(process.env.NODE_ENV || "development", process.cwd())

module.exports = defineConfig({
  projectConfig: {
    databaseUrl: process.env.DATABASE_URL,
    http: {
      storeCors: process.env.STORE_CORS || "http://localhost:8000",
      adminCors: process.env.ADMIN_CORS || "http://localhost:9000",
      authCors: process.env.AUTH_CORS || "http://localhost:9000",
      jwtSecret: process.env.JWT_SECRET || "supersecret",
      cookieSecret: process.env.COOKIE_SECRET || "supersecret",
    },
  },
  admin: { disable: true },
  plugins: [
    {
      resolve: "medusa-payment-crypto",
      options: { notifications: { channel: "email", storefrontUrl: "http://localhost:8000" } },
    },
  ],
  modules: [
    {
      resolve: "@medusajs/medusa/notification",
      options: {
        providers: [
          { resolve: "@medusajs/medusa/notification-local", id: "local", options: { channels: ["email", "feed"] } },
        ],
      },
    },
    {
      resolve: "@medusajs/medusa/payment",
      options: {
        providers: [
          {
            resolve: "medusa-payment-crypto/providers/crypto",
            id: "crypto",
            options: {
              apiKey: process.env.CRYPTO_API_KEY,
              baseUrl: process.env.CRYPTO_BASE_URL,
              backendUrl: process.env.MEDUSA_BACKEND_URL,
              // the test's own: EUR is priced from the sandbox's copy of the ECB file (no internet here)
              exchangeRates: { source: "ecb", url: process.env.CRYPTO_ECB_URL },
            },
          },
          {
            resolve: "medusa-payment-crypto/providers/crypto",
            id: "backup",
            options: {
              apiKey: process.env.CRYPTO_API_KEY,
              baseUrl: process.env.CRYPTO_BASE_URL,
              backendUrl: process.env.MEDUSA_BACKEND_URL,
              webhookSecret: "a-second-service-account-secret",
              exchangeRates: { source: "ecb", url: process.env.CRYPTO_ECB_URL },
              mode: "payment",
              defaultCoin: "LTC",
            },
          },
        ],
      },
    },
  ],
})
`

function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): string {
  return execFileSync(cmd, args, {
    cwd,
    env,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    maxBuffer: 64 * 1024 * 1024,
  })
}

async function timed<T>(what: string, body: () => T | Promise<T>): Promise<T> {
  const started = Date.now()
  const value = await body()
  say(`  ${what}: ${((Date.now() - started) / 1000).toFixed(1)} s`)
  return value
}

/**
 * Where `npm test` has the stores built and installed ahead of this step (`--prepare`, beside the
 * integration tests: a store's install is mostly I/O), so the step itself only boots and pays.
 */
const PREPARED = process.env.CRYPTO_PACKAGE_STORES
const PREPARED_LIST = "stores.json"

type InstalledStore = { version: string; storeDir: string; installed: string }

async function main(): Promise<void> {
  if (process.argv.includes("--prepare")) {
    if (!PREPARED) throw new Error("--prepare needs CRYPTO_PACKAGE_STORES, the directory to install the stores in")
    fs.mkdirSync(PREPARED, { recursive: true })
    const stores = await packAndInstall(PREPARED)
    fs.writeFileSync(path.join(PREPARED, PREPARED_LIST), JSON.stringify(stores))
    return
  }
  const listed = PREPARED ? path.join(PREPARED, PREPARED_LIST) : undefined
  const work = PREPARED ?? fs.mkdtempSync(path.join(os.tmpdir(), "crypto-store-"))
  try {
    const stores: InstalledStore[] =
      listed && fs.existsSync(listed) ? JSON.parse(fs.readFileSync(listed, "utf8")) : await packAndInstall(work)
    if (listed && fs.existsSync(listed))
      say(`▸ The stores prepared in ${work}: Medusa ${stores.map((s) => s.version).join(", ")}`)
    for (const store of stores) await payInStore(store)
  } finally {
    if (!process.env.KEEP_STORE) fs.rmSync(work, { recursive: true, force: true })
    else say(`  stores kept in ${work}`)
  }
}

/** Builds and packs the plugin, then installs it into a new store per Medusa version. */
async function packAndInstall(work: string): Promise<InstalledStore[]> {
  say("▸ Packing the plugin")
  await timed("medusa plugin:build", () => run("npx", ["medusa", "plugin:build"], ROOT))
  const tarball = await timed("npm pack", () => {
    const out = run("npm", ["pack", "--json", "--pack-destination", work], ROOT)
    return path.join(work, JSON.parse(out)[0].filename as string)
  })
  const listing = run("tar", ["-tzf", tarball], work)
  for (const required of [
    "package/LICENSE",
    "package/CHANGELOG.md",
    "package/docs/storefront.md",
    "package/.medusa/server/src/admin/index.mjs",
  ]) {
    if (!listing.includes(required)) throw new Error(`the package lacks ${required}`)
  }
  const stores: InstalledStore[] = []
  for (const version of VERSIONS) stores.push(await installStore(version, tarball, work))
  return stores
}

async function installStore(VERSION: string, tarball: string, work: string): Promise<InstalledStore> {
  say(`\n▸ Installing it into a new store on Medusa ${VERSION}`)
  const storeDir = path.join(work, `store-${VERSION}`)
  fs.mkdirSync(storeDir)
  {
    fs.writeFileSync(
      path.join(storeDir, "package.json"),
      JSON.stringify(
        {
          name: "crypto-install-test-store",
          private: true,
          dependencies: {
            "@medusajs/admin-sdk": VERSION,
            "@medusajs/cli": VERSION,
            // defineConfig loads it by default; every store made by create-medusa-app has it
            "@medusajs/draft-order": VERSION,
            "@medusajs/framework": VERSION,
            "@medusajs/medusa": VERSION,
          },
          devDependencies: {
            "@swc/core": pkg.devDependencies["@swc/core"],
            "@types/node": pkg.devDependencies["@types/node"],
            "ts-node": pkg.devDependencies["ts-node"],
            typescript: pkg.devDependencies.typescript,
          },
        },
        null,
        2
      )
    )
    fs.writeFileSync(path.join(storeDir, "medusa-config.ts"), MEDUSA_CONFIG)
    fs.writeFileSync(
      path.join(storeDir, "tsconfig.json"),
      JSON.stringify(
        {
          compilerOptions: {
            target: "ES2021",
            module: "Node16",
            moduleResolution: "Node16",
            esModuleInterop: true,
            skipLibCheck: true,
            strict: true,
          },
        },
        null,
        2
      )
    )
    // README's step 1 from a checkout: `npm install <the packed tarball>` in the store (with its own dependencies)
    await timed("npm install <tarball> (the npm cache keeps a second run offline)", () =>
      run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", tarball], storeDir)
    )
    const installed = JSON.parse(
      fs.readFileSync(path.join(storeDir, "node_modules", "@medusajs", "framework", "package.json"), "utf8")
    ).version
    say(`  installed @medusajs/framework ${installed}`)
    // one copy of Medusa's core in the store: a second one (pulled by our peers) would register workflows and modules twice
    for (const name of ["@medusajs/framework", "@medusajs/core-flows", "@medusajs/utils"]) {
      const copies = run(
        "find",
        ["node_modules", "-path", `*/${name}/package.json`, "-not", "-path", "*/dist/*"],
        storeDir
      )
        .trim()
        .split("\n")
        .filter(Boolean)
      if (copies.length !== 1) throw new Error(`${copies.length} copies of ${name} in the store: ${copies.join(", ")}`)
    }
    return { version: VERSION, storeDir, installed }
  }
}

/** Boots an installed store with the plugin and pays through both registrations. */
async function payInStore({ version, storeDir, installed }: InstalledStore): Promise<void> {
  say(`\n▸ Medusa ${version} with the packed plugin`)
  let stop: (() => Promise<void>) | undefined
  try {
    const running: RunningStore = await startDemoStore({
      adminDashboard: false,
      root: storeDir,
      cryptoProviders: ["pp_crypto_crypto", "pp_crypto_backup"],
      layout: "starter",
      say,
      onStop: (s) => (stop = s),
      ...databaseFromEnv(),
    })
    say("\n▸ A customer in the starter's Europe region pays a EUR invoice in crypto; the webhook turns the order paid")
    const result = await runScriptedCheckout({ ...running, sandbox: running.control, log: (line) => say(`  ${line}`) })
    if (result.paymentStatus !== "captured") throw new Error(`the order is ${result.paymentStatus}, not captured`)
    if (result.currencyCode !== "EUR" || !result.exchange)
      throw new Error(
        `the order was not a EUR order priced in USD: ${result.currencyCode} ${JSON.stringify(result.exchange)}`
      )
    counts.passed++
    say(`  ✓ the packed plugin on Medusa ${installed}: EUR order #${result.displayId} captured`)

    say(
      "\n▸ The plugin's own options reach its module: the customer's emails of that order, through the Notification Module"
    )
    const templates = await emailsSent(running.databaseUrl, ["crypto-payment-link", "crypto-payment-paid"])
    counts.passed++
    say(`  ✓ emails stored by the Notification Module: ${templates.join(", ")}`)

    say('\n▸ The same through the second registration (id "backup": its own secret, single-coin LTC payments)')
    const backup = await runScriptedCheckout({
      ...running,
      sandbox: running.control,
      providerId: "pp_crypto_backup",
      coin: "LTC",
      log: (line) => say(`  ${line}`),
    })
    if (backup.paymentStatus !== "captured") throw new Error(`the order is ${backup.paymentStatus}, not captured`)
    counts.passed++
    say(`  ✓ a provider registered under another id: order #${backup.displayId} captured`)
  } finally {
    await stop?.()
  }
}

/** Waits until the Notification Module stored emails with each template; answers the templates stored. */
async function emailsSent(databaseUrl: string, wanted: string[]): Promise<string[]> {
  const db = new Client({ connectionString: databaseUrl })
  await db.connect()
  try {
    const deadline = Date.now() + 60_000
    for (;;) {
      const { rows } = await db.query(
        `select distinct "template" from "notification" where "channel" = 'email' and "template" like 'crypto-payment-%' order by 1`
      )
      const templates = rows.map((r: { template: string }) => r.template)
      if (wanted.every((t) => templates.includes(t))) return templates
      if (Date.now() > deadline)
        throw new Error(`emails sent: ${templates.join(", ") || "none"}; wanted ${wanted.join(", ")}`)
      await new Promise((resolve) => setTimeout(resolve, 500))
    }
  } finally {
    await db.end()
  }
}

runStep("package", counts, main, (error) => {
  const detail = (error as { stderr?: string }).stderr
  return `${error instanceof Error ? error.message : String(error)}${detail ? `\n${detail.slice(-4000)}` : ""}`
})
