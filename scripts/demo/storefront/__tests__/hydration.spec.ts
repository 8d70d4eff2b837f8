import path from "node:path"
import * as React from "react"
import { renderToString } from "react-dom/server"
import { chromium, type Browser, type ConsoleMessage, type Page } from "playwright-core"
import { CHROMIUM, CHROMIUM_FLAGS, ensureChromium } from "../../../lib/browser"
import { HYDRATION_CASES, hydrationElement, ORIGIN, SERVER_NOW } from "./hydration-cases"

/*
 * Server rendering, as Medusa's Next.js starter does it: each component of docs/storefront rendered with
 * react-dom/server, that HTML put into a page of Debian's Chromium, and the same element hydrated there with
 * React's development build — a second later, in another time zone and language. Any difference between the
 * server's markup and the browser's first render (React's recoverable errors, its "did not match" warnings) or
 * any other error or warning of the page fails the case.
 */

// the unit tests' swc transform compiles the components' JSX to React.createElement (the classic runtime)
Object.assign(globalThis, { React })

/** The browser's clock: a second after the server's render, and running. */
const BROWSER_NOW = SERVER_NOW + 1_000
/** Far east of UTC (+14:00), and not English: whatever the server took from its own surroundings differs. */
const BROWSER_TIME_ZONE = "Pacific/Kiritimati"
const BROWSER_LOCALE = "de-DE"

/** hydration-cases.ts with React's development build, as one script for the page: `__hydrate` and `__unmount`. */
async function browserBundle(): Promise<string> {
  // vite's own esbuild (vite is a devDependency; esbuild comes with it)
  const esbuild = require(require.resolve("esbuild", { paths: [path.dirname(require.resolve("vite"))] }))
  const built = await esbuild.build({
    stdin: {
      contents: `
        import { hydrateRoot } from "react-dom/client"
        import { hydrationElement } from "./hydration-cases"
        let root
        window.__hydrate = (name, html) => {
          const container = document.getElementById("root")
          container.innerHTML = html
          window.__hydrated = false
          window.__recoverable = []
          root = hydrateRoot(container, hydrationElement(name), {
            onRecoverableError: (error) => window.__recoverable.push(String((error && error.message) || error)),
          })
        }
        window.__unmount = () => root && root.unmount()
      `,
      resolveDir: __dirname,
      loader: "ts",
      sourcefile: "hydrate.ts",
    },
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    target: "es2020",
    jsx: "automatic",
    define: { "process.env.NODE_ENV": '"development"' },
    logLevel: "silent",
  })
  return built.outputFiles[0].text
}

/** The server's markup of a case, rendered at the server's moment. */
function serverHtml(name: string): string {
  jest.useFakeTimers({ now: SERVER_NOW })
  try {
    return renderToString(hydrationElement(name))
  } finally {
    jest.useRealTimers()
  }
}

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>hydration</title></head>
<body><div id="root"></div><script src="/hydrate.js"></script></body></html>`

/**
 * The page's clock, from before any of its scripts runs: `__setClock(now)` sets it to `now`, running on from
 * there.
 */
function installClock() {
  const RealDate = Date
  let offset = 0
  class ShiftedDate extends RealDate {
    constructor(...args: unknown[]) {
      super(...((args.length ? args : [RealDate.now() + offset]) as []))
    }
    static now() {
      return RealDate.now() + offset
    }
  }
  Object.assign(globalThis, {
    Date: ShiftedDate,
    __setClock: (now: number) => {
      offset = now - RealDate.now()
    },
  })
}

type HydrationWindow = {
  __setClock: (now: number) => void
  __hydrate: (name: string, html: string) => void
  __unmount: () => void
  __hydrated?: boolean
  __recoverable?: string[]
}

const ABOUT_HYDRATION = /hydrat|did not match|does not match|server rendered|server-rendered|server html/i

describe("the components of docs/storefront hydrate what a server rendered", () => {
  let browser: Browser | undefined
  let page: Page
  /** What the page reported since the case began. */
  let problems: string[] = []
  /** The case being hydrated, whose refund the store API answers. */
  let current: string | undefined

  beforeAll(async () => {
    ensureChromium()
    const bundling = browserBundle()
    bundling.catch(() => undefined) // awaited below, once the browser (closed in afterAll) is launched
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS })
    const bundle = await bundling
    const context = await browser.newContext({ timezoneId: BROWSER_TIME_ZONE, locale: BROWSER_LOCALE })
    await context.addInitScript(installClock)
    page = await context.newPage()
    page.on("console", (message: ConsoleMessage) => {
      if (message.type() === "error" || message.type() === "warning" || ABOUT_HYDRATION.test(message.text()))
        problems.push(`console ${message.type()}: ${message.text()}`)
    })
    page.on("pageerror", (error) => problems.push(`page error: ${error.message}`))
    // the page, its script and the store API, answered here: nothing leaves the browser
    await context.route("**/*", (route) => {
      const url = new URL(route.request().url())
      if (url.origin !== ORIGIN) return route.abort()
      if (url.pathname === "/") return route.fulfill({ contentType: "text/html", body: PAGE })
      if (url.pathname === "/hydrate.js") return route.fulfill({ contentType: "text/javascript", body: bundle })
      const refund = current && HYDRATION_CASES[current].refund
      if (url.pathname === "/store/crypto/refunds" && refund)
        return route.fulfill({ contentType: "application/json", json: { refund } })
      problems.push(`unexpected request: ${route.request().method()} ${url.pathname}`)
      return route.fulfill({ status: 404, contentType: "application/json", json: { message: "Not found" } })
    })
    await page.goto(`${ORIGIN}/`)
    expect(problems).toEqual([])
  })

  afterAll(async () => {
    await browser?.close()
  })

  it.each(Object.keys(HYDRATION_CASES))("%s", async (name) => {
    const html = serverHtml(name)
    current = name
    problems = []
    try {
      await page.evaluate(
        ([name, html, now]) => {
          const w = window as unknown as HydrationWindow
          w.__setClock(now)
          w.__hydrate(name, html)
        },
        [name, html, BROWSER_NOW] as const
      )
      await page.waitForFunction(() => (window as unknown as HydrationWindow).__hydrated === true, undefined, {
        timeout: 10_000,
      })
      // what the effects bring (the first reads, the countdown's first tick) is rendered, not hydrated: let it
      // settle, so that an error it causes is counted too
      await page.waitForTimeout(300)
      const recoverable = await page.evaluate(() => (window as unknown as HydrationWindow).__recoverable ?? [])
      problems.push(...recoverable.map((message) => `recoverable error: ${message}`))
      expect(problems).toEqual([])
      // hydrated, and then running: a countdown shows the browser's time left (29:36 and less), not its placeholder
      expect((await page.locator("#root").innerText()).trim()).not.toBe("")
      const countdown = page.getByTestId("crypto-countdown")
      if (await countdown.count()) expect(await countdown.innerText()).toMatch(/\b29:[0-3]\d\b/)
    } finally {
      await page.evaluate(() => (window as unknown as HydrationWindow).__unmount())
      current = undefined
      // React warns of a mismatch once a page: after one, the next case starts on a new page
      if (problems.length) await page.reload()
    }
  })
})
