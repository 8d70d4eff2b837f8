"use client"
/**
 * The customer's refund-address page, for the link the shop sends when it owes them coins
 * (`{storefront}/crypto-refund#<token>`; links sent before the token moved after `#`,
 * `{storefront}/crypto-refund/<token>`, open it too): what is owed (the coins and their worth in the store's
 * currency), the network it goes back on, the address given so far (masked: the link is a bearer token), and a
 * form to give or change it — the coin fixed to the network paid on (a select if the shop offers several), and
 * for networks that share the 0x address format (ETH, USDT ERC20, USDT BEP20) an explicit "this address is on
 * <network>" checkbox. A refused address is explained next to its field. The badge and the intro follow where
 * the refund stands: an address needed, an address given (the shop will send to it), being sent (the address is
 * frozen), sent. The link's expiry is shown while it matters.
 *
 * Texts come from crypto-refund-labels.ts (the page) and crypto-payment-labels.ts (coin names, and the errors
 * by code) in the `locale` you pass, with your `labels` and `paymentLabels` on top; the amounts, the money
 * and the date are formatted for that locale. A server's render and the browser's first one are the same (the
 * date in UTC until mounted, then in the browser's time zone), so it hydrates in a server-rendered storefront.
 *
 * Copy it with crypto-refund.ts, crypto-refund-labels.ts and the payment's files (crypto-payment.ts,
 * crypto-payment-i18n.ts, crypto-payment-labels.ts, crypto-payment-errors.ts, crypto-payment.css). The demo
 * storefront (scripts/demo/storefront) renders exactly this file at /crypto-refund#<token> (and at
 * /crypto-refund/<token>), with the token of `useRefundLinkToken`.
 *
 * The token stays out of every server's log: a browser never sends the fragment, and crypto-refund.ts sends the
 * token in a header (`x-crypto-refund-token`), never in a URL, with `referrerPolicy: "no-referrer"`.
 */
import { FormEvent, useEffect, useId, useState } from "react"
import { coinCode, COINS, Coin } from "./crypto-payment"
import { cryptoErrorMessage } from "./crypto-payment-errors"
import { cryptoPaymentI18n, fillLabel, formatCryptoAmount, formatCryptoMoney } from "./crypto-payment-i18n"
import type { CryptoPaymentLabelOverrides } from "./crypto-payment-labels"
import {
  CryptoRefundFailure,
  cryptoRefundState,
  CryptoRefundState,
  CryptoRefundView,
  CryptoStoreBackend,
  fetchCryptoRefund,
  formatCryptoDate,
  giveCryptoRefundAddress,
  RefundAddressField,
  refundAddressProblem,
  refundCoinsShown,
  refundTokenOf,
} from "./crypto-refund"
import { cryptoRefundLabels, CryptoRefundLabelOverrides, CryptoRefundLabels } from "./crypto-refund-labels"

/**
 * The token of the refund link this page was opened with, read in the browser once mounted (a server never sees
 * the fragment, so a server render and the first render in the browser say `undefined`): after `#` in
 * `/crypto-refund#<token>`, else in the path of an older link, `/crypto-refund/<token>` (`refundTokenOf`); null
 * when the link holds none. Follows the fragment when it changes (`hashchange`). The URL stays as it is: the
 * customer may bookmark it, and no request carries its fragment.
 */
export function useRefundLinkToken(): string | null | undefined {
  const [token, setToken] = useState<string | null>()
  useEffect(() => {
    const read = () => setToken(refundTokenOf(window.location))
    read()
    window.addEventListener("hashchange", read)
    return () => window.removeEventListener("hashchange", read)
  }, [])
  return token
}

/** What a link without a token shows: the same as a link the store does not know (it is not asked). */
const NO_TOKEN: CryptoRefundFailure = {
  status: 404,
  code: "crypto.refund_link_not_found",
  message: "The link holds no token.",
}

/**
 * What is owed through a link, read once (and again on `reload`), starting from `initialRefund` if you have one.
 * A failed read keeps the refund already shown, except a 404 (the link no longer works). No read while the
 * token is `undefined` (not known yet); a `null` token (a link without one) is a 404 at once.
 */
export function useCryptoRefund(
  backend: CryptoStoreBackend,
  token: string | null | undefined,
  { locale, initialRefund }: { locale?: string; initialRefund?: CryptoRefundView } = {}
) {
  const [read, setRead] = useState<{
    token: string | null | undefined
    refund?: CryptoRefundView
    failure?: CryptoRefundFailure
  }>({
    token,
    refund: initialRefund,
  })
  const [attempt, setAttempt] = useState(0)
  const { baseUrl, publishableKey } = backend
  useEffect(() => {
    if (!token) return
    let live = true
    fetchCryptoRefund({ baseUrl, publishableKey }, token, locale).then((answer) => {
      if (!live) return
      setRead((before) =>
        answer.ok
          ? { token, refund: answer.refund }
          : {
              token,
              refund: answer.failure.status === 404 || before.token !== token ? undefined : before.refund,
              failure: answer.failure,
            }
      )
    })
    return () => {
      live = false
    }
  }, [baseUrl, publishableKey, token, locale, attempt])
  const mine =
    token === null
      ? { token, refund: undefined, failure: NO_TOKEN }
      : read.token === token
        ? read
        : { token, refund: undefined, failure: undefined }
  return {
    refund: mine.refund,
    failure: mine.failure,
    reload: () => setAttempt((n) => n + 1),
    /** Shows a refund the form's answer brought. */
    setRefund: (refund: CryptoRefundView) => setRead({ token, refund }),
  }
}

/**
 * The day `iso` falls on as the locale writes it: in UTC until mounted, so that a server (in its own time zone)
 * and the browser's first render write the same, then in the browser's time zone (mostly the same day).
 */
function useLocalDate(iso: string | undefined, locale: string): string {
  const [mounted, setMounted] = useState(false)
  useEffect(() => setMounted(true), [])
  return iso ? formatCryptoDate(iso, locale, mounted ? undefined : "UTC") : ""
}

function isCoin(coin: unknown): coin is Coin {
  return typeof coin === "string" && (COINS as readonly string[]).indexOf(coin) >= 0
}

function stateTitle(state: CryptoRefundState, text: CryptoRefundLabels): string {
  switch (state) {
    case "awaiting_address":
      return text.stateAwaitingAddress
    case "address_given":
      return text.stateAddressGiven
    case "frozen":
      return text.stateFrozen
    case "sent":
      return text.stateSent
  }
}

/**
 * The intro line, as the refund stands: while no address is given, what the money is and that the shop needs an
 * address; then what the shop does with what it owes (will send it, is sending it, sent it).
 */
function introText(refund: CryptoRefundView, state: CryptoRefundState, text: CryptoRefundLabels): string {
  const { kind } = refund
  if (state === "awaiting_address")
    return kind === "excess" ? text.kindExcess : kind === "late" ? text.kindLate : text.kindRefund
  const owed = kind === "excess" ? text.owedExcess : kind === "late" ? text.owedLate : text.owedRefund
  const intro =
    state === "address_given" ? text.introAddressGiven : state === "frozen" ? text.introFrozen : text.introSent
  return fillLabel(intro, { owed })
}

/** An error under its field, which names it (aria-describedby). */
function FieldError({ id, text, testId }: { id: string; text?: string; testId: string }) {
  if (!text) return null
  return (
    <span className="crypto-error" id={id} role="alert" data-testid={testId}>
      {text}
    </span>
  )
}

export function CryptoRefundPage({
  backend,
  token,
  locale,
  labels,
  paymentLabels,
  initialRefund,
  onChange,
}: {
  /** The store API: the backend's URL and the storefront's publishable key. */
  backend: CryptoStoreBackend
  /**
   * The link's token: `useRefundLinkToken()` (the fragment of `/crypto-refund#<token>`, or the last segment of an
   * older link's path, `/crypto-refund/<token>`), or the path's token your router gives you. `undefined` while it
   * is not known yet (the page shows that it is loading), `null` when the link holds none (the page says the
   * link is not valid, without asking the store).
   */
  token: string | null | undefined
  /** The customer's locale: "en", "de", "fr", "es", or any BCP 47 tag ("de-AT" → German, "pt-BR" → English). */
  locale?: string
  /** Texts of the page to use instead of the built-in ones (crypto-refund-labels.ts). */
  labels?: CryptoRefundLabelOverrides
  /** Coin names and error texts to use instead of the built-in ones (crypto-payment-labels.ts). */
  paymentLabels?: CryptoPaymentLabelOverrides
  /** A read you already have (e.g. from the server), shown until the page's own read answers. */
  initialRefund?: CryptoRefundView
  /** Every refund the form saved (the address masked). */
  onChange?: (refund: CryptoRefundView) => void
}) {
  const text = cryptoRefundLabels(locale, labels)
  const i18n = cryptoPaymentI18n(locale, paymentLabels)
  const { refund, failure, reload, setRefund } = useCryptoRefund(backend, token, { locale, initialRefund })
  const id = useId()
  const [coin, setCoin] = useState<string>()
  const [address, setAddress] = useState("")
  const [confirmed, setConfirmed] = useState(false)
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<{ field: RefundAddressField; text: string }>()
  const [savedTo, setSavedTo] = useState<string>()
  const expiresOn = useLocalDate(refund?.expires_at, i18n.locale)

  if (!refund) {
    if (!failure) {
      return (
        <section className="crypto-box crypto-refund" data-testid="crypto-refund" data-state="loading">
          <p className="crypto-box__detail">{text.loading}</p>
        </section>
      )
    }
    const gone = failure.status === 404 || failure.code === "crypto.refund_link_not_found"
    return (
      <section
        className="crypto-box crypto-refund"
        data-testid="crypto-refund"
        data-state={gone ? "not_found" : "error"}
      >
        <p className="crypto-error" role="alert" data-testid="crypto-refund-error">
          {gone
            ? i18n.labels.errors["crypto.refund_link_not_found"]
            : failure.status === 0
              ? text.unavailable
              : cryptoErrorMessage(failure, i18n.labels)}
        </p>
        {!gone && (
          <button type="button" className="crypto-button" onClick={reload}>
            {text.retry}
          </button>
        )}
      </section>
    )
  }

  const state = cryptoRefundState(refund)
  const networks = refund.networks
  const network =
    networks.filter((n) => n.coin === coin)[0] ??
    networks.filter((n) => n.coin === refund.address_coin)[0] ??
    networks[0]
  const coinShown = isCoin(refund.coin) ? coinCode(refund.coin) : (refund.coin ?? "")
  const money = formatCryptoMoney(refund.store_amount, refund.store_currency, i18n.locale)
  // what the shop sends (rounded down to what a wallet sends); the exact coins owed one click away
  const coins = refundCoinsShown(refund)
  const errorOf = (field: RefundAddressField) => (problem && problem.field === field ? problem.text : undefined)
  /** An error of a field the form does not show (the coin when there is one network) goes under the form. */
  const formError =
    errorOf("form") ??
    (networks.length < 2 ? errorOf("coin") : undefined) ??
    (network && !network.shares_format ? errorOf("network_confirmed") : undefined)

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (!network || busy || !token) return
    if (network.shares_format && !confirmed) {
      setProblem({
        field: "network_confirmed",
        text: fillLabel(text.reasons.network_unconfirmed, { network: network.label }),
      })
      return
    }
    setBusy(true)
    setProblem(undefined)
    setSavedTo(undefined)
    const answer = await giveCryptoRefundAddress(
      backend,
      token,
      { coin: network.coin, address, networkConfirmed: network.shares_format ? confirmed : undefined },
      locale
    )
    setBusy(false)
    if (answer.ok) {
      setRefund(answer.refund)
      setSavedTo(answer.refund.address ?? undefined)
      setAddress("")
      setConfirmed(false)
      onChange?.(answer.refund)
      return
    }
    const refused = answer.failure
    const about = refundAddressProblem(refused, text, network.label)
    if (about) return setProblem(about)
    setProblem({
      field: "form",
      text: refused.status === 0 ? text.unavailable : cryptoErrorMessage(refused, i18n.labels),
    })
    // frozen meanwhile (409) or the link gone (404): show the refund as it now is
    if (refused.status === 409 || refused.status === 404) reload()
  }

  return (
    <section
      className="crypto-box crypto-refund"
      data-testid="crypto-refund"
      data-state={state}
      data-kind={refund.kind}
    >
      <header className="crypto-box__header">
        <span className={`crypto-badge crypto-badge--${state}`} data-testid="crypto-refund-title">
          {stateTitle(state, text)}
        </span>
        {!refund.sent && expiresOn && (
          <time className="crypto-countdown" dateTime={refund.expires_at} data-testid="crypto-refund-expiry">
            {fillLabel(text.expiresOn, { date: expiresOn })}
          </time>
        )}
      </header>
      <p className="crypto-box__detail" data-testid="crypto-refund-detail">
        {introText(refund, state, text)}
      </p>

      <dl className="crypto-box__facts">
        <dt>{text.amount}</dt>
        <dd data-testid="crypto-refund-amount">
          {coins ? (
            <>
              <strong>
                {formatCryptoAmount(coins.shown, i18n.locale)} {coinShown}
              </strong>{" "}
              <span className="crypto-hint">{fillLabel(text.worth, { money })}</span>
              {coins.exact && (
                <details className="crypto-refund__exact" data-testid="crypto-refund-exact">
                  <summary>{text.exactAmount}</summary>
                  <code>
                    {formatCryptoAmount(coins.exact, i18n.locale)} {coinShown}
                  </code>
                </details>
              )}
            </>
          ) : (
            <strong>{money}</strong>
          )}
        </dd>
        {networks.length > 0 && (
          <>
            <dt>{text.network}</dt>
            <dd data-testid="crypto-refund-network">{networks.map((n) => n.label).join(", ")}</dd>
          </>
        )}
        <dt>{text.address}</dt>
        <dd data-testid="crypto-refund-address">
          {refund.address ? <code>{refund.address}</code> : <span className="crypto-hint">{text.noAddress}</span>}
        </dd>
      </dl>

      {(state === "frozen" || state === "sent" || (state === "address_given" && savedTo)) && (
        <p className="crypto-refund__notice" role="status" data-testid="crypto-refund-notice">
          {state === "frozen"
            ? text.frozen
            : state === "sent"
              ? text.sent
              : fillLabel(text.saved, { address: savedTo! })}
        </p>
      )}

      {refund.can_change && network && (
        <form className="crypto-refund__form" onSubmit={submit} noValidate data-testid="crypto-refund-form">
          {networks.length > 1 && (
            <div className="crypto-field">
              <label htmlFor={`${id}-coin`}>{text.coinLabel}</label>
              <select
                id={`${id}-coin`}
                value={network.coin}
                disabled={busy}
                aria-invalid={errorOf("coin") ? true : undefined}
                aria-describedby={errorOf("coin") ? `${id}-coin-error` : undefined}
                onChange={(e) => {
                  setCoin(e.target.value)
                  setConfirmed(false)
                  setProblem(undefined)
                }}
                data-testid="crypto-refund-coin"
              >
                {networks.map((n) => (
                  <option key={n.coin} value={n.coin}>
                    {i18n.labels.coins[n.coin] ?? n.label}
                  </option>
                ))}
              </select>
              <FieldError id={`${id}-coin-error`} text={errorOf("coin")} testId="crypto-refund-coin-error" />
            </div>
          )}

          <div className="crypto-field">
            <label htmlFor={`${id}-address`}>{fillLabel(text.addressLabel, { network: network.label })}</label>
            <input
              id={`${id}-address`}
              type="text"
              name="address"
              value={address}
              maxLength={200}
              autoComplete="off"
              autoCapitalize="none"
              autoCorrect="off"
              spellCheck={false}
              disabled={busy}
              aria-invalid={errorOf("address") ? true : undefined}
              aria-describedby={`${id}-address-hint${errorOf("address") ? ` ${id}-address-error` : ""}`}
              onChange={(e) => {
                setAddress(e.target.value)
                if (errorOf("address")) setProblem(undefined)
              }}
              data-testid="crypto-refund-address-input"
            />
            <span className="crypto-hint" id={`${id}-address-hint`}>
              {text.addressHint}
            </span>
            <FieldError id={`${id}-address-error`} text={errorOf("address")} testId="crypto-refund-address-error" />
          </div>

          {network.shares_format && (
            <div className="crypto-field">
              <label className="crypto-refund__confirm">
                <input
                  type="checkbox"
                  checked={confirmed}
                  disabled={busy}
                  aria-invalid={errorOf("network_confirmed") ? true : undefined}
                  aria-describedby={errorOf("network_confirmed") ? `${id}-confirm-error` : undefined}
                  onChange={(e) => {
                    setConfirmed(e.target.checked)
                    if (errorOf("network_confirmed")) setProblem(undefined)
                  }}
                  data-testid="crypto-refund-confirm-network"
                />
                <span>{fillLabel(text.confirmNetwork, { network: network.label })}</span>
              </label>
              <FieldError
                id={`${id}-confirm-error`}
                text={errorOf("network_confirmed")}
                testId="crypto-refund-confirm-error"
              />
            </div>
          )}

          {formError && (
            <p className="crypto-error" role="alert" data-testid="crypto-refund-error">
              {formError}
            </p>
          )}
          <button type="submit" className="crypto-button" disabled={busy} data-testid="crypto-refund-save">
            {busy ? text.saving : refund.address ? text.change : text.save}
          </button>
        </form>
      )}
    </section>
  )
}
