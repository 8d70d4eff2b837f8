import { rateSourceOf, sameRateSource } from "../rate-source"
import { shownUrl } from "../rates-state"

const ECB_DAILY = "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml"
const SANDBOX = "http://127.0.0.1:4010/ecb/eurofxref-daily.xml"

describe("the rate source a url names", () => {
  it.each([
    ["the daily file over http", "http://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml"],
    ["the site without www", "https://ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml"],
    ["the 90-day history", "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-hist-90d.xml"],
    ["the ECB's former domain", "http://www.ecb.int/stats/eurofxref/eurofxref-daily.xml"],
    ["a host in capitals", "https://WWW.ECB.EUROPA.EU/stats/eurofxref/eurofxref-daily.xml"],
  ])("is the ECB for %s", (_, url) => {
    expect(sameRateSource(url, ECB_DAILY)).toBe(true)
  })

  it.each([
    ["the service sandbox's copy", SANDBOX],
    ["a shop's own copy", "https://files.shop.test/ecb/eurofxref-daily.xml"],
    ["a look-alike host", "https://www.ecb.europa.eu.example.test/stats/eurofxref/eurofxref-daily.xml"],
  ])("is not the ECB for %s, whatever sender its file names", (_, url) => {
    expect(sameRateSource(url, ECB_DAILY)).toBe(false)
  })

  it("takes another url by host, port, path and query, over http or https, without credentials", () => {
    expect(sameRateSource(SANDBOX, "https://127.0.0.1:4010/ecb/eurofxref-daily.xml")).toBe(true)
    expect(sameRateSource(SANDBOX, "http://127.0.0.1:4011/ecb/eurofxref-daily.xml")).toBe(false)
    expect(sameRateSource("https://a.test/f.xml?v=1", "https://a.test/f.xml?v=2")).toBe(false)
    expect(sameRateSource("https://u:p@a.test/f.xml#x", "https://a.test/f.xml")).toBe(true)
    expect(rateSourceOf("not a url")).toBe("not a url")
  })
})

describe("a rate source's url as the admin and the logs show it", () => {
  it("keeps the query, which can say which file it is", () => {
    expect(shownUrl("https://rates.example.test/file.xml?date=latest&format=xml")).toBe(
      "https://rates.example.test/file.xml?date=latest&format=xml"
    )
    expect(shownUrl(ECB_DAILY)).toBe(ECB_DAILY)
  })

  it("never shows credentials: the user part goes, a parameter named like one shows ***", () => {
    expect(
      shownUrl(
        "https://user:pass@rates.example.test/f.xml?api_key=s3cr3t&token=t&Signature=x&X-Amz-Credential=c&sig=s&date=latest"
      )
    ).toBe(
      "https://rates.example.test/f.xml?api_key=***&token=***&Signature=***&X-Amz-Credential=***&sig=***&date=latest"
    )
    expect(shownUrl("https://a.test/f.xml#fragment")).toBe("https://a.test/f.xml")
    expect(shownUrl("not a url")).toBe("the configured url")
  })
})
