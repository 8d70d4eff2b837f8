import axios from "axios"

/** The ECB's file is about 2 kB; anything past this is not a rate file. */
const MAX_BYTES = 1024 * 1024

/**
 * GETs a rate file as text with a bounded time: the source down or slow then fails this fetch only
 * (the stored rates keep pricing checkouts). Errors say what happened, never the body.
 */
export function rateFileFetcher(timeoutMs: number): (url: string) => Promise<string> {
  return async (url) => {
    try {
      const response = await axios.get<string>(url, {
        timeout: timeoutMs,
        responseType: "text",
        transformResponse: (body: unknown) => body,
        maxContentLength: MAX_BYTES,
        maxRedirects: 3,
        headers: { Accept: "application/xml, text/xml" },
      })
      return String(response.data)
    } catch (error) {
      const status = axios.isAxiosError(error) ? error.response?.status : undefined
      if (status) throw new Error(`HTTP ${status}`)
      const code = axios.isAxiosError(error) ? error.code : undefined
      throw new Error(
        code === "ECONNABORTED" || code === "ETIMEDOUT"
          ? `no answer within ${timeoutMs} ms`
          : (code ?? "request failed")
      )
    }
  }
}
