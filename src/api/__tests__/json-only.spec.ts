import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { isJsonContentType, requireJson } from "../json-only"

/*
 * requireJson before the plugin's state-changing routes: JSON passes, anything a browser may send
 * cross-site without a preflight (a form, text/plain, multipart, no content type, with or without a
 * body) is answered 415 and never reaches the route.
 */

function run(method: string, headers: Record<string, string | undefined>) {
  const req = { method, headers } as unknown as MedusaRequest
  const answer: { status?: number; body?: unknown } = {}
  const res = {
    status(code: number) {
      answer.status = code
      return this
    },
    json(body: unknown) {
      answer.body = body
      return this
    },
  } as unknown as MedusaResponse
  const next = jest.fn()
  requireJson(req, res, next)
  return { answer, passed: next.mock.calls.length === 1, nextArgs: next.mock.calls[0] }
}

const refused = {
  type: "invalid_data",
  code: "crypto.json_required",
  message: expect.stringContaining("Content-Type: application/json"),
}

describe("requireJson", () => {
  it.each([
    ["application/json", { "content-type": "application/json", "content-length": "2" }],
    ["application/json; charset=utf-8", { "content-type": "application/json; charset=utf-8", "content-length": "2" }],
    ["Application/JSON;charset=UTF-8", { "content-type": "Application/JSON;charset=UTF-8", "content-length": "2" }],
    ["application/json without a body (the admin SDK's bodiless POST)", { "content-type": "application/json" }],
  ])("lets %s through", (_, headers) => {
    const { passed, nextArgs, answer } = run("POST", headers)
    expect(passed).toBe(true)
    expect(nextArgs).toEqual([])
    expect(answer.status).toBeUndefined()
  })

  it.each([
    ["a form", { "content-type": "application/x-www-form-urlencoded", "content-length": "12" }],
    ["text/plain", { "content-type": "text/plain;charset=UTF-8", "content-length": "2" }],
    ["multipart", { "content-type": "multipart/form-data; boundary=----x", "content-length": "40" }],
    ["a body without a content type", { "content-length": "2" }],
    ["a bodiless POST without a content type (fetch no-cors, a form without fields)", {}],
    ["a bodiless POST with content-length 0", { "content-length": "0" }],
    ["an empty content type", { "content-type": "" }],
    ["a JSON look-alike", { "content-type": "application/jsonx" }],
    ["a +json type", { "content-type": "application/vnd.api+json" }],
    ["text/json", { "content-type": "text/json" }],
  ])("answers %s 415 and stops", (_, headers) => {
    const { passed, answer } = run("POST", headers)
    expect(passed).toBe(false)
    expect(answer).toEqual({ status: 415, body: refused })
  })

  it("guards DELETE as POST", () => {
    expect(run("DELETE", {}).answer.status).toBe(415)
    expect(run("DELETE", { "content-type": "application/json" }).passed).toBe(true)
  })

  it("lets a method that changes nothing through, whatever it says", () => {
    for (const method of ["GET", "HEAD", "OPTIONS"])
      expect(run(method, { "content-type": "text/plain" }).passed).toBe(true)
  })

  it("reads only the media type", () => {
    expect(isJsonContentType(" application/json ; charset=utf-8")).toBe(true)
    expect(isJsonContentType(undefined)).toBe(false)
    expect(isJsonContentType(["application/json"])).toBe(false)
    expect(isJsonContentType("text/plain; application/json")).toBe(false)
  })
})
