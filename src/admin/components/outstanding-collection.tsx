import { Button, Select, Text, toast } from "@medusajs/ui"
import { useState } from "react"
import { OutstandingCollection } from "../lib/amounts-due"
import type { CryptoPayment } from "../lib/payment-types"
import { formatMoney } from "../lib/format"
import { useCryptoI18n } from "../lib/i18n"
import { LINK_COINS, LinkCoin, useCreatePaymentLink, useCryptoProviderId } from "../lib/payment-links"

/** Radix's select refuses an empty value: this one stands for "no coin", an invoice. */
const ANY_COIN = "any"

/**
 * A collection of the order still waiting for money (an edit, claim or exchange that costs more), with
 * a button that creates a crypto payment for the merchant to send the customer: no storefront needed.
 */
export function OutstandingCollectionRow({
  outstanding: { collection, due },
  currencyCode,
  payments,
}: {
  outstanding: OutstandingCollection
  currencyCode: string
  payments: CryptoPayment[]
}) {
  const { t, locale } = useCryptoI18n()
  const [coin, setCoin] = useState<string>(ANY_COIN)
  const provider = useCryptoProviderId()
  const create = useCreatePaymentLink()
  const open = payments.find((p) => p.payment_collection_id === collection.id && p.status === "PENDING")

  const onCreate = () => {
    if (!provider.data) return
    create.mutate(
      {
        collectionId: collection.id,
        providerId: provider.data,
        coin: coin === ANY_COIN ? undefined : (coin as LinkCoin),
      },
      {
        onSuccess: () => toast.success(t("outstanding.created")),
        onError: (error) => toast.error((error as Error).message),
      }
    )
  }

  return (
    <div
      className="flex flex-col gap-y-2 px-6 py-4"
      data-testid="crypto-outstanding"
      data-collection-id={collection.id}
    >
      <div className="flex items-center justify-between gap-x-2">
        <Text size="small" leading="compact" weight="plus">
          {t("outstanding.amountDue")}
        </Text>
        <Text size="small" leading="compact" data-testid="crypto-amount-due">
          {formatMoney(due, collection.currency_code || currencyCode, locale)}
        </Text>
      </div>
      {open ? (
        <Text size="xsmall" className="text-ui-fg-subtle">
          {t("outstanding.open")}
        </Text>
      ) : (
        <>
          <Text size="xsmall" className="text-ui-fg-subtle">
            {t("outstanding.notPaid")}
          </Text>
          <div className="flex flex-wrap items-center gap-2">
            <Select size="small" value={coin} onValueChange={setCoin}>
              <Select.Trigger className="w-52" aria-label={t("outstanding.coin")}>
                <Select.Value />
              </Select.Trigger>
              <Select.Content>
                <Select.Item value={ANY_COIN}>{t("outstanding.anyCoin")}</Select.Item>
                {LINK_COINS.map(({ value, label }) => (
                  <Select.Item key={value} value={value}>
                    {label}
                  </Select.Item>
                ))}
              </Select.Content>
            </Select>
            <Button
              size="small"
              variant="secondary"
              onClick={onCreate}
              isLoading={create.isPending}
              disabled={!provider.data}
            >
              {t("outstanding.create")}
            </Button>
          </div>
          {provider.error ? (
            <Text size="xsmall" className="text-ui-fg-error">
              {(provider.error as Error).message}
            </Text>
          ) : (
            provider.data === null && (
              <Text size="xsmall" className="text-ui-fg-error">
                {t("outstanding.noProvider")}
              </Text>
            )
          )}
        </>
      )}
    </div>
  )
}
