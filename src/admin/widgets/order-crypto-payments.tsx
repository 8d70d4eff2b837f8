import { defineWidgetConfig } from "@medusajs/admin-sdk"
import type { AdminOrder, DetailWidgetProps } from "@medusajs/framework/types"
import { Container, Heading, Text } from "@medusajs/ui"
import { CryptoPaymentCard } from "../components/crypto-payment-card"
import { OutstandingCollectionRow } from "../components/outstanding-collection"
import { outstandingCollections } from "../lib/amounts-due"
import { useCryptoPayments } from "../lib/payment-queries"
import { useCryptoI18n } from "../lib/i18n"
import { useOrderCollections } from "../lib/payment-links"

/**
 * The crypto payments of an order (what paid it, and anything that arrived late, short or twice), and
 * for any of its payment collections still waiting for money, a way to ask for it in crypto.
 */
const OrderCryptoPaymentsWidget = ({ data: order }: DetailWidgetProps<AdminOrder>) => {
  const { t } = useCryptoI18n()
  const { data, isLoading, error } = useCryptoPayments({ order_id: order.id, limit: 20 })
  const collections = useOrderCollections(order.id)
  if (isLoading || collections.isLoading) return null
  const payments = data?.payments ?? []
  const outstanding = outstandingCollections(collections.data?.collections ?? [])
  if (!error && !payments.length && !outstanding.length) return null
  const currencyCode = collections.data?.currency_code ?? order.currency_code
  return (
    <Container className="divide-y p-0" data-testid="crypto-payments-widget">
      <div className="px-6 py-4">
        <Heading level="h2">{t("widget.title")}</Heading>
      </div>
      {outstanding.map((item) => (
        <OutstandingCollectionRow
          key={item.collection.id}
          outstanding={item}
          currencyCode={currencyCode}
          payments={payments}
        />
      ))}
      {collections.error && (
        <Text size="small" className="text-ui-fg-error px-6 py-4">
          {t("widget.collectionsError", { message: (collections.error as Error).message })}
        </Text>
      )}
      {error ? (
        <Text size="small" className="text-ui-fg-error px-6 py-4">
          {(error as Error).message}
        </Text>
      ) : (
        payments.map((payment) => <CryptoPaymentCard key={payment.id} payment={payment} />)
      )}
    </Container>
  )
}

export const config = defineWidgetConfig({ zone: "order.details.side.after" })

export default OrderCryptoPaymentsWidget
