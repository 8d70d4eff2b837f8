import {
  assessmentResult,
  assessPayload,
  balancesPayload,
  readAssessmentAnswer,
  readInternalRequest,
  webhookPayload,
} from "../internal-request"
import type { PaymentAssessment } from "../domain/payment-decision"

const policy = {
  reconcileIntervalSeconds: 60,
  reconcileBatchSize: 20,
  lateWindowHours: 24,
  lockSeconds: 360,
  quoteDriftAlertPercent: 2,
}
const assessment: PaymentAssessment = {
  outcome: "paid",
  status: "COMPLETED",
  received: "1",
  confirmations: 3,
  underpaid: false,
  overpaid: false,
}

describe("the internal channel to the provider", () => {
  it("recognises its own assess request and nothing an HTTP body can carry", () => {
    expect(readInternalRequest(assessPayload("pay_1").data)).toEqual({
      op: "assess",
      paymentId: "pay_1",
      freshness: "fresh",
    })
    expect(readInternalRequest(assessPayload("pay_1", "shared").data)).toEqual({
      op: "assess",
      paymentId: "pay_1",
      freshness: "shared",
    })
    // an unknown freshness is read as the safest one: afresh
    expect(readInternalRequest({ ...assessPayload("pay_1").data, freshness: "stale" })).toMatchObject({
      freshness: "fresh",
    })
    expect(readInternalRequest(balancesPayload("BTC").data)).toEqual({ op: "balances", currency: "BTC" })
    expect(readInternalRequest(JSON.parse(JSON.stringify(assessPayload("pay_1").data)))).toBeUndefined()
    expect(
      readInternalRequest({ op: "assess", paymentId: "pay_1", "Symbol(medusa-payment-crypto.internal-request)": true })
    ).toBeUndefined()
  })

  it("carries a webhook's token only inside the branded request, never as a header", () => {
    expect(readInternalRequest(webhookPayload("tok", { paymentId: "pay_1" }).data)).toEqual({
      op: "webhook",
      token: "tok",
      body: { paymentId: "pay_1" },
    })
    expect(readInternalRequest({ op: "webhook", token: "tok" })).toBeUndefined()
  })

  it("reads back an answer with or without an assessment, and refuses anything else", () => {
    const answer = { paymentId: "pay_1", sessionId: "payses_1", amount: "25.00", policy }
    const result = assessmentResult({ ...answer, assessment })
    // never an action that makes Medusa's core capture
    expect(result.action).toBe("not_supported")
    expect(readAssessmentAnswer(result)).toEqual({
      paymentId: "pay_1",
      sessionId: "payses_1",
      assessment,
      policy,
    })
    expect(readAssessmentAnswer(assessmentResult(answer))).toEqual({
      paymentId: "pay_1",
      sessionId: "payses_1",
      policy,
    })
    expect(readAssessmentAnswer({ action: "not_supported" })).toBeUndefined()
    expect(readAssessmentAnswer({ action: "captured", data: { session_id: "payses_1", amount: 0 } })).toBeUndefined()
  })
})
