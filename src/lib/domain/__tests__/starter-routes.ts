/**
 * Medusa's storefront starter as a customer's browser meets it: its pages and what its middleware does to a
 * path, with the pages docs/storefront.md adds. Listed from `medusajs/dtc-starter` (commit 9233262, Next.js
 * 15.5, Medusa 2.18): `apps/storefront/src/app/**\/page.tsx` (route groups such as `(main)` do not appear in
 * URLs) and `apps/storefront/src/middleware.ts`.
 */

/** The starter's pages, `[x]` a dynamic segment. */
const STARTER_PAGES = [
  "/[countryCode]",
  "/[countryCode]/account",
  "/[countryCode]/account/addresses",
  "/[countryCode]/account/orders",
  "/[countryCode]/account/orders/details/[id]",
  "/[countryCode]/account/profile",
  "/[countryCode]/cart",
  "/[countryCode]/categories/[...category]",
  "/[countryCode]/checkout",
  "/[countryCode]/collections/[handle]",
  "/[countryCode]/order/[id]/confirmed",
  "/[countryCode]/order/[id]/transfer/[token]",
  "/[countryCode]/order/[id]/transfer/[token]/accept",
  "/[countryCode]/order/[id]/transfer/[token]/decline",
  "/[countryCode]/products/[handle]",
  "/[countryCode]/store",
  "/[countryCode]/verify-account",
]

/** What the guide adds, each with the file it names (a test checks the guide still names it) and the query it needs. */
export const GUIDE_PAGES = [
  {
    route: "/[countryCode]/payment-collection/[id]",
    file: "src/app/[countryCode]/(main)/payment-collection/[id]/page.tsx",
    query: ["order_id"],
  },
  { route: "/crypto-refund", file: "src/app/crypto-refund/page.tsx", query: [] },
  { route: "/crypto-refund/[token]", file: "src/app/crypto-refund/[token]/page.tsx", query: [] },
]

/** The regions' countries of a shop on the starter, its first the default (NEXT_PUBLIC_DEFAULT_REGION: dk). */
const COUNTRIES = ["dk", "de", "fr", "us"]

/**
 * Where the starter's middleware sends a path: through unchanged when it has a dot (a static file), when
 * it is a refund link (the guide's addition, first thing in the middleware), or when its first segment is
 * a region's country; otherwise redirected to the default country's, the query kept (307).
 */
export function afterMiddleware(path: string): string {
  if (path.includes(".")) return path
  if (path === "/crypto-refund" || path.startsWith("/crypto-refund/")) return path
  const first = path.split("/")[1]?.toLowerCase()
  if (first && COUNTRIES.includes(first)) return path
  return `/${COUNTRIES[0]}${path === "/" ? "" : path}`
}

function matches(route: string, path: string): boolean {
  const want = route.split("/").slice(1)
  const got = path
    .split("/")
    .slice(1)
    .filter((s, i, all) => s !== "" || i < all.length - 1)
  for (let i = 0; i < want.length; i++) {
    const segment = want[i]
    if (segment.startsWith("[...")) return got.length > i
    if (got[i] === undefined) return false
    if (segment === "[countryCode]" && !COUNTRIES.includes(got[i])) return false
    if (!segment.startsWith("[") && segment !== got[i]) return false
  }
  return got.length === want.length
}

/**
 * The page a link opens on the starter (its route), or "not found": the middleware, then the app's
 * routes; a page that needs a query parameter the link lacks is not found (it calls notFound()).
 */
export function starterPageOf(link: string): string {
  const url = new URL(link)
  const path = afterMiddleware(url.pathname)
  const page =
    GUIDE_PAGES.find((p) => matches(p.route, path)) ??
    STARTER_PAGES.map((route) => ({ route, query: [] as string[] })).find((p) => matches(p.route, path))
  if (!page) return "not found"
  return page.query.every((name) => url.searchParams.get(name)) ? page.route : "not found"
}
