/**
 * What the browser tests share: Debian's Chromium driven by playwright-core (no browser download),
 * installed with apt-get when missing and run as root, else a failure naming the command — never a
 * skip; a tally of named checks; and screenshots kept out of the project while `medusa develop` runs.
 */
import { execFileSync } from "node:child_process"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { databaseFromEnv, runStep, RunningStore, startDemoStore } from "../demo/store"

export const CHROMIUM = "/usr/bin/chromium"
export const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
]

const say = (line: string) => process.stdout.write(`${line}\n`)

export function ensureChromium(): void {
  if (fs.existsSync(CHROMIUM)) return
  if (process.getuid?.() !== 0) {
    throw new Error(
      `Chromium is missing: install it with \`sudo apt-get install -y chromium\` and run the tests again.`
    )
  }
  say("▸ Installing Debian's Chromium (apt-get install -y chromium)")
  const install = () =>
    execFileSync("apt-get", ["install", "-y", "chromium"], {
      stdio: "inherit",
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    })
  try {
    install()
  } catch {
    execFileSync("apt-get", ["update"], { stdio: "inherit" })
    install()
  }
}

/** Named checks, each passing or failing on its own; `counts` goes to finishStep. */
export function checks() {
  const counts = { passed: 0, failed: 0 }
  const check = async (name: string, body: () => Promise<void>): Promise<boolean> => {
    try {
      await body()
      counts.passed++
      say(`  ✓ ${name}`)
      return true
    } catch (error) {
      counts.failed++
      say(`  ✕ ${name}\n    ${(error as Error).message.split("\n").join("\n    ")}`)
      return false
    }
  }
  return { counts, check }
}

export function expectText(actual: string, expected: string | RegExp, what: string): void {
  const ok = typeof expected === "string" ? actual.includes(expected) : expected.test(actual)
  if (!ok) throw new Error(`${what}: expected ${expected} in ${JSON.stringify(actual.slice(0, 400))}`)
}

/**
 * Screenshots are taken into a temporary directory and copied to docs/images by `publish()`, once the
 * store is stopped: `medusa develop` restarts when files in the project change.
 */
export function screenshots(prefix: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `crypto-${prefix}-shots-`))
  const images = path.resolve(__dirname, "..", "..", "docs", "images")
  return {
    path: (name: string) => path.join(dir, name),
    /**
     * The guide's pictures change only when asked (UPDATE_SCREENSHOTS=1 copies them into docs/images);
     * otherwise they stay in the temporary folder, which is named, and the tree stays as it was.
     */
    publish: () => {
      if (process.env.UPDATE_SCREENSHOTS !== "1") {
        process.stdout.write(`  screenshots in ${dir} (UPDATE_SCREENSHOTS=1 puts them into docs/images)\n`)
        return
      }
      fs.mkdirSync(images, { recursive: true })
      for (const shot of fs.readdirSync(dir)) fs.copyFileSync(path.join(dir, shot), path.join(images, shot))
      fs.rmSync(dir, { recursive: true, force: true })
    },
  }
}

type StoreOptions = Parameters<typeof startDemoStore>[0]

/** A browser test: the store it needs, its checks on that store, its tally and its screenshots. */
export type BrowserSuite = {
  name: string
  store: Partial<Pick<StoreOptions, "adminDashboard" | "storefront" | "env">>
  run: (running: RunningStore) => Promise<void>
  counts: { passed: number; failed: number }
  shots: { publish: () => void }
}

/** One store for every suite: the dashboard or the storefront when any asks, their environments merged. */
function storeFor(suites: BrowserSuite[]): Pick<StoreOptions, "adminDashboard" | "storefront" | "env"> {
  const env: NodeJS.ProcessEnv = {}
  for (const suite of suites) {
    for (const [name, value] of Object.entries(suite.store.env ?? {})) {
      if (name in env && env[name] !== value)
        throw new Error(`the browser suites need ${name} both ${env[name]} and ${value}: they cannot share a store`)
      env[name] = value
    }
  }
  return {
    adminDashboard: suites.some((s) => s.store.adminDashboard),
    storefront: suites.some((s) => s.store.storefront),
    env,
  }
}

/**
 * Runs `suites` one after the other on one store (a Medusa boot, with its dashboard's first build, costs
 * more than most checks), as the `npm test` step `step`: a suite that throws counts one failure and the
 * next one still runs. A suite that restarts Medusa (the storefront's after_payment run) goes last.
 */
export function runSuites(step: string, suites: BrowserSuite[]): void {
  const counts = { passed: 0, failed: 0 }
  runStep(step, counts, async () => {
    ensureChromium()
    let stop: (() => Promise<void>) | undefined
    try {
      const running = await startDemoStore({
        ...storeFor(suites),
        say,
        onStop: (s) => (stop = s),
        ...databaseFromEnv(),
      })
      for (const suite of suites) {
        if (suites.length > 1) say(`\n━━ ${suite.name}`)
        await suite.run(running).catch((error) => {
          suite.counts.failed++
          say(`\n✖ ${suite.name}: ${error instanceof Error ? error.message : String(error)}`)
        })
      }
    } finally {
      await stop?.()
      for (const suite of suites) suite.shots.publish()
      for (const suite of suites) {
        counts.passed += suite.counts.passed
        counts.failed += suite.counts.failed
      }
    }
  })
}
