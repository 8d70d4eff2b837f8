import { defineWidgetConfig } from "@medusajs/admin-sdk"
import type { AdminOrder, DetailWidgetProps } from "@medusajs/framework/types"
import { Container, Heading, Text } from "@medusajs/ui"
import { CryptoPaymentCard } from "../components/crypto-payment-card"
import { useCryptoPayments } from "../lib/crypto-payments"

/** The crypto payments of an order (what paid it, and anything that arrived late, short or twice). */
const OrderCryptoPaymentsWidget = ({ data: order }: DetailWidgetProps<AdminOrder>) => {
  const { data, isLoading, error } = useCryptoPayments({ order_id: order.id, limit: 20 })
  if (isLoading || (!error && !data?.payments.length)) return null
  return (
    <Container className="divide-y p-0" data-testid="crypto-payments-widget">
      <div className="px-6 py-4">
        <Heading level="h2">Crypto payments</Heading>
      </div>
      {error ? (
        <Text size="small" className="text-ui-fg-error px-6 py-4">
          {(error as Error).message}
        </Text>
      ) : (
        data!.payments.map((payment) => <CryptoPaymentCard key={payment.id} payment={payment} />)
      )}
    </Container>
  )
}

export const config = defineWidgetConfig({ zone: "order.details.side.after" })

export default OrderCryptoPaymentsWidget
