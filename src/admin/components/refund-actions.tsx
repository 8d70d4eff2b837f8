import { Button, Copy, Hint, Input, Text, toast, usePrompt } from "@medusajs/ui"
import { useState } from "react"
import {
  copyText,
  linkExpired,
  linkToCopy,
  owedActions,
  payoutBlocker,
  payoutPrompt,
  refusalText,
} from "../lib/owed-refunds"
import { useRefundLink, useRenewRefundLink, useStartPayout, type OwedRef } from "../lib/payment-queries"
import type { OwedRecord, RefundLink } from "../lib/payment-types"
import { formatDateTime } from "../lib/format"
import { useCryptoI18n } from "../lib/i18n"

/** The link as fetched: in a field to copy by hand when the clipboard refused, with when it stops working. */
function FetchedLink({ link, copied }: { link: RefundLink; copied: boolean }) {
  const { t, locale } = useCryptoI18n()
  const { text, storefrontMissing } = linkToCopy(link)
  return (
    <div className="flex flex-col gap-y-1" data-testid="crypto-refund-link">
      <Text size="xsmall" className={copied ? "text-ui-fg-subtle" : "text-ui-fg-base"}>
        {copied ? t("owed.link.copied") : t("owed.link.copyByHand")}
      </Text>
      <div className="flex items-center gap-x-2">
        <Input
          size="small"
          readOnly
          value={text}
          aria-label={t("owed.link.title")}
          onFocus={(e) => e.currentTarget.select()}
          className="flex-1 font-mono"
          data-testid="crypto-refund-link-text"
        />
        <Copy content={text} aria-label={t("owed.link.copyLabel")} />
      </div>
      {storefrontMissing && (
        <Text size="xsmall" className="text-ui-fg-muted" data-testid="crypto-refund-link-no-storefront">
          {t("owed.link.noStorefront")}
        </Text>
      )}
      <Text size="xsmall" className="text-ui-fg-muted">
        {t("owed.link.worksUntil", { at: formatDateTime(link.expires_at, locale) })}
      </Text>
    </div>
  )
}

/**
 * The customer's link (copy, renew) and the payout, as far as they apply to the record. The payout is
 * confirmed first, showing the address it freezes, and posts that address: one the customer changed
 * meanwhile is refused.
 */
export function RefundActions({ record, owed, coin }: { record: OwedRecord; owed: OwedRef; coin: string }) {
  const { t, locale } = useCryptoI18n()
  const fetchLink = useRefundLink()
  const renewLink = useRenewRefundLink()
  const payout = useStartPayout()
  const prompt = usePrompt()
  const [shown, setShown] = useState<{ link: RefundLink; copied: boolean } | null>(null)
  const [payoutError, setPayoutError] = useState<string | null>(null)
  const actions = owedActions(record)
  const blocker = payoutBlocker(record)
  const onError = (error: unknown) => toast.error((error as Error).message)

  const onCopy = () =>
    fetchLink.mutate(owed, {
      onSuccess: async (link) => {
        const copied = await copyText(linkToCopy(link).text)
        setShown({ link, copied })
        if (copied) toast.success(t("owed.link.copied"))
      },
      onError,
    })
  const onRenew = () =>
    renewLink.mutate(owed, {
      onSuccess: (link) => {
        setShown((current) => (current ? { ...current, link } : current))
        toast.success(t("owed.link.renewed", { at: formatDateTime(link.expires_at, locale) }))
      },
      onError,
    })
  const onPayout = async () => {
    const address = record.refund_address
    if (!address) return
    setPayoutError(null)
    const confirmed = await prompt({
      ...payoutPrompt(t, locale, record, coin),
      variant: "confirmation",
      confirmText: t("owed.payout.start"),
      cancelText: t("owed.payout.cancel"),
    })
    if (!confirmed) return
    payout.mutate(
      { ...owed, body: { address } },
      {
        onSuccess: () => toast.success(t("owed.payout.startedToast")),
        onError: (error) => setPayoutError(refusalText(t, error)),
      }
    )
  }

  if (!actions.copyLink && !actions.renewLink && !actions.startPayout) return null
  const expired = linkExpired(record.link_expires_at)
  return (
    <div className="flex flex-col gap-y-2">
      <Text
        size="xsmall"
        className={expired ? "text-ui-fg-error" : "text-ui-fg-muted"}
        data-testid="crypto-refund-link-expiry"
        data-expired={expired}
      >
        {expired
          ? t("owed.link.expired", { at: formatDateTime(record.link_expires_at, locale) })
          : t("owed.link.worksUntil", { at: formatDateTime(record.link_expires_at, locale) })}
      </Text>
      <div className="flex flex-wrap gap-2">
        {actions.copyLink && (
          <Button
            size="small"
            variant="secondary"
            onClick={onCopy}
            isLoading={fetchLink.isPending}
            data-testid="crypto-copy-refund-link"
          >
            {t("owed.link.copy")}
          </Button>
        )}
        {actions.renewLink && (
          <Button
            size="small"
            variant="secondary"
            onClick={onRenew}
            isLoading={renewLink.isPending}
            data-testid="crypto-renew-refund-link"
          >
            {t("owed.link.renew")}
          </Button>
        )}
        {!record.sent_at && (
          <Button
            size="small"
            variant="secondary"
            onClick={onPayout}
            disabled={!actions.startPayout}
            isLoading={payout.isPending}
            title={blocker ? t(blocker) : t("owed.payout.hint")}
            data-testid="crypto-start-payout"
          >
            {t("owed.payout.start")}
          </Button>
        )}
      </div>
      {actions.startPayout && (
        <Text size="xsmall" className="text-ui-fg-muted">
          {t("owed.payout.hint")}
        </Text>
      )}
      {payoutError && (
        <Hint variant="error" data-testid="crypto-payout-error">
          {payoutError}
        </Hint>
      )}
      {shown && <FetchedLink link={shown.link} copied={shown.copied} />}
    </div>
  )
}
