import { readdirSync, readFileSync } from "node:fs"
import { join, relative, sep } from "node:path"
import middlewares from "../middlewares"
import { requireJson } from "../json-only"
import { cryptoPolicies, CryptoResource } from "../../policies/crypto"

/*
 * Every route under src/api/admin/crypto, each method it exports, has a middleware entry that declares
 * its policy with a resource of the plugin's own (registered with definePolicies); every POST and DELETE
 * takes JSON only, requireJson first (before the body's validation). A route added without them fails here.
 */

const ADMIN_DIR = join(__dirname, "..", "admin", "crypto")
const METHOD = /export\s+(?:async\s+function|const)\s+(GET|POST|PUT|PATCH|DELETE)\b/g

function routeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === "__tests__" ? [] : routeFiles(path)
    return entry.name === "route.ts" ? [path] : []
  })
}

const routes = routeFiles(ADMIN_DIR).flatMap((file) => {
  const segments = relative(ADMIN_DIR, file).split(sep).slice(0, -1)
  const matcher = ["/admin/crypto", ...segments.map((s) => s.replace(/^\[(.+)\]$/, ":$1"))].join("/")
  return [...readFileSync(file, "utf8").matchAll(METHOD)].map(([, method]) => ({ matcher, method }))
})

type Entry = {
  matcher: string | RegExp
  methods?: string[]
  middlewares?: unknown[]
  policies?: Array<{ resource: string; operation: string | string[] }>
}
const entries = (middlewares.routes ?? []) as Entry[]
const entriesOf = (matcher: string, method: string) =>
  entries.filter((e) => e.matcher === matcher && (e.methods ?? []).includes(method))

const registered = new Set(cryptoPolicies.policies.map((p) => `${p.resource}:${p.operation}`))
const ours = new Set<string>(Object.values(CryptoResource))

describe("the plugin's admin routes", () => {
  it("are found", () => {
    expect(routes.length).toBeGreaterThan(10)
    expect(routes).toContainEqual({ matcher: "/admin/crypto/settings/api-key", method: "POST" })
  })

  it.each(routes.map((r) => [`${r.method} ${r.matcher}`, r]))(
    "%s declares a registered policy of the plugin",
    (_, r) => {
      const found = entriesOf(r.matcher, r.method)
      expect(found.length).toBeGreaterThan(0)
      for (const entry of found) {
        expect(entry.policies?.length).toBeGreaterThan(0)
        for (const policy of entry.policies!) {
          expect(ours.has(policy.resource)).toBe(true)
          for (const operation of [policy.operation].flat())
            expect(registered.has(`${policy.resource}:${operation}`)).toBe(true)
          // a read route never asks for update, a state-changing one never for read only
          expect(policy.operation).toBe(r.method === "GET" ? "read" : "update")
        }
      }
    }
  )

  it.each(routes.filter((r) => r.method !== "GET").map((r) => [`${r.method} ${r.matcher}`, r]))(
    "%s takes JSON only, before anything reads the body",
    (_, r) => {
      for (const entry of entriesOf(r.matcher, r.method)) expect(entry.middlewares?.[0]).toBe(requireJson)
    }
  )

  it("changing the API key needs its own policy, not the settings'", () => {
    expect(entriesOf("/admin/crypto/settings/api-key", "POST")[0].policies).toEqual([
      { resource: "crypto_api_key", operation: "update" },
    ])
  })
})
