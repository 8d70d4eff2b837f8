import { Badge, Button, Container, Heading, Input, Select, Table, Text } from "@medusajs/ui"
import { ReactNode, useEffect, useState } from "react"
import { Link, useSearchParams } from "react-router-dom"
import { parseOrderRef } from "../../lib/domain/order-ref"
import {
  FLAG_FILTERS,
  flagFilterLabel,
  flagLabel,
  INFO_FLAGS,
  isFlag,
  isPaymentStatus,
  PAYMENT_STATUSES,
  statusLabel,
} from "../lib/payment-labels"
import { LINK_COINS } from "../lib/payment-links"
import {
  LIST_SEARCH_KEYS,
  ListSearch,
  listSearchOf,
  paymentFiltersOf,
  withListSearch,
  withoutListSearch,
} from "../lib/payment-list-search"
import { useCryptoPayments } from "../lib/payment-queries"
import type { CryptoPayment } from "../lib/payment-types"
import { formatAmount } from "../lib/format"
import { useCryptoI18n } from "../lib/i18n"
import { PaymentStatusBadge } from "./payment-status-badge"
import { StoreAmount } from "./store-amount"

const PAGE_SIZE = 20
const ALL = "all"

/**
 * What the customer is owed now, in the coin as a wallet sends it (the exact figure on the payment's card) and
 * about in the base currency; a dash when nothing is.
 */
function OwedNow({ payment }: { payment: CryptoPayment }) {
  const { t, locale } = useCryptoI18n()
  const { refund } = payment
  if (!refund.owed) return <>—</>
  const coin = refund.coin ?? payment.coin ?? ""
  return (
    <div className="flex flex-col items-start gap-y-0.5" data-testid="crypto-owed-now">
      <Badge size="2xsmall" color="orange">
        {refund.owed_now
          ? `${formatAmount(refund.owed_now_sendable ?? refund.owed_now, locale)} ${coin}`
          : t("payments.owed")}
      </Badge>
      {refund.owed_now_base && (
        <Text size="xsmall" className="text-ui-fg-subtle">
          {`≈ ${formatAmount(refund.owed_now_base, locale)} ${refund.base_currency}`}
        </Text>
      )}
    </div>
  )
}

function PaymentRow({ payment: p }: { payment: CryptoPayment }) {
  const { t, locale } = useCryptoI18n()
  const required = p.amount_required === null ? "?" : formatAmount(p.amount_required, locale)
  return (
    <Table.Row data-testid="crypto-payment-row" data-payment-id={p.id}>
      <Table.Cell className="font-mono">{p.id}</Table.Cell>
      <Table.Cell>
        <PaymentStatusBadge status={p.status} />
      </Table.Cell>
      <Table.Cell>
        <StoreAmount payment={p} className="max-w-[16rem]" />
      </Table.Cell>
      <Table.Cell>{`${formatAmount(p.amount_received, locale)} / ${required} ${p.coin ?? ""}`}</Table.Cell>
      <Table.Cell>
        <div className="flex flex-wrap gap-1">
          {p.flags.map((f) => (
            <Badge key={f} size="2xsmall" color={INFO_FLAGS.has(f) ? "grey" : "orange"} data-flag={f}>
              {flagLabel(t, f)}
            </Badge>
          ))}
        </div>
      </Table.Cell>
      <Table.Cell>
        <OwedNow payment={p} />
      </Table.Cell>
      {/* what to do about it: ours when money is owed, else the server's words (English) */}
      <Table.Cell className="max-w-xs whitespace-normal">
        {p.refund.owed ? t("payments.sendOwed") : (p.attention ?? "")}
      </Table.Cell>
      <Table.Cell>
        {p.order_id ? (
          <Link className="text-ui-fg-interactive" to={`/orders/${p.order_id}`} data-testid="crypto-payment-order">
            {p.order_display_id ? `#${p.order_display_id}` : t("payments.openOrder")}
          </Link>
        ) : (
          "—"
        )}
      </Table.Cell>
    </Table.Row>
  )
}

function Filter({
  value,
  onChange,
  anyLabel,
  options,
  width,
}: {
  value: string
  onChange: (value: string) => void
  anyLabel: string
  options: Array<{ value: string; label: string }>
  width: string
}) {
  return (
    <Select value={value} onValueChange={onChange}>
      <Select.Trigger className={width}>
        <Select.Value />
      </Select.Trigger>
      <Select.Content>
        <Select.Item value={ALL}>{anyLabel}</Select.Item>
        {options.map((option) => (
          <Select.Item key={option.value} value={option.value}>
            {option.label}
          </Select.Item>
        ))}
      </Select.Content>
    </Select>
  )
}

/** The order filter: what is typed, applied on Enter or when the field is left; what names no order is said so. */
function OrderFilter({ value, onApply }: { value: string; onApply: (value: string) => void }) {
  const { t } = useCryptoI18n()
  const [typed, setTyped] = useState(value)
  // the URL changed under the field (back, a cleared filter): show what it holds
  useEffect(() => setTyped(value), [value])
  const named = !typed.trim() || !!parseOrderRef(typed)
  return (
    <form
      className="flex flex-col"
      onSubmit={(event) => {
        event.preventDefault()
        onApply(typed.trim())
      }}
    >
      <Input
        className="w-44"
        value={typed}
        placeholder={t("payments.filters.order")}
        aria-label={t("payments.filters.order")}
        aria-invalid={!named}
        onChange={(event) => setTyped(event.target.value)}
        onBlur={() => typed.trim() !== value && onApply(typed.trim())}
        data-testid="crypto-payments-order-filter"
      />
      {!named && (
        <Text size="xsmall" className="text-ui-fg-error">
          {t("payments.filters.notAnOrder")}
        </Text>
      )}
    </form>
  )
}

/** A day of the date range (the admin's own days, both ends included). */
function DayFilter({
  label,
  value,
  min,
  max,
  onChange,
}: {
  label: string
  value: string
  min?: string
  max?: string
  onChange: (value: string) => void
}) {
  return (
    <div className="flex items-center gap-x-1.5">
      <Text size="small" className="text-ui-fg-subtle">
        {label}
      </Text>
      <Input
        type="date"
        className="w-36"
        value={value}
        min={min}
        max={max}
        aria-label={label}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  )
}

/**
 * The plugin's payments, a page at a time (no page count: counting a large ledger costs more than the
 * page). It opens on every payment: a shop whose payments need nothing must not see "Nothing here".
 */
export function PaymentsList({ actions }: { actions?: ReactNode }) {
  const { t } = useCryptoI18n()
  const [params, setParams] = useSearchParams()
  const search = listSearchOf(params)
  const { data, isLoading, error } = useCryptoPayments(paymentFiltersOf(search, PAGE_SIZE), { paging: true })
  const change = (values: Partial<ListSearch>) => setParams((current) => withListSearch(current, values))
  const filtered = LIST_SEARCH_KEYS.some((key) => key !== "cursor" && search[key])
  const columns = ["payment", "status", "amount", "received", "flags", "owedNow", "whatToDo", "order"] as const
  return (
    <Container className="divide-y p-0">
      <div className="flex items-center justify-between px-6 py-4">
        <Heading level="h2">{t("payments.title")}</Heading>
        <div className="flex items-center gap-x-2" data-testid="crypto-payments-actions">
          {actions}
        </div>
      </div>
      <div className="flex flex-wrap items-start gap-2 px-6 py-4" data-testid="crypto-payments-filters">
        <Filter
          value={search.flag ?? ALL}
          onChange={(v) => change({ flag: isFlag(v) ? v : undefined })}
          anyLabel={t("payments.anyFlag")}
          options={FLAG_FILTERS.map((f) => ({ value: f, label: flagFilterLabel(t, f) }))}
          width="w-44"
        />
        <Filter
          value={search.status ?? ALL}
          onChange={(v) => change({ status: isPaymentStatus(v) ? v : undefined })}
          anyLabel={t("payments.anyStatus")}
          options={PAYMENT_STATUSES.map((s) => ({ value: s, label: statusLabel(t, s) }))}
          width="w-36"
        />
        <Filter
          value={search.coin ?? ALL}
          onChange={(v) => change({ coin: LINK_COINS.find((c) => c.value === v)?.value })}
          anyLabel={t("payments.anyCoin")}
          options={LINK_COINS.map((c) => ({ value: c.value, label: c.label }))}
          width="w-36"
        />
        <DayFilter
          label={t("payments.filters.from")}
          value={search.from ?? ""}
          max={search.to}
          onChange={(from) => change({ from })}
        />
        <DayFilter
          label={t("payments.filters.to")}
          value={search.to ?? ""}
          min={search.from}
          onChange={(to) => change({ to })}
        />
        <OrderFilter value={search.order ?? ""} onApply={(order) => change({ order })} />
        {filtered && (
          <Button size="small" variant="transparent" onClick={() => setParams((current) => withoutListSearch(current))}>
            {t("payments.filters.clear")}
          </Button>
        )}
      </div>
      <Table data-testid="crypto-payments-table">
        <Table.Header>
          <Table.Row>
            {columns.map((column) => (
              <Table.HeaderCell key={column}>{t(`payments.columns.${column}`)}</Table.HeaderCell>
            ))}
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {data?.payments.map((p) => (
            <PaymentRow key={p.id} payment={p} />
          ))}
        </Table.Body>
      </Table>
      {isLoading && <Text className="px-6 py-4">{t("common.loading")}</Text>}
      {/* the server's words (a cursor from an older list, say): Clear filters starts again */}
      {error && (
        <Text className="text-ui-fg-error px-6 py-4" data-testid="crypto-payments-error">
          {error.message}
        </Text>
      )}
      {data && !data.payments.length && <Text className="px-6 py-4">{t("payments.empty")}</Text>}
      {data && (
        <div className="flex items-center justify-end gap-x-2 px-6 py-4" data-testid="crypto-payments-pages">
          <Button
            size="small"
            variant="secondary"
            disabled={!data.prev_cursor}
            onClick={() => change({ cursor: data.prev_cursor ?? undefined })}
          >
            {t("payments.pagination.prev")}
          </Button>
          <Button
            size="small"
            variant="secondary"
            disabled={!data.next_cursor}
            onClick={() => change({ cursor: data.next_cursor ?? undefined })}
          >
            {t("payments.pagination.next")}
          </Button>
        </div>
      )}
    </Container>
  )
}
