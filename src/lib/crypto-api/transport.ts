import http from "node:http"
import https from "node:https"
import { urlToHttpOptions } from "node:url"
import {
  AxiosError,
  AxiosHeaders,
  AxiosResponse,
  CanceledError,
  type AxiosAdapter,
  type InternalAxiosRequestConfig,
} from "axios"

/** The most a service answer may weigh; the spec's largest (an invoice with its quotes) is under 2 KB. */
export const MAX_ANSWER_BYTES = 1024 * 1024

/**
 * The methods a request of which is sent once more when its kept-alive connection is reset before any
 * answer: reads. A create (POST) may have been processed all the same, and is never sent twice.
 */
const RESENDABLE_METHODS = new Set(["GET", "HEAD"])

/** Environment variables through which axios's own http adapter sends requests via a proxy. */
const PROXY_VARIABLES = ["HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy"]

/**
 * How the service client's axios instance sends its requests: our transport, unless the environment
 * names a proxy, which axios's own http adapter honours (with NO_PROXY) and this one does not.
 */
export function serviceAdapter(
  agents: { http: http.Agent; https: https.Agent },
  env: NodeJS.ProcessEnv = process.env
): AxiosAdapter | "http" {
  return PROXY_VARIABLES.some((name) => env[name]) ? "http" : serviceTransport(agents)
}

/**
 * Replaces axios's own http adapter, whose generality costs a quarter of a millisecond of every
 * session's create. Node's error codes reach the client as they are, so it can still tell a request
 * that never reached the service from one that may have been processed. A read whose reused connection
 * was reset before any answer is sent once more; a create never is.
 */
export function serviceTransport(agents: { http: http.Agent; https: https.Agent }): AxiosAdapter {
  const target = targets()
  return (config: InternalAxiosRequestConfig) =>
    new Promise<AxiosResponse>((resolve, reject) => {
      const url = target(config.baseURL, config.url ?? "")
      const method = (config.method ?? "get").toUpperCase()
      const secure = url.protocol === "https:"
      const body = typeof config.data === "string" ? config.data : undefined
      const headers = AxiosHeaders.from(config.headers).toJSON(true) as Record<string, string>
      if (body !== undefined) headers["Content-Length"] = String(Buffer.byteLength(body))
      let settled = false
      /** Ends the exchange once: the timer and the signal's listener go, then `done` answers. */
      const settle = (done: () => void) => {
        if (settled) return
        settled = true
        if (timer) clearTimeout(timer)
        signal?.removeEventListener?.("abort", onAbort)
        done()
      }
      const fail = (error: Error) =>
        settle(() => {
          request.destroy()
          reject(error)
        })
      let answered = false
      const send = (reused: "kept-alive" | "fresh") => {
        request = (secure ? https : http).request(
          {
            ...url,
            method,
            headers,
            // a resend goes on a connection of its own: the agent's other idle ones may be as stale
            agent: reused === "fresh" ? false : secure ? agents.https : agents.http,
          },
          (answer) => {
            answered = true
            const chunks: Buffer[] = []
            let size = 0
            answer.on("data", (chunk: Buffer) => {
              size += chunk.length
              if (size > MAX_ANSWER_BYTES) {
                fail(new AxiosError(`answer over ${MAX_ANSWER_BYTES} bytes`, AxiosError.ERR_BAD_RESPONSE, config))
                return
              }
              chunks.push(chunk)
            })
            answer.on("error", fail)
            answer.on("end", () =>
              settle(() => {
                const response: AxiosResponse = {
                  data: Buffer.concat(chunks).toString("utf8"),
                  status: answer.statusCode ?? 0,
                  statusText: answer.statusMessage ?? "",
                  headers: answer.headers as AxiosResponse["headers"],
                  config,
                  request,
                }
                if (!config.validateStatus || config.validateStatus(response.status)) resolve(response)
                else
                  reject(
                    new AxiosError(
                      `Request failed with status code ${response.status}`,
                      AxiosError.ERR_BAD_RESPONSE,
                      config,
                      request,
                      response
                    )
                  )
              })
            )
          }
        )
        const sent = request
        sent.on("error", (error: NodeJS.ErrnoException) => {
          // a kept-alive connection the service closed as it was reused (its idle timeout and our
          // request crossed): reset before any answer, so the request was most likely never read. A read
          // is sent once more, as Node's documentation advises for reusedSocket; a create is not (read
          // or not, it may have been processed): its reset goes to the client, which reports it unknown
          if (
            RESENDABLE_METHODS.has(method) &&
            reused === "kept-alive" &&
            sent.reusedSocket &&
            !answered &&
            error.code === "ECONNRESET" &&
            !settled
          ) {
            send("fresh")
            request.end(body)
            return
          }
          fail(error)
        })
      }
      let request!: http.ClientRequest
      send("kept-alive")
      const timer = config.timeout
        ? setTimeout(
            () => fail(new AxiosError(`timeout of ${config.timeout} ms exceeded`, AxiosError.ECONNABORTED, config)),
            config.timeout
          )
        : undefined
      const signal = config.signal as AbortSignal | undefined
      const onAbort = () => fail(new CanceledError(undefined, undefined, config))
      signal?.addEventListener?.("abort", onAbort)
      if (signal?.aborted) return onAbort()
      request.end(body)
    })
}

/**
 * Where a request goes, as the options of `http.request`. A path is joined to the base URL, which is
 * parsed once (the client sends every call to the same one) rather than on every call.
 */
function targets(): (baseURL: string | undefined, path: string) => http.RequestOptions {
  let base: { text: string | undefined; options: http.RequestOptions; prefix: string } | undefined
  return (baseURL, path) => {
    if (/^https?:\/\//i.test(path)) return urlToHttpOptions(new URL(path))
    if (!base || base.text !== baseURL) {
      const options = urlToHttpOptions(new URL(baseURL ?? ""))
      base = { text: baseURL, options, prefix: (options.path ?? "/").replace(/\/+$/, "") }
    }
    return { ...base.options, path: `${base.prefix}${path}` }
  }
}
