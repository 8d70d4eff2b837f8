/**
 * Exact decimal numbers: PUT /__sandbox/config {decimals: "native"} (a service computing ETH and USDT
 * amounts in 18 decimal places, which it writes as exact JSON number literals a JS number cannot hold),
 * request amounts read exactly from the request's text, and amounts written with an exponent refused.
 * Driven over real HTTP on loopback, as the contract tests are.
 */
import { sandboxOverHttp } from "./over-http"
import { JsonDecimal, numberLiterals, stringifyJson } from "../json"

const KEY = "native_decimals_test_key"

const suite = sandboxOverHttp(KEY)

/** A request sent as `body` exactly, and the answer's text as it came (JSON.parse would round its numbers). */
async function postText(path: string, body: string): Promise<{ status: number; text: string; json: any }> {
  const res = await fetch(`${suite.sandbox.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": KEY },
    body,
  })
  const text = await res.text()
  return { status: res.status, text, json: JSON.parse(text) }
}
const status = async (paymentId: string) => (await suite.http.get(`/v1/invoice/${paymentId}/status`)).data

// at the sandbox's default prices (ETH 3250 USD), 1000 USD is 0.307692307692307692307… ETH: rounded up,
// 0.307692307692307693 at 18 places (0.30769231 at 8), and 0.3076923076923077 through a JS number
const ETH_18 = "0.307692307692307693"

describe('PUT /__sandbox/config {decimals: "native"}', () => {
  beforeEach(async () => {
    expect(await suite.control.configure({ decimals: "native" })).toMatchObject({ decimals: "native" })
  })

  it("writes create_payment's amount as an exact literal of 18 places, which the status record and a payment of it match", async () => {
    const res = await postText("/v1/create_payment", '{"amount":1000,"amountCurrency":"USD","currency":"ETH"}')
    expect(res.status).toBe(200)
    expect(res.text).toContain(`"amount":${ETH_18},`)
    const payment = res.json.data
    expect(String(payment.amount)).toBe("0.3076923076923077") // what JSON.parse makes of it
    expect(payment.qrCode).toBe(`eth:${payment.address}?amount=${ETH_18}`)

    expect(await status(payment.paymentId)).toMatchObject({
      status: "PENDING",
      requiredAmount: ETH_18,
      currentBalance: "0.000000000000000000",
    })
    const paid = await suite.control.pay(payment.paymentId, { amount: ETH_18 })
    expect(paid).toMatchObject({ remainingAmount: "0.000000000000000000", transactions: [{ amount: ETH_18 }] })
    await suite.control.confirm(payment.paymentId)
    expect(await status(payment.paymentId)).toMatchObject({
      status: "COMPLETED",
      requiredAmount: ETH_18,
      currentBalance: ETH_18,
      confirmations: 12,
    })
  })

  it("leaves a payment one wei short PENDING", async () => {
    const payment = (await postText("/v1/create_payment", '{"amount":1000,"amountCurrency":"USD","currency":"ETH"}'))
      .json.data
    await suite.control.pay(payment.paymentId, { amount: "0.307692307692307692" })
    await suite.control.confirm(payment.paymentId, 50)
    expect(await status(payment.paymentId)).toMatchObject({ status: "PENDING", currentBalance: "0.307692307692307692" })
    expect((await suite.control.payment(payment.paymentId)).remainingAmount).toBe("0.000000000000000001")
    const half = await suite.control.pay(payment.paymentId, { mode: "partial" })
    expect(half.transactions[1].amount).toBe("0.000000000000000001") // half of 1 wei, at least 1
  })

  it("writes create_invoice's cryptoAmounts as exact literals: 18 places for ETH and USDT, 8 for BTC and LTC", async () => {
    const res = await postText("/v1/create_invoice", '{"amount":1000,"amountCurrency":"USD"}')
    expect(res.status).toBe(200)
    expect(res.text).toContain(`"ETH":{"cryptoAmount":${ETH_18},"price":3250}`)
    expect(res.text).toContain('"USDT_ERC20":{"cryptoAmount":1000.000000000000000000,"price":1}')
    expect(res.text).toContain('"USDT_BEP20":{"cryptoAmount":1000.000000000000000000,"price":1}')
    expect(res.text).toContain('"BTC":{"cryptoAmount":0.01538462,"price":65000}')
    expect(res.text).toContain('"LTC":{"cryptoAmount":12.12121213,"price":82.5}')
    const invoice = res.json.data

    // the required amount after coin choice is that quote, and a re-price is exact at 18 places too
    expect((await suite.control.select(invoice.paymentId, "ETH")).requiredAmount).toBe(ETH_18)
    expect((await status(invoice.paymentId)).requiredAmount).toBe(ETH_18)
    const repriced = await suite.control.reprice(invoice.paymentId, 5)
    expect(repriced.requiredAmount).toBe("0.323076923076923078") // 0.32307692307692307765, rounded up
    expect((await suite.control.select(invoice.paymentId, "USDT_BEP20")).requiredAmount).toBe("1050.000000000000000000")
    expect((await suite.control.select(invoice.paymentId, "BTC")).requiredAmount).toBe("0.01615386")
  })

  it("keeps BTC and LTC payments at 8 places", async () => {
    const res = await postText("/v1/create_payment", '{"amount":1000,"amountCurrency":"USD","currency":"BTC"}')
    expect(res.text).toContain('"amount":0.01538462,')
    expect((await status(res.json.data.paymentId)).requiredAmount).toBe("0.01538462")
  })

  it("reads a request amount of 18 places exactly (ETH for ETH: the same amount, to the wei)", async () => {
    const res = await postText(
      "/v1/create_payment",
      '{"amount": 0.123456789012345678, "amountCurrency": "ETH", "currency": "ETH"}'
    )
    expect(res.status).toBe(200)
    expect(res.text).toContain('"amount":0.123456789012345678,')
    expect((await status(res.json.data.paymentId)).requiredAmount).toBe("0.123456789012345678")
  })

  it("rounds a tiny quote up in the merchant's favour, at 18 places", async () => {
    const res = await postText(
      "/v1/create_payment",
      '{"amount":0.000000100000000000,"amountCurrency":"USD","currency":"ETH"}'
    )
    expect(res.status).toBe(200)
    expect(res.text).toContain('"amount":0.000000000030769231,') // 0.0000000000307692307…
  })

  it("keeps each record at the precision it was created with when the setting changes", async () => {
    const native = (await postText("/v1/create_payment", '{"amount":1000,"amountCurrency":"USD","currency":"ETH"}'))
      .json.data
    const invoice = (await postText("/v1/create_invoice", '{"amount":1000,"amountCurrency":"USD"}')).json.data
    await suite.control.configure({ decimals: "quoted" })
    const quoted = await postText("/v1/create_payment", '{"amount":1000,"amountCurrency":"USD","currency":"ETH"}')
    expect(quoted.text).toContain('"amount":0.30769231,')
    expect((await status(quoted.json.data.paymentId)).requiredAmount).toBe("0.30769231")
    expect((await status(native.paymentId)).requiredAmount).toBe(ETH_18)
    expect((await suite.control.select(invoice.paymentId, "ETH")).requiredAmount).toBe(ETH_18)
    await suite.control.pay(native.paymentId, { amount: ETH_18 })
    expect((await suite.control.payment(native.paymentId)).currentBalance).toBe(ETH_18)

    // balances add the records up at the finer precision
    await suite.control.pay(quoted.json.data.paymentId)
    await suite.control.confirm(native.paymentId)
    await suite.control.confirm(quoted.json.data.paymentId)
    const eth = (await suite.http.get("/v1/merchant/balance/ETH")).data.data.balance
    expect(eth.availableBalance).toBe(Number("0.615384617692307693"))
  })
})

describe("request amounts", () => {
  it.each(["0.000000100000000000", "12.5", "25", "0.123456789012345678901234"])(
    "accepts %s written as a plain decimal literal (the default precision)",
    async (amount) => {
      const invoice = await postText("/v1/create_invoice", `{"amount":${amount},"amountCurrency":"USD"}`)
      expect(invoice.status).toBe(200)
      const payment = await postText(
        "/v1/create_payment",
        `{"amount":${amount},"amountCurrency":"USD","currency":"BTC"}`
      )
      expect(payment.status).toBe(200)
    }
  )

  it("reads digits beyond a JS number's exactly: 1 satoshi and 1e-18 BTC is 2 satoshis, rounded up", async () => {
    const res = await postText(
      "/v1/create_payment",
      '{"amount":0.000000010000000001,"amountCurrency":"BTC","currency":"BTC"}'
    )
    expect(res.text).toContain('"amount":2e-8,') // the default precision writes a JS number, as it always did
    expect((await status(res.json.data.paymentId)).requiredAmount).toBe("0.00000002")
  })

  it.each([
    ["/v1/create_payment", '{"amount":1e-7,"amountCurrency":"BTC","currency":"BTC"}'],
    ["/v1/create_payment", '{"amountCurrency":"USD","currency":"ETH","amount":2.5E+1}'],
    ["/v1/create_invoice", '{"amount":25e0,"amountCurrency":"USD"}'],
    ["/v1/create_invoice", '{"amount":1E2,"amountCurrency":"GBP"}'],
  ])("%s refuses an amount written with an exponent (%s), and creates nothing", async (path, body) => {
    const res = await postText(path, body)
    expect(res.status).toBe(400)
    expect(res.json).toMatchObject({
      success: false,
      error: "Validation failure",
      details: { amount: "amount must be a plain decimal number, without an exponent" },
      statusCode: 400,
    })
    expect(await suite.control.payments()).toEqual([])
  })

  it("reports the exponent with the other fields' failures", async () => {
    const res = await postText("/v1/create_invoice", '{"amount":1E2,"amountCurrency":"GBP"}')
    expect(Object.keys(res.json.details).sort()).toEqual(["amount", "amountCurrency"])
  })

  it("is not fooled by an exponent elsewhere: a nested amount, or a string", async () => {
    const res = await postText(
      "/v1/create_payment",
      '{"description":"amount\\":1e-7","meta":{"amount":1e-7},"amount":25,"amountCurrency":"USD","currency":"ETH"}'
    )
    expect(res.status).toBe(200)
  })
})

describe("config and reset", () => {
  it.each([
    [{ expiredStays: "yes" }, /expiredStays/],
    [{ expiredStays: null }, /expiredStays/],
    [{ decimals: "wei" }, /decimals/],
    [{ decimals: 18 }, /decimals/],
  ])("PUT /__sandbox/config answers 400 for %j and applies no field of the request", async (bad, message) => {
    const res = await suite.http.put("/__sandbox/config", { repricePercent: 5, expiredStays: true, ...bad })
    expect(res.status).toBe(400)
    expect(res.data.error).toMatch(message)
    expect(await suite.control.configure({})).toMatchObject({
      repricePercent: null,
      expiredStays: false,
      decimals: "quoted",
    })
  })

  it("POST /__sandbox/reset restores expiredStays: false and decimals: quoted", async () => {
    expect(await suite.control.configure({ expiredStays: true, decimals: "native" })).toEqual({
      webhookField: "webhookUrl",
      unselectedStyle: "absent",
      repricePercent: null,
      expiredStays: true,
      decimals: "native",
    })
    await suite.control.reset()
    expect(await suite.control.configure({})).toMatchObject({ expiredStays: false, decimals: "quoted" })
    const res = await postText("/v1/create_payment", '{"amount":25,"amountCurrency":"USD","currency":"ETH"}')
    expect(res.text).toContain('"amount":0.00769231,')
    const payment = res.json.data
    await suite.control.expire(payment.paymentId)
    await suite.control.pay(payment.paymentId)
    await suite.control.confirm(payment.paymentId)
    expect((await status(payment.paymentId)).status).toBe("COMPLETED")
  })

  it("lists both settings in the help", async () => {
    const endpoints: string[] = (await suite.http.get("/__sandbox/")).data.endpoints
    expect(endpoints.some((e) => e.includes("/__sandbox/config") && /expiredStays.*decimals/.test(e))).toBe(true)
  })
})

describe("json.ts", () => {
  it("numberLiterals: the top-level object's numbers as written, the last of a repeated name", () => {
    const text =
      '{ "amount" : 0.000000100000000000, "nested": {"amount": 1e-7, "list": [1, 2]}, "s": "a\\"b{[", "n": null,' +
      ' "neg": -12.50, "e": 1E+2, "dup": 1, "dup": "x", "again": 2, "again": 3 }'
    expect(Object.fromEntries(numberLiterals(text))).toEqual({
      amount: "0.000000100000000000",
      neg: "-12.50",
      e: "1E+2",
      again: "3",
    })
    expect(numberLiterals("[1, 2]").size).toBe(0)
    expect(numberLiterals("12").size).toBe(0)
    expect(numberLiterals("").size).toBe(0)
  })

  it("stringifyJson writes a JsonDecimal as its text; plain JSON.stringify as the nearest JS number", () => {
    const value = { a: new JsonDecimal(ETH_18), list: [new JsonDecimal("-1.50"), 2], s: "json-decimal-#0" }
    expect(stringifyJson(value)).toBe(`{"a":${ETH_18},"list":[-1.50,2],"s":"json-decimal-#0"}`)
    expect(JSON.stringify(value)).toBe('{"a":0.3076923076923077,"list":[-1.5,2],"s":"json-decimal-#0"}')
    expect(stringifyJson({ plain: 1e-7 })).toBe('{"plain":1e-7}')
  })

  it("JsonDecimal takes plain decimals only", () => {
    for (const bad of ["1e-7", "", "1.", ".5", "0x10", "1 "]) expect(() => new JsonDecimal(bad)).toThrow(RangeError)
  })
})
