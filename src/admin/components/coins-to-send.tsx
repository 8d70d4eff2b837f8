import { Button, Copy, Text } from "@medusajs/ui"
import { useState } from "react"
import { formatAmount } from "../lib/format"
import { useCryptoI18n } from "../lib/i18n"

/**
 * Beside coins owed, shown as a wallet sends them: a copy of that figure (what the admin types into the
 * service's dashboard) and, when the exact coins differ, a control that reveals and copies them.
 */
export function CoinsToSend({
  send,
  exact,
  coin,
  testId,
}: {
  send: string
  exact: string | null
  coin: string
  testId: string
}) {
  const { t, locale } = useCryptoI18n()
  const [shown, setShown] = useState(false)
  return (
    <span className="inline-flex flex-wrap items-center gap-x-1" data-testid={testId}>
      <Copy content={send} aria-label={t("owed.copyToSend")} data-testid={`${testId}-copy`} />
      {exact !== null && (
        <Button
          size="small"
          variant="transparent"
          onClick={() => setShown(!shown)}
          aria-expanded={shown}
          data-testid={`${testId}-exact-toggle`}
        >
          {shown ? t("owed.exact.hide") : t("owed.exact.show")}
        </Button>
      )}
      {exact !== null && shown && (
        <span className="flex w-full flex-col gap-y-0.5">
          <span className="inline-flex items-center gap-x-1">
            <Text as="span" size="xsmall" className="font-mono" data-testid={`${testId}-exact`}>
              {t("owed.exact.value", { amount: `${formatAmount(exact, locale)} ${coin}`.trim() })}
            </Text>
            <Copy content={exact} aria-label={t("owed.exact.copy")} />
          </span>
          <Text as="span" size="xsmall" className="text-ui-fg-muted">
            {t("owed.exact.hint")}
          </Text>
        </span>
      )}
    </span>
  )
}
