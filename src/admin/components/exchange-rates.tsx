import { Alert, Badge, Button, Text, toast } from "@medusajs/ui"
import { useAcceptHeldRates } from "../lib/payment-queries"
import type { ExchangeRates } from "../lib/payment-types"
import {
  exactRateText,
  heldMovesText,
  publicationText,
  rateSourceLabel,
  rateText,
  storedRates,
} from "../lib/exchange-rates"
import { formatAmount, formatDateTime, formatPercent } from "../lib/format"
import { useCryptoI18n } from "../lib/i18n"
import { LabelledRow } from "./labelled-row"

const Row = ({ label, children }: { label: string; children: React.ReactNode }) => (
  <LabelledRow label={label} layout="panel">
    {children}
  </LabelledRow>
)

function RatesTable({ rates }: { rates: ExchangeRates["rates"] }) {
  const { t, locale } = useCryptoI18n()
  const rows = storedRates(rates)
  if (!rows.length) {
    return (
      <Text size="xsmall" className="text-ui-fg-subtle">
        {t("policy.exchangeRates.noRates")}
      </Text>
    )
  }
  return (
    <div className="flex flex-col gap-y-1">
      <Text size="xsmall" className="text-ui-fg-subtle">
        {t("policy.exchangeRates.stored")}
      </Text>
      <dl
        className="grid max-w-3xl grid-cols-[repeat(auto-fill,minmax(9rem,1fr))] gap-x-6 gap-y-0.5"
        data-testid="crypto-rates-table"
      >
        {rows.map(([currency, rate]) => (
          <div
            key={currency}
            className="txt-compact-small flex justify-between gap-x-2"
            title={exactRateText(t, locale, currency, rate)}
            data-currency={currency}
          >
            <dt className="text-ui-fg-subtle font-mono">{currency}</dt>
            <dd className="font-mono">{rateText(rate, locale)}</dd>
          </div>
        ))}
      </dl>
    </div>
  )
}

function HeldRates({ providerId, held }: { providerId: string; held: NonNullable<ExchangeRates["held"]> }) {
  const { t, locale } = useCryptoI18n()
  const accept = useAcceptHeldRates()
  const onAccept = () =>
    accept.mutate(providerId, {
      onSuccess: () => toast.success(t("policy.exchangeRates.accepted", { date: held.published_on })),
      onError: (error) => toast.error((error as Error).message),
    })
  return (
    <Alert variant="warning" data-testid="crypto-rates-held">
      <div className="flex flex-col items-start gap-y-2">
        <Text size="small">
          {t("policy.exchangeRates.held", {
            date: held.published_on,
            at: formatDateTime(held.fetched_at, locale),
            moved: heldMovesText(t, locale, held.moved),
          })}
        </Text>
        <Text size="small">{t("policy.exchangeRates.heldHint")}</Text>
        <Button
          size="small"
          variant="secondary"
          isLoading={accept.isPending}
          onClick={onAccept}
          data-testid="crypto-accept-held-rates"
        >
          {t("policy.exchangeRates.accept")}
        </Button>
      </div>
    </Alert>
  )
}

/** "Exchange rates" of one provider, with a publication held for a jump for the admin to accept. */
export function ExchangeRatesSection({ providerId, rates }: { providerId: string; rates: ExchangeRates }) {
  const { t, locale } = useCryptoI18n()
  const ecb = rates.source === "ecb"
  return (
    <div
      className="border-ui-border-base flex flex-col gap-y-2 border-t pt-4"
      data-testid="crypto-exchange-rates"
      data-source={rates.source}
    >
      <div className="flex flex-col gap-y-1">
        <Text size="small" leading="compact" weight="plus">
          {t("policy.exchangeRates.title")}
        </Text>
        <Text size="xsmall" className="text-ui-fg-subtle">
          {t("policy.exchangeRates.hint")}
        </Text>
      </div>
      <div>
        <Row label={t("policy.exchangeRates.rows.source")}>{rateSourceLabel(t, rates.source)}</Row>
        {ecb && rates.url && (
          <Row label={t("policy.exchangeRates.rows.url")}>
            <a
              className="text-ui-fg-interactive hover:text-ui-fg-interactive-hover break-all"
              href={rates.url}
              target="_blank"
              rel="noreferrer"
            >
              {rates.url}
            </a>
          </Row>
        )}
        {ecb && (
          <Row label={t("policy.exchangeRates.rows.publication")}>
            <span className="inline-flex flex-wrap items-center gap-x-2 gap-y-1" data-testid="crypto-rates-publication">
              <span>{publicationText(t, locale, rates)}</span>
              {rates.published_on && rates.fresh !== null && (
                <Badge size="2xsmall" color={rates.fresh ? "green" : "red"} data-fresh={rates.fresh}>
                  {rates.fresh ? t("policy.exchangeRates.fresh") : t("policy.exchangeRates.stale")}
                </Badge>
              )}
              {rates.published_on && rates.misses_working_day && (
                <Badge size="2xsmall" color="orange">
                  {t("policy.exchangeRates.missesWorkingDay")}
                </Badge>
              )}
            </span>
          </Row>
        )}
        {ecb && rates.fetched_at && (
          <Row label={t("policy.exchangeRates.rows.fetched")}>{formatDateTime(rates.fetched_at, locale)}</Row>
        )}
        {ecb && rates.next_refresh_at && (
          <Row label={t("policy.exchangeRates.rows.nextRefresh")}>
            {rates.refresh_minutes !== null
              ? t("policy.exchangeRates.nextRefresh", {
                  at: formatDateTime(rates.next_refresh_at, locale),
                  minutes: rates.refresh_minutes,
                })
              : formatDateTime(rates.next_refresh_at, locale)}
          </Row>
        )}
        {rates.source !== "off" && rates.markup_percent !== null && (
          <Row label={t("policy.exchangeRates.rows.markup")}>{formatPercent(rates.markup_percent, locale)}</Row>
        )}
        {ecb && rates.max_age_hours !== null && (
          <Row label={t("policy.exchangeRates.rows.maxAge")}>
            {t("policy.exchangeRates.maxAge", { hours: formatAmount(rates.max_age_hours, locale) })}
          </Row>
        )}
      </div>
      {/* the server's words, in English, as the health's details */}
      {rates.last_error && (
        <Alert variant="warning" data-testid="crypto-rates-error">
          {t("policy.exchangeRates.lastError", { error: rates.last_error })}
        </Alert>
      )}
      {rates.held && <HeldRates providerId={providerId} held={rates.held} />}
      {rates.source !== "off" && <RatesTable rates={rates.rates} />}
    </div>
  )
}
