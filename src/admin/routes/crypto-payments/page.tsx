import { defineRouteConfig } from "@medusajs/admin-sdk"
import { CashSolid } from "@medusajs/icons"
import { Badge, Container, Heading, Select, Table, Text } from "@medusajs/ui"
import { useState } from "react"
import { Link } from "react-router-dom"
import { PaymentPolicyPanel } from "../../components/crypto-settings"
import { PaymentStatusBadge } from "../../components/payment-status-badge"
import { ProgressBar } from "../../components/progress-bar"
import { SetupHealthPanel } from "../../components/setup-health"
import {
  CryptoBalance,
  CryptoPayment,
  FLAG_FILTERS,
  FLAG_LABELS,
  INFO_FLAGS,
  useCryptoBalances,
  useCryptoPayments,
} from "../../lib/crypto-payments"

const PAGE_SIZE = 20
const ALL = "all"

function LimitBar({ name, limit }: { name: string; limit: CryptoBalance["limits"]["daily"] }) {
  return (
    <div className="flex flex-col gap-y-1">
      <div className="flex justify-between">
        <Text size="xsmall" className="text-ui-fg-subtle">
          {name} withdrawals: {limit.used} of {limit.limit} used, {limit.remaining} left
        </Text>
        {limit.reset_at && (
          <Text size="xsmall" className="text-ui-fg-muted">
            resets {new Date(limit.reset_at).toLocaleString()}
          </Text>
        )}
      </div>
      <ProgressBar value={limit.used} max={limit.limit} label={`${name} withdrawal limit`} />
    </div>
  )
}

function Balances() {
  const { data, isLoading, error } = useCryptoBalances()
  return (
    <Container className="divide-y p-0">
      <div className="px-6 py-4">
        <Heading level="h2">Balances at the payment service</Heading>
        <Text size="small" className="text-ui-fg-subtle">
          Withdrawals and refunds are made from the service's dashboard.
        </Text>
      </div>
      {isLoading && <Text className="px-6 py-4">Loading…</Text>}
      {error && (
        <Text className="text-ui-fg-error px-6 py-4" data-testid="crypto-balances-error">
          {(error as Error).message}
        </Text>
      )}
      {data && !data.length && <Text className="px-6 py-4">No balances yet: no coin has received a payment.</Text>}
      {data?.map((balance) => (
        <div
          key={balance.currency}
          className="flex flex-col gap-y-2 px-6 py-4"
          data-testid="crypto-balance"
          data-currency={balance.currency}
        >
          <div className="flex items-baseline justify-between">
            <Heading level="h3">{balance.currency}</Heading>
            <Text size="small">
              <span data-testid="crypto-available">{balance.available}</span> available · {balance.pending} pending
            </Text>
          </div>
          <Text size="xsmall" className="text-ui-fg-subtle">
            Earned {balance.total_earned} · withdrawn {balance.total_withdrawn}
          </Text>
          <LimitBar name="Daily" limit={balance.limits.daily} />
          <LimitBar name="Monthly" limit={balance.limits.monthly} />
        </div>
      ))}
    </Container>
  )
}

/** What the customer is owed now, in the coin and about in the base currency; a dash when nothing is. */
function OwedNow({ payment }: { payment: CryptoPayment }) {
  const { refund } = payment
  if (!refund.owed) return <>—</>
  const coin = refund.coin ?? payment.coin ?? ""
  return (
    <div className="flex flex-col items-start gap-y-0.5" data-testid="crypto-owed-now">
      <Badge size="2xsmall" color="orange">
        {refund.owed_now ? `${refund.owed_now} ${coin}` : "Owed"}
      </Badge>
      {refund.owed_now_base && (
        <Text size="xsmall" className="text-ui-fg-subtle">
          ≈ {refund.owed_now_base} {refund.base_currency}
        </Text>
      )}
    </div>
  )
}

function Payments() {
  const [flag, setFlag] = useState("needs_attention")
  const [status, setStatus] = useState(ALL)
  const [page, setPage] = useState(0)
  const filters = {
    flag: flag === ALL ? undefined : flag,
    status: status === ALL ? undefined : status,
    limit: PAGE_SIZE,
    offset: page * PAGE_SIZE,
  }
  const { data, isLoading } = useCryptoPayments(filters)
  return (
    <Container className="divide-y p-0">
      <div className="flex items-center justify-between px-6 py-4">
        <Heading level="h2">Payments</Heading>
        <div className="flex gap-x-2">
          <Select value={flag} onValueChange={(v) => (setFlag(v), setPage(0))}>
            <Select.Trigger className="w-44">
              <Select.Value />
            </Select.Trigger>
            <Select.Content>
              <Select.Item value={ALL}>Any flag</Select.Item>
              {Object.entries(FLAG_FILTERS).map(([value, label]) => (
                <Select.Item key={value} value={value}>
                  {label}
                </Select.Item>
              ))}
            </Select.Content>
          </Select>
          <Select value={status} onValueChange={(v) => (setStatus(v), setPage(0))}>
            <Select.Trigger className="w-36">
              <Select.Value />
            </Select.Trigger>
            <Select.Content>
              <Select.Item value={ALL}>Any status</Select.Item>
              {["PENDING", "COMPLETED", "EXPIRED", "FAILED"].map((s) => (
                <Select.Item key={s} value={s}>
                  {s}
                </Select.Item>
              ))}
            </Select.Content>
          </Select>
        </div>
      </div>
      <Table data-testid="crypto-payments-table">
        <Table.Header>
          <Table.Row>
            <Table.HeaderCell>Payment</Table.HeaderCell>
            <Table.HeaderCell>Status</Table.HeaderCell>
            <Table.HeaderCell>Received / required</Table.HeaderCell>
            <Table.HeaderCell>Flags</Table.HeaderCell>
            <Table.HeaderCell>Owed now</Table.HeaderCell>
            <Table.HeaderCell>What to do</Table.HeaderCell>
            <Table.HeaderCell>Order</Table.HeaderCell>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {data?.payments.map((p) => (
            <Table.Row key={p.id} data-testid="crypto-payment-row">
              <Table.Cell className="font-mono">{p.id}</Table.Cell>
              <Table.Cell>
                <PaymentStatusBadge status={p.status} />
              </Table.Cell>
              <Table.Cell>
                {p.amount_received} / {p.amount_required ?? "?"} {p.coin ?? ""}
              </Table.Cell>
              <Table.Cell>
                <div className="flex flex-wrap gap-1">
                  {p.flags.map((f) => (
                    <Badge key={f} size="2xsmall" color={INFO_FLAGS.has(f) ? "grey" : "orange"}>
                      {FLAG_LABELS[f] ?? f}
                    </Badge>
                  ))}
                </div>
              </Table.Cell>
              <Table.Cell>
                <OwedNow payment={p} />
              </Table.Cell>
              <Table.Cell className="max-w-xs whitespace-normal">
                {p.refund.owed
                  ? "Send what is owed from the service's dashboard, then mark it sent on the order."
                  : (p.attention ?? "")}
              </Table.Cell>
              <Table.Cell>
                {p.order_id ? (
                  <Link className="text-ui-fg-interactive" to={`/orders/${p.order_id}`}>
                    Open order
                  </Link>
                ) : (
                  "—"
                )}
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table>
      {isLoading && <Text className="px-6 py-4">Loading…</Text>}
      {data && !data.payments.length && <Text className="px-6 py-4">Nothing here: no payment matches.</Text>}
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
        />
      )}
    </Container>
  )
}

/**
 * "Crypto payments" in the sidebar: whether the setup works, balances and limits at the service, the payments
 * that need a look, and the payment policy (short and late payments).
 */
const CryptoPaymentsPage = () => (
  <div className="flex flex-col gap-y-3">
    <SetupHealthPanel />
    <Balances />
    <Payments />
    <PaymentPolicyPanel />
  </div>
)

export const config = defineRouteConfig({ label: "Crypto payments", icon: CashSolid })

export default CryptoPaymentsPage
