import { FAULT_KINDS, Fault, FaultKind } from "./faults"
import { fail, sendJson } from "./http"
import type { ControlHandler } from "./control-context"

/** The control API's fault routes: the service's errors, rate limit and random failures, on demand. */

export const listFaults: ControlHandler = ({ faults }, { res }) => sendJson(res, 200, { faults: faults.faults })

export const clearFaults: ControlHandler = ({ faults }, { res }) => {
  faults.clear()
  return sendJson(res, 200, { faults: faults.faults })
}

export const addFault: ControlHandler = ({ faults }, { res, body }) => {
  if (!FAULT_KINDS.includes(body?.kind) || typeof body?.path !== "string") {
    return fail(res, 400, `a fault needs kind (${FAULT_KINDS.join(", ")}) and path`)
  }
  const fault: Fault = faults.add({
    kind: body.kind,
    path: body.path,
    method: typeof body.method === "string" ? body.method.toUpperCase() : undefined,
    status: typeof body.status === "number" ? body.status : undefined,
    retryAfter: typeof body.retryAfter === "number" ? body.retryAfter : undefined,
    skip: Number.isInteger(body.skip) && body.skip > 0 ? body.skip : undefined,
    times: Number.isInteger(body.times) && body.times > 0 ? body.times : 1,
  })
  return sendJson(res, 201, fault)
}

export const setChaos: ControlHandler = ({ faults }, { res, body }) => {
  if (body?.rate === null || body?.rate === 0) {
    return sendJson(res, 200, { chaos: faults.setChaos(null) })
  }
  const chosen: FaultKind[] = Array.isArray(body?.kinds)
    ? body.kinds.filter((k: FaultKind) => FAULT_KINDS.includes(k))
    : [...FAULT_KINDS]
  if (typeof body?.rate !== "number" || body.rate < 0 || body.rate > 1 || !chosen.length) {
    return fail(res, 400, `rate (0..1) is required; kinds among ${FAULT_KINDS.join(", ")}`)
  }
  const seed = Number.isInteger(body.seed) ? body.seed : 1
  const shown = faults.setChaos({
    rate: body.rate,
    kinds: chosen,
    path: typeof body.path === "string" ? body.path : "/v1/",
    seed,
  })
  return sendJson(res, 200, { chaos: shown })
}

export const setRateLimit: ControlHandler = ({ faults }, { res, body }) => {
  if (body?.limit === null || body?.limit === undefined) {
    faults.setRateLimit(null)
  } else if (Number.isInteger(body.limit) && body.limit >= 0 && Number.isInteger(body.windowMs) && body.windowMs > 0) {
    faults.setRateLimit({ limit: body.limit, windowMs: body.windowMs })
  } else {
    return fail(res, 400, "limit (whole number) and windowMs (positive whole number) are required, or limit: null")
  }
  return sendJson(res, 200, { rateLimit: faults.rateLimit })
}
