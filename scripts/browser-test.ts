/**
 * `npm test -- browser`: the browser suites in Debian's Chromium on one development store with its
 * dashboard and the demo storefront — the admin's extensions, an order's outstanding amount paid in
 * crypto, and a customer buying on the storefront (which restarts Medusa for after_payment, so it goes
 * last). Each suite also runs alone on a store of its own: `npm test -- admin-browser`, `payment-link`,
 * `storefront`.
 */
import { runSuites } from "./lib/browser"
import { adminSuite } from "./admin-browser-test"
import { paymentLinkSuite } from "./payment-link-browser-test"
import { storefrontSuite } from "./storefront-browser-test"

runSuites("browser", [adminSuite, paymentLinkSuite, storefrontSuite])
