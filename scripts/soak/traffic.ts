import type { AxiosError, AxiosInstance, AxiosResponse } from "axios"

/**
 * Every answer the soak receives from Medusa, tallied by route and status, and the state of the
 * process it talks to: `up`, `down` (from the kill -9 until the restarted process is healthy) and
 * `recovering` (until the payments caught in the kill have settled). A 5xx or a request left without
 * an answer is a broken guarantee while the process is up; around the kill it is what a crash looks
 * like, counted apart. Customers wait while the process is down (`whenUp`), as a storefront would
 * show an error and the customer press again.
 */
export type Phase = "up" | "down" | "recovering"

type Incident = { at: string; phase: Phase; route: string; status: number | "no answer"; detail: string }

/** `POST /hooks/crypto/:token`, `GET /store/crypto/payments/:id`: ids and tokens out of the path. */
export function routeOf(method: string | undefined, url: string | undefined): string {
  const path = (url ?? "").replace(/^https?:\/\/[^/]+/, "").split("?")[0]
  const shape = path
    .split("/")
    .map((segment, i, all) => {
      if (all[i - 1] === "crypto" && all[i - 2] === "hooks") return ":token"
      if (all[i - 1] === "payments" && all[i - 2] === "crypto") return ":paymentId"
      return /_|\d{4,}/.test(segment) && segment.length > 8 ? ":id" : segment
    })
    .join("/")
  return `${(method ?? "get").toUpperCase()} ${shape}`
}

export class Traffic {
  phase: Phase = "up"
  /** Answers per route and status (all phases). */
  readonly answers = new Map<string, Map<number | "no answer", number>>()
  /** 5xx and unanswered requests, while up and around the kill. */
  readonly broken: Incident[] = []
  readonly aroundKill: Incident[] = []
  private ready: Promise<void> = Promise.resolve()
  private reopen: (() => void) | undefined

  /** Tallies every answer an axios instance receives (its errors still reach the caller). */
  watch(instance: AxiosInstance): void {
    instance.interceptors.response.use(
      (res) => (this.note(res.config.method, res.config.url, res.status, res), res),
      (error: AxiosError) => {
        this.note(error.config?.method, error.config?.url, error.response?.status ?? "no answer", error.response, error)
        return Promise.reject(error)
      }
    )
  }

  /** The kill: customers wait from now on. */
  down(): void {
    this.phase = "down"
    this.ready = new Promise((resolve) => (this.reopen = resolve))
  }

  /** The restarted process is healthy: customers go on, the payments caught in the kill still settling. */
  restarted(): void {
    this.phase = "recovering"
    this.reopen?.()
  }

  recovered(): void {
    this.phase = "up"
  }

  /** Resolves once the process is up (or restarted after a kill). */
  whenUp(): Promise<void> {
    return this.ready
  }

  /** How many answers of one route had one status (or any status, without one). */
  count(route: string | RegExp, status?: number | "no answer"): number {
    let n = 0
    for (const [key, statuses] of this.answers) {
      if (typeof route === "string" ? key !== route : !route.test(key)) continue
      for (const [s, count] of statuses) if (status === undefined || s === status) n += count
    }
    return n
  }

  /** "200×1520, 401×300" for the routes matching. */
  tally(route: RegExp): string {
    const totals = new Map<number | "no answer", number>()
    for (const [key, statuses] of this.answers)
      if (route.test(key)) for (const [s, count] of statuses) totals.set(s, (totals.get(s) ?? 0) + count)
    return [...totals]
      .sort((a, b) => String(a[0]).localeCompare(String(b[0])))
      .map(([s, count]) => `${count}×${s}`)
      .join(", ")
  }

  private note(
    method: string | undefined,
    url: string | undefined,
    status: number | "no answer",
    res: AxiosResponse | undefined,
    error?: AxiosError
  ): void {
    const route = routeOf(method, url)
    const statuses = this.answers.get(route) ?? new Map<number | "no answer", number>()
    statuses.set(status, (statuses.get(status) ?? 0) + 1)
    this.answers.set(route, statuses)
    if (status !== "no answer" && status < 500) return
    const detail = res ? JSON.stringify(res.data ?? "").slice(0, 200) : (error?.code ?? error?.message ?? "")
    const incident = { at: new Date().toISOString(), phase: this.phase, route, status, detail }
    ;(this.phase === "up" ? this.broken : this.aroundKill).push(incident)
  }
}
