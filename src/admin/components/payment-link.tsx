import { Button, Copy, Input, Text } from "@medusajs/ui"
import { useCryptoI18n } from "../lib/i18n"
import { QrCode } from "./qr-code"

/**
 * The service's hosted page of an open payment, to send the customer by email or chat: payments created
 * from the admin have no storefront page, so this is how the customer gets there.
 */
export function PaymentLink({ url }: { url: string }) {
  const { t } = useCryptoI18n()
  return (
    <div className="flex flex-col gap-y-2" data-testid="crypto-payment-link">
      <Text size="small" leading="compact" weight="plus">
        {t("paymentLink.title")}
      </Text>
      <Text size="xsmall" className="text-ui-fg-subtle">
        {t("paymentLink.hint")}
      </Text>
      <div className="flex items-center gap-x-2">
        <Input
          size="small"
          readOnly
          value={url}
          aria-label={t("paymentLink.title")}
          onFocus={(e) => e.currentTarget.select()}
          className="flex-1"
        />
        <Copy content={url} asChild aria-label={t("paymentLink.copyLabel")}>
          <Button size="small" variant="secondary">
            {t("paymentLink.copy")}
          </Button>
        </Copy>
      </div>
      <div className="flex justify-center">
        <QrCode payload={url} size={144} label={t("paymentLink.qrLabel")} />
      </div>
    </div>
  )
}
