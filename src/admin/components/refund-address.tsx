import { Copy, Text } from "@medusajs/ui"
import { actorLabel, networkLabel } from "../lib/owed-refunds"
import type { OwedRecord } from "../lib/payment-types"
import { formatDateTime } from "../lib/format"
import { useCryptoI18n } from "../lib/i18n"
import { OwedSectionTitle } from "./owed-section-title"

/** Where the coins go back: the customer's address in full (the admin sends to it), its network, who gave it and when. */
export function RefundAddress({ record }: { record: OwedRecord }) {
  const { t, locale } = useCryptoI18n()
  const address = record.refund_address
  return (
    <div className="flex flex-col gap-y-0.5">
      <OwedSectionTitle>{t("owed.address.title")}</OwedSectionTitle>
      {address ? (
        <>
          <div className="flex items-start gap-x-1">
            <span className="txt-compact-small min-w-0 break-all font-mono" data-testid="crypto-refund-address">
              {address}
            </span>
            {/* the tooltip ("Copy", "Copied") is @medusajs/ui's own, in English */}
            <Copy content={address} aria-label={t("owed.address.copy")} />
          </div>
          <Text
            size="xsmall"
            className="text-ui-fg-muted"
            data-testid="crypto-refund-network"
            data-coin={record.refund_coin}
          >
            {t("owed.address.given", {
              network: networkLabel(t, record.refund_coin),
              actor: actorLabel(t, record.address_given_by, record.address_given_by_name),
              at: record.address_given_at ? formatDateTime(record.address_given_at, locale) : "—",
            })}
          </Text>
        </>
      ) : (
        <Text size="xsmall" className="text-ui-fg-muted" data-testid="crypto-refund-address" data-empty="true">
          {t("owed.address.none")}
        </Text>
      )}
    </div>
  )
}

export function AddressHistory({ changes }: { changes: OwedRecord["address_changes"] }) {
  const { t, locale } = useCryptoI18n()
  if (!changes.length) return null
  return (
    <details data-testid="crypto-refund-address-history">
      <summary className="txt-compact-xsmall text-ui-fg-subtle cursor-pointer">
        {t("owed.history.title", { count: changes.length })}
      </summary>
      <ol className="mt-1 flex flex-col gap-y-1">
        {changes.map((change) => (
          <li key={change.id} className="txt-compact-xsmall text-ui-fg-subtle flex flex-col">
            <span>
              {t("owed.history.entry", {
                at: formatDateTime(change.at, locale),
                network: networkLabel(t, change.coin),
                actor: actorLabel(t, change.actor, change.actor_name),
              })}
            </span>
            <span className="min-w-0 break-all font-mono">{change.address}</span>
          </li>
        ))}
      </ol>
    </details>
  )
}
