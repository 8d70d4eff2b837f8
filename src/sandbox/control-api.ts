import { fail, matchPath, sendJson } from "./http"
import { ECB_FILE_PATH, ECB_STATUSES } from "./ecb-feed"
import type { ControlCall, ControlContext, ControlHandler } from "./control-context"
import {
  advanceClock,
  BULK_PAYMENTS_MAX,
  bulkCreatePayments,
  listPayments,
  REPRICE_PERCENT,
  runPaymentAction,
  showPayment,
} from "./control-payments"
import { addFault, clearFaults, listFaults, setChaos, setRateLimit } from "./control-faults"
import { showEcb, showWebhooks, updateConfig, updateEcb, updateWebhooks } from "./control-settings"

export const CONTROL_PREFIX = "/__sandbox"

/** GET / : what the control API offers. */
const listEndpoints: ControlHandler = (_sandbox, { res }) =>
  sendJson(res, 200, {
    endpoints: [
      "GET  /__sandbox/payments",
      "GET  /__sandbox/payments/:id",
      `POST /__sandbox/payments/bulk {count: 1..${BULK_PAYMENTS_MAX}, amount, amountCurrency, currency} → {paymentIds} (as create_payment, no webhook URL)`,
      "POST /__sandbox/payments/:id/select {currency}",
      `POST /__sandbox/payments/:id/reprice {percent: ${REPRICE_PERCENT.min}..${REPRICE_PERCENT.max} | null}`,
      "POST /__sandbox/payments/:id/pay {amount?|mode: full|partial|over}",
      "POST /__sandbox/payments/:id/confirm {confirmations?}",
      "POST /__sandbox/payments/:id/expire",
      "POST /__sandbox/payments/:id/fail",
      "POST /__sandbox/clock {advanceMs|advanceMinutes}",
      "GET|POST|DELETE /__sandbox/faults {kind: error|rate_limit|hang|malformed, path, method?, status?, retryAfter?, skip?, times?}",
      "PUT  /__sandbox/rate-limit {limit, windowMs} | {limit: null}",
      'PUT  /__sandbox/chaos {rate: 0..1, kinds?, path?: "/v1/", seed?} | {rate: 0}',
      "GET|DELETE /__sandbox/requests (?path=)",
      "GET  /__sandbox/webhooks, PUT /__sandbox/webhooks {enabled?, maxAttempts?, retryBaseMs?}",
      `PUT  /__sandbox/config {webhookField?, unselectedStyle?: absent|null, repricePercent?: ${REPRICE_PERCENT.min}..${REPRICE_PERCENT.max} | null, expiredStays?: boolean, decimals?: quoted|native, apiKeys?: [key, …] | null (the dashboard's keys after a rotation)}`,
      `PUT  /__sandbox/ecb {date?: YYYY-MM-DD | null, rates?: {CUR: "rate" | null}, status?: ${ECB_STATUSES.join("|")}} (the ECB's file at GET ${ECB_FILE_PATH}; rates over the defaults, null removes one; date null follows the clock)`,
      "GET  /__sandbox/ecb (settings, the file served now, served: fetches answered)",
      "POST /__sandbox/reset",
    ],
  })

const clearRequests: ControlHandler = ({ requests }, { res }) => {
  requests.length = 0
  return sendJson(res, 200, { requests })
}

const listRequests: ControlHandler = ({ requests }, { res, query }) => {
  const filter = query.get("path")
  return sendJson(res, 200, { requests: filter ? requests.filter((r) => r.path.includes(filter)) : requests })
}

const resetSandbox: ControlHandler = (sandbox, { res }) => {
  const { book, webhooks, faults, requests, ecb, config } = sandbox
  book.reset()
  webhooks.reset()
  webhooks.settings.enabled = true
  faults.reset()
  requests.length = 0
  ecb.reset()
  Object.assign(config, sandbox.initialConfig)
  return sendJson(res, 200, { reset: true })
}

/** "METHOD /path" under the prefix → handler, tried in this order; "*" stands for any method. */
const ROUTES: Record<string, ControlHandler> = {
  "GET /": listEndpoints,
  "GET /payments": listPayments,
  "GET /payments/:id": showPayment,
  "POST /payments/bulk": bulkCreatePayments,
  "POST /payments/:id/:action": runPaymentAction,
  "POST /clock": advanceClock,
  "GET /faults": listFaults,
  "DELETE /faults": clearFaults,
  "POST /faults": addFault,
  "PUT /chaos": setChaos,
  "PUT /rate-limit": setRateLimit,
  "DELETE /requests": clearRequests,
  // any other method reads the log, as GET does
  "* /requests": listRequests,
  "GET /webhooks": showWebhooks,
  "PUT /webhooks": updateWebhooks,
  "PUT /config": updateConfig,
  "GET /ecb": showEcb,
  "PUT /ecb": updateEcb,
  "POST /reset": resetSandbox,
}

const ROUTE_TABLE = Object.entries(ROUTES).map(([key, handler]) => {
  const [method, pattern] = key.split(" ")
  return { method, pattern, handler }
})

/** The control API of the sandbox (under /__sandbox), for tests, the demo and the hosted page. */
export function controlApi(sandbox: ControlContext): (call: ControlCall) => void {
  return function controlRoute(call) {
    const sub = call.path.slice(CONTROL_PREFIX.length) || "/"
    for (const { method, pattern, handler } of ROUTE_TABLE) {
      const params = matchPath(pattern, sub)
      if (params && (method === "*" || method === call.method)) return handler(sandbox, { ...call, params })
    }
    return fail(call.res, 404, "Not found")
  }
}
