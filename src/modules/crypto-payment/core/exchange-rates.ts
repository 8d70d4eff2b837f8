import { MedusaError } from "@medusajs/framework/utils"
import { cryptoError } from "../../../lib/domain/customer-errors"
import { numberToDecimalString } from "../../../lib/domain/decimal"
import { Ratio, ratioOf, ratioText, usdPerUnit } from "../../../lib/domain/exchange-rates/conversion"
import { parseEcbFile, RateFileError, RatePublication } from "../../../lib/domain/exchange-rates/ecb-file"
import { agrees, jumps } from "../../../lib/domain/exchange-rates/held-rates"
import { ageHours, isFresh, missesWorkingDay } from "../../../lib/domain/exchange-rates/publication"
import type { PluginLog } from "../../../lib/runtime/log"
import { RatesState, shownUrl } from "../../../lib/domain/exchange-rates/rates-state"
import { otherSources, rowOfSource } from "../../../lib/domain/exchange-rates/rate-source"
import type { ExchangeRatesOption } from "./exchange-rate-options"
import type { RateStore, StoredRates } from "../rate-store"

/** The rate a store amount is priced at, and where it came from: what the ledger records per payment. */
export type PricedRate = {
  /** USD per one unit of the store currency, exact. */
  ratio: Ratio
  /** The same as decimal text (18 significant digits), as recorded and shown. */
  rate: string
  source: "ecb" | "fixed"
  url: string | null
  /** The publication's date (YYYY-MM-DD); null for fixed rates. */
  publishedOn: string | null
  markupPercent: string
}

type Dependencies = {
  option: ExchangeRatesOption
  store: Pick<RateStore, "read" | "ofSource" | "claim" | "store" | "hold" | "failed" | "acceptHeld">
  fetchFile: (url: string) => Promise<string>
  log: PluginLog
  /** How long a checkout waits for a fetch (its own or another process's) when no fresh rate is stored. */
  checkoutWaitMs: number
}

/** A checkout that finds no fresh rate starts a fetch unless another process began one this recently. */
const CHECKOUT_CLAIM_SECONDS = 20
const POLL_MS = 100
/** After a failed fetch, the job tries again this soon rather than at the next refresh. */
const RETRY_MINUTES = 5

/**
 * Rates for store currencies the service does not take (docs/configuration.md, "Store currencies").
 * Checkout fetches only when no fresh rate is stored, one fetch at a time across processes.
 */
export class ExchangeRates {
  private fetching?: Promise<void>

  constructor(private readonly deps: Dependencies) {}

  get enabled(): boolean {
    return this.deps.option !== false
  }

  /** USD per one unit of `currency`, with its record; refuses clearly when no fresh rate exists. */
  async rateFor(currency: string): Promise<PricedRate> {
    const option = this.deps.option
    const code = currency.trim().toUpperCase()
    if (option === false) throw new Error("exchange rates are off")
    const markupPercent = numberToDecimalString(option.markupPercent)
    if (option.source === "fixed") {
      const rate = option.rates[code]
      if (!rate) throw notPriced(code)
      return { ratio: ratioOf(rate), rate, source: "fixed", url: null, publishedOn: null, markupPercent }
    }
    // one indexed read per converted checkout: an admin's accepted rate, another process's fetch and a
    // stale publication are seen at once
    let row = await this.stored()
    if (!this.isFresh(row)) {
      await this.fetchForCheckout()
      row = await this.stored()
    }
    if (!row?.rates || !row.published_on || !this.isFresh(row)) {
      this.deps.log.warn(
        `a ${code} cart cannot be priced: no exchange rate published within ${option.maxAgeHours} h is stored (${row?.published_on ? `newest ${row.published_on}` : "none fetched yet"}${row?.last_error ? `; last fetch: ${row.last_error}` : ""})`
      )
      // never fetched is not "out of date": a new shop whose server cannot reach the source reads why
      throw cryptoError(MedusaError.Types.NOT_ALLOWED, "crypto.rate_stale", {
        currency: code,
        why: row?.published_on ? "is out of date" : "could not be fetched yet",
      })
    }
    const ratio = usdPerUnit({ rates: row.rates }, code)
    if (!ratio) throw notPriced(code)
    return {
      ratio,
      rate: ratioText(ratio),
      source: "ecb",
      url: option.url,
      publishedOn: row.published_on,
      markupPercent,
    }
  }

  /**
   * Only a source in use is refreshed: one a checkout needed once (its row exists), or `wanted`, so a
   * USD-only shop never fetches.
   */
  async refresh(wanted = false): Promise<void> {
    const option = this.deps.option
    if (option === false || option.source !== "ecb") return
    // the job asks every tick: one indexed read, and a claim only once a refresh is due
    const row = await this.stored()
    if (!row && !wanted) return
    const minutes = this.refreshMinutes(row)
    const last = row?.attempted_at ? new Date(row.attempted_at).getTime() : 0
    if (Date.now() - last < minutes * 60_000) return
    if (!(await this.deps.store.claim("ecb", row?.url ?? option.url, minutes * 60))) return
    await this.fetchAndKeep(row)
  }

  /** What the health, the policy panel and the job show. */
  async state(): Promise<RatesState> {
    const option = this.deps.option
    if (option === false) return { source: "off" }
    const markupPercent = numberToDecimalString(option.markupPercent)
    if (option.source === "fixed") {
      return { source: "fixed", markupPercent, rates: { ...option.rates }, fresh: true }
    }
    const row = await this.stored()
    const now = new Date()
    const rates: Record<string, string> = {}
    for (const code of Object.keys(row?.rates ?? {}).concat("EUR")) {
      const ratio = row?.rates && usdPerUnit({ rates: row.rates }, code)
      if (ratio && code !== "USD") rates[code] = ratioText(ratio)
    }
    const base = row?.attempted_at ?? row?.fetched_at
    return {
      source: "ecb",
      url: option.url,
      maxAgeHours: option.maxAgeHours,
      markupPercent,
      refreshMinutes: option.refreshMinutes,
      publishedOn: row?.published_on ?? null,
      fetchedAt: row?.fetched_at ? new Date(row.fetched_at).toISOString() : null,
      ageHours: row?.published_on ? Math.round(ageHours(row.published_on, now) * 10) / 10 : null,
      fresh: this.isFresh(row),
      missesWorkingDay: !row?.published_on || missesWorkingDay(row.published_on, now),
      nextRefreshAt: base ? new Date(new Date(base).getTime() + this.refreshMinutes(row) * 60_000).toISOString() : null,
      lastError: row?.last_error ?? null,
      held: row?.held
        ? { publishedOn: row.held.publishedOn, fetchedAt: row.held.fetched_at, moved: row.held.moved }
        : null,
      rates,
      // nothing of this source: what other sources stored is named (unused), or "none fetched" reads as a loss
      ...(row?.published_on ? {} : { otherSources: otherSources(await this.deps.store.ofSource("ecb"), option.url) }),
    }
  }

  /** Takes the publication held for a jump (an admin accepted it); undefined when none is held. */
  async acceptHeld(providerId: string, actorId: string | null) {
    const row = await this.stored()
    if (!row?.held) return undefined
    return this.deps.store.acceptHeld(providerId, "ecb", row.url, actorId)
  }

  /** Minutes between fetches: refreshMinutes, or after a failed fetch a retry within minutes rather than at the next hour. */
  private refreshMinutes(row: StoredRates | undefined): number {
    const option = this.deps.option
    if (option === false || option.source !== "ecb") return 0
    return row?.last_error ? Math.min(RETRY_MINUTES, option.refreshMinutes) : option.refreshMinutes
  }

  private isFresh(row: StoredRates | undefined): boolean {
    const option = this.deps.option
    if (option === false || option.source !== "ecb") return true
    return !!row?.rates && !!row.published_on && isFresh(row.published_on, option.maxAgeHours, new Date())
  }

  /**
   * The row of the configured url's source: its own, else one stored under another spelling of the same
   * source (rate-source.ts), whose row then takes this url's fetches. Another source's never serves.
   */
  private async stored(): Promise<StoredRates | undefined> {
    const option = this.deps.option
    if (option === false || option.source !== "ecb") return undefined
    const own = await this.deps.store.read("ecb", option.url)
    if (own?.published_on) return own
    return rowOfSource(await this.deps.store.ofSource("ecb"), option.url) ?? own
  }

  /**
   * No fresh rate is stored: one fetch per process at a time, and across processes the one that claims
   * it fetches. A checkout waits at most `checkoutWaitMs` for that fetch, its own or another process's:
   * the fetch goes on and stores for the next checkout, and one that already failed is not waited for.
   */
  private async fetchForCheckout(): Promise<void> {
    this.fetching ??= this.fetchOrFollow().finally(() => {
      this.fetching = undefined
    })
    let timer: NodeJS.Timeout | undefined
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.deps.checkoutWaitMs)
    })
    await Promise.race([this.fetching, waited]).finally(() => clearTimeout(timer))
  }

  /** Never throws: a checkout refuses from what is stored afterwards. */
  private async fetchOrFollow(): Promise<void> {
    const option = this.deps.option
    if (option === false || option.source !== "ecb") return
    try {
      const stored = await this.stored()
      if (await this.deps.store.claim("ecb", stored?.url ?? option.url, CHECKOUT_CLAIM_SECONDS)) {
        await this.fetchAndKeep(await this.stored())
        return
      }
      // another process claimed the fetch: follow it while it is under way, at most one checkout wait
      const deadline = Date.now() + this.deps.checkoutWaitMs
      for (;;) {
        const row = await this.stored()
        if (this.isFresh(row) || !underWay(row) || Date.now() >= deadline) return
        await new Promise((resolve) => setTimeout(resolve, POLL_MS))
      }
    } catch (error) {
      this.deps.log.warn(`exchange rates: ${(error as Error)?.message ?? "database error"}; the stored rates stay`)
    }
  }

  /**
   * Keeps the file unless malformed, older than the stored one, moved a rate more than 20 % from the
   * stored one however old (then held), or dated more than a day ahead: one no clock explains would stay
   * "newest" for good and refuse every later file. Never throws.
   */
  private async fetchAndKeep(row: StoredRates | undefined): Promise<void> {
    const option = this.deps.option
    if (option === false || option.source !== "ecb") return
    const { log, store } = this.deps
    const source = shownUrl(option.url)
    // the row of this source, which may be stored under another spelling of the url
    const at = row?.url ?? option.url
    const refuse = async (reason: string, detail = reason) => {
      log.warn(`exchange rates from ${source}: ${detail}; the stored rates stay`)
      await store.failed("ecb", at, reason).catch(logged)
    }
    const logged = (error: unknown) =>
      log.warn(`exchange rates from ${source} not kept: ${(error as Error)?.message ?? "database error"}`)
    let publication: RatePublication
    try {
      publication = parseEcbFile(await this.deps.fetchFile(option.url))
    } catch (error) {
      // the parser may quote the file; the row (shown in the admin) keeps only what kind of failure it was
      const message = (error as Error)?.message ?? "unknown error"
      const kind = error instanceof RateFileError ? "the file is not a valid rates file" : message
      return refuse(`the rate file could not be used (${kind})`, `the rate file could not be used (${message})`)
    }
    const now = new Date()
    if (ageHours(publication.publishedOn, now) < -FUTURE_HOURS) {
      return refuse(`the file is dated ${publication.publishedOn}, more than a day ahead`)
    }
    // a stored publication dated ahead (written before this check) never shuts newer files out
    const ahead = row?.published_on && ageHours(row.published_on, now) < -FUTURE_HOURS ? row.published_on : null
    const stored = ahead ? null : (row?.published_on ?? null)
    if (stored && publication.publishedOn < stored) {
      return refuse(`the file's publication (${publication.publishedOn}) is older than the stored one (${stored})`)
    }
    try {
      // against the last stored publication however old: after an outage past maxAgeHours a 10× file is
      // held like any other jump, never stored unchecked because the rate it would replace is stale
      const moved = row?.rates ? jumps({ rates: row.rates }, publication) : []
      // a held jump is released only by a later publication that agrees with it: the same file fetched
      // again confirms nothing
      const confirmed = !!row?.held && publication.publishedOn > row.held.publishedOn && agrees(row.held, publication)
      if (moved.length && !confirmed) {
        log.warn(
          `exchange rates from ${source} of ${publication.publishedOn} held: ${moved.map((m) => `${m.currency} moved ${m.percent} %`).join(", ")} against ${row?.published_on}. Checkouts keep the stored rates until a later publication agrees or an admin accepts them on the crypto policy panel.`
        )
        await store.hold("ecb", at, { ...publication, fetched_at: now.toISOString(), moved })
        return
      }
      if (await store.store("ecb", at, publication, ahead)) {
        log.info(`exchange rates of ${publication.publishedOn} stored from ${source}`)
      }
    } catch (error) {
      logged(error)
    }
  }
}

/** A fetch was claimed and has not stored, held or failed since (both times from the database's clock). */
function underWay(row: StoredRates | undefined): boolean {
  if (!row?.attempted_at) return false
  return !row.settled_at || new Date(row.settled_at).getTime() < new Date(row.attempted_at).getTime()
}

/** A publication dated further ahead than this is not one any clock explains. */
const FUTURE_HOURS = 24

function notPriced(currency: string): MedusaError {
  return cryptoError(MedusaError.Types.INVALID_DATA, "crypto.currency_not_priced", { currency })
}
