import { Text } from "@medusajs/ui"
import { useCryptoI18n } from "../lib/i18n"
import { activityLines, emailsOff } from "../lib/payment-activity"
import { useCryptoPaymentDetail } from "../lib/payment-queries"

const LINE = "txt-compact-xsmall"

/** The payment's events and customer emails: only the payment's own read carries them, one read per card. */
export function PaymentActivity({ paymentId }: { paymentId: string }) {
  const { t, locale } = useCryptoI18n()
  const { data: detail, error } = useCryptoPaymentDetail(paymentId)
  if (error) {
    return (
      <Text size="xsmall" className="text-ui-fg-error" data-testid="crypto-events-error">
        {t("activity.error", { message: (error as Error).message })}
      </Text>
    )
  }
  if (!detail) return null
  const lines = activityLines(t, locale, detail)
  return (
    <div className="flex flex-col gap-y-2">
      <Text size="small" leading="compact" className="text-ui-fg-subtle">
        {t("activity.title")}
      </Text>
      <ol className="flex flex-col gap-y-1" data-testid="crypto-events">
        {lines.map((line) =>
          line.type === "event" ? (
            <li
              key={line.key}
              className={`${LINE} text-ui-fg-subtle`}
              data-event={line.name}
              data-delivered={line.delivered}
            >
              {line.text}
            </li>
          ) : (
            <li
              key={line.key}
              className={`${LINE} ${line.status === "failed" ? "text-ui-fg-error" : "text-ui-fg-subtle"}`}
              data-testid="crypto-email"
              data-kind={line.kind}
              data-status={line.status}
            >
              {line.text}
            </li>
          )
        )}
        {lines.length === 0 && <li className={`${LINE} text-ui-fg-muted`}>{t("activity.empty")}</li>}
        {emailsOff(detail) && (
          <li className={`${LINE} text-ui-fg-muted`} data-testid="crypto-emails-off">
            {t("activity.emailsOff")}
          </li>
        )}
      </ol>
    </div>
  )
}
