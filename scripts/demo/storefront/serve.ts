/**
 * Builds the demo storefront with Vite (already in the tree for the admin) and serves it: static files,
 * `/config.json` with the store's URL and publishable key, and index.html for any other path.
 * The build goes to a temporary directory: `medusa develop` restarts when project files change.
 */
import fs from "node:fs"
import http from "node:http"
import os from "node:os"
import path from "node:path"

const APP = __dirname

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".json": "application/json",
}

export type Storefront = { url: string; close: () => Promise<void> }

/** Bundles the app (a few seconds); call it while Medusa boots. */
export async function buildStorefront(): Promise<string> {
  const { build } = require("vite") as typeof import("vite", { with: { "resolution-mode": "import" } })
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), "crypto-demo-storefront-"))
  await build({
    root: APP,
    // absolute asset URLs (/assets/…): index.html is also served for nested paths such as the dashboard's
    // payment link, /payment-collection/<id>, and the refund links sent before the token moved after `#`,
    // /crypto-refund/<token>, where a relative "./assets/…" would not resolve (today's, /crypto-refund#<token>,
    // is served like any path: the server never sees the token)
    base: "/",
    configFile: false,
    logLevel: "warn",
    cacheDir: path.join(outDir, ".vite-cache"),
    esbuild: { jsx: "automatic" },
    build: {
      outDir,
      emptyOutDir: true,
      sourcemap: true,
      chunkSizeWarningLimit: 2_000,
      rollupOptions: {
        // docs/storefront's components start with "use client" for Next.js; a plain bundle ignores it
        onwarn: (warning, warn) => {
          if (warning.code !== "MODULE_LEVEL_DIRECTIVE" && warning.code !== "SOURCEMAP_ERROR") warn(warning)
        },
      },
    },
  })
  return outDir
}

export function serveStorefront(opts: {
  dir: string
  port: number
  config: { backendUrl: string; publishableKey: string; storeName: string }
}): Promise<Storefront> {
  const root = path.resolve(opts.dir)
  const server = http.createServer((req, res) => {
    const pathname = decodeURIComponent(new URL(req.url ?? "/", "http://storefront").pathname)
    if (pathname === "/config.json") {
      res.writeHead(200, { "content-type": TYPES[".json"], "cache-control": "no-store" })
      return res.end(JSON.stringify(opts.config))
    }
    const file = path.resolve(root, `.${pathname}`)
    const inside = file.startsWith(root + path.sep)
    const target = inside && fs.existsSync(file) && fs.statSync(file).isFile() ? file : path.join(root, "index.html")
    res.writeHead(200, {
      "content-type": TYPES[path.extname(target)] ?? "application/octet-stream",
      // an older refund link's path is a bearer token (/crypto-refund/<token>): no page of the app names its URL
      // to another site
      "referrer-policy": "no-referrer",
      "cache-control": target.includes(`${path.sep}assets${path.sep}`)
        ? "public, max-age=31536000, immutable"
        : "no-cache",
    })
    fs.createReadStream(target).pipe(res)
  })
  return new Promise((resolve, reject) => {
    server.once("error", reject)
    server.listen(opts.port, "127.0.0.1", () =>
      resolve({
        url: `http://localhost:${opts.port}`,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections()
            server.close(() => done())
          }),
      })
    )
  })
}
