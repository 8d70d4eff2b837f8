import { Container, Heading, Text } from "@medusajs/ui"
import { useCryptoBalances } from "../lib/payment-queries"
import type { CryptoBalance } from "../lib/payment-types"
import { formatAmount, formatDateTime } from "../lib/format"
import { useCryptoI18n } from "../lib/i18n"
import { ProgressBar } from "./progress-bar"

type Period = "daily" | "monthly"

function LimitBar({ period, limit }: { period: Period; limit: CryptoBalance["limits"][Period] }) {
  const { t, locale } = useCryptoI18n()
  const usage = {
    used: formatAmount(limit.used, locale),
    limit: formatAmount(limit.limit, locale),
    remaining: formatAmount(limit.remaining, locale),
  }
  return (
    <div className="flex flex-col gap-y-1" data-testid="crypto-limit" data-period={period}>
      <div className="flex justify-between">
        <Text size="xsmall" className="text-ui-fg-subtle">
          {t(`balances.limits.${period}`, usage)}
        </Text>
        {limit.reset_at && (
          <Text size="xsmall" className="text-ui-fg-muted">
            {t("balances.resets", { at: formatDateTime(limit.reset_at, locale) })}
          </Text>
        )}
      </div>
      <ProgressBar value={limit.used} max={limit.limit} label={t(`balances.limitBars.${period}`)} />
    </div>
  )
}

function BalanceRow({ balance }: { balance: CryptoBalance }) {
  const { t, locale } = useCryptoI18n()
  return (
    <div className="flex flex-col gap-y-2 px-6 py-4" data-testid="crypto-balance" data-currency={balance.currency}>
      <div className="flex items-baseline justify-between">
        <Heading level="h3">{balance.currency}</Heading>
        <Text size="small">
          <span data-testid="crypto-available">{formatAmount(balance.available, locale)}</span>
          {` ${t("balances.available")} · ${t("balances.pending", { amount: formatAmount(balance.pending, locale) })}`}
        </Text>
      </div>
      <Text size="xsmall" className="text-ui-fg-subtle">
        {t("balances.totals", {
          earned: formatAmount(balance.total_earned, locale),
          withdrawn: formatAmount(balance.total_withdrawn, locale),
        })}
      </Text>
      <LimitBar period="daily" limit={balance.limits.daily} />
      <LimitBar period="monthly" limit={balance.limits.monthly} />
    </div>
  )
}

export function Balances() {
  const { t } = useCryptoI18n()
  const { data, isLoading, error } = useCryptoBalances()
  return (
    <Container className="divide-y p-0">
      <div className="px-6 py-4">
        <Heading level="h2">{t("balances.title")}</Heading>
        <Text size="small" className="text-ui-fg-subtle">
          {t("balances.hint")}
        </Text>
      </div>
      {isLoading && <Text className="px-6 py-4">{t("common.loading")}</Text>}
      {error && (
        <Text className="text-ui-fg-error px-6 py-4" data-testid="crypto-balances-error">
          {(error as Error).message}
        </Text>
      )}
      {data && !data.length && <Text className="px-6 py-4">{t("balances.empty")}</Text>}
      {data?.map((balance) => (
        <BalanceRow key={balance.currency} balance={balance} />
      ))}
    </Container>
  )
}
