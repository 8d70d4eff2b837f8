import { Badge, Container, Heading, Select, Table, Text } from "@medusajs/ui"
import { useState } from "react"
import { Link } from "react-router-dom"
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
import { useCryptoPayments } from "../lib/payment-queries"
import type { CryptoPayment, PaymentFilters } from "../lib/payment-types"
import { formatAmount } from "../lib/format"
import { useCryptoI18n } from "../lib/i18n"
import { PaymentStatusBadge } from "./payment-status-badge"
import { StoreAmount } from "./store-amount"

const PAGE_SIZE = 20
const ALL = "all"

/** What the customer is owed now, in the coin and about in the base currency; a dash when nothing is. */
function OwedNow({ payment }: { payment: CryptoPayment }) {
  const { t, locale } = useCryptoI18n()
  const { refund } = payment
  if (!refund.owed) return <>—</>
  const coin = refund.coin ?? payment.coin ?? ""
  return (
    <div className="flex flex-col items-start gap-y-0.5" data-testid="crypto-owed-now">
      <Badge size="2xsmall" color="orange">
        {refund.owed_now ? `${formatAmount(refund.owed_now, locale)} ${coin}` : t("payments.owed")}
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
          <Link className="text-ui-fg-interactive" to={`/orders/${p.order_id}`}>
            {t("payments.openOrder")}
          </Link>
        ) : (
          "—"
        )}
      </Table.Cell>
    </Table.Row>
  )
}

/** A filter of the list: its options' values and words, with "any" first. */
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

/**
 * The plugin's payments, those needing attention first, filtered by flag and status, a page at a time.
 * It opens on every payment: a shop whose payments need nothing must not see "Nothing here".
 */
export function PaymentsList() {
  const { t } = useCryptoI18n()
  const [flag, setFlag] = useState<string>(ALL)
  const [status, setStatus] = useState(ALL)
  const [page, setPage] = useState(0)
  // ALL is neither a flag nor a status: the filter then asks for any
  const filters: PaymentFilters = {
    flag: isFlag(flag) ? flag : undefined,
    status: isPaymentStatus(status) ? status : undefined,
    limit: PAGE_SIZE,
    offset: page * PAGE_SIZE,
  }
  const { data, isLoading } = useCryptoPayments(filters)
  const columns = ["payment", "status", "amount", "received", "flags", "owedNow", "whatToDo", "order"] as const
  return (
    <Container className="divide-y p-0">
      <div className="flex items-center justify-between px-6 py-4">
        <Heading level="h2">{t("payments.title")}</Heading>
        <div className="flex gap-x-2">
          <Filter
            value={flag}
            onChange={(v) => (setFlag(v), setPage(0))}
            anyLabel={t("payments.anyFlag")}
            options={FLAG_FILTERS.map((f) => ({ value: f, label: flagFilterLabel(t, f) }))}
            width="w-44"
          />
          <Filter
            value={status}
            onChange={(v) => (setStatus(v), setPage(0))}
            anyLabel={t("payments.anyStatus")}
            options={PAYMENT_STATUSES.map((s) => ({ value: s, label: statusLabel(t, s) }))}
            width="w-36"
          />
        </div>
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
      {data && !data.payments.length && <Text className="px-6 py-4">{t("payments.empty")}</Text>}
      {data && (
        <Table.Pagination
          count={data.count}
          pageSize={PAGE_SIZE}
          pageIndex={page}
          pageCount={Math.max(1, Math.ceil(data.count / PAGE_SIZE))}
          canPreviousPage={page > 0}
          canNextPage={(page + 1) * PAGE_SIZE < data.count}
          previousPage={() => setPage(page - 1)}
          nextPage={() => setPage(page + 1)}
          translations={{
            of: t("payments.pagination.of"),
            results: t("payments.pagination.results"),
            pages: t("payments.pagination.pages"),
            prev: t("payments.pagination.prev"),
            next: t("payments.pagination.next"),
          }}
        />
      )}
    </Container>
  )
}
