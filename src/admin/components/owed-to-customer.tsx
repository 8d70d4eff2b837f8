import { Alert, Badge, Button, Copy, Hint, Input, Label, Select, Text, toast, usePrompt } from "@medusajs/ui"
import { useState } from "react"
import {
  actorLabel,
  basisFormDefaults,
  basisLabel,
  basisText,
  checkBasisForm,
  copyText,
  linkExpired,
  linkToCopy,
  markSentBlocker,
  networkLabel,
  owedActions,
  payoutBlocker,
  payoutPrompt,
  REFUND_BASES,
  refundSentBody,
  refusalText,
} from "../lib/owed-refunds"
import { owedKindLabel, owedNowText } from "../lib/payment-labels"
import {
  useChooseRefundBasis,
  useMarkRefundSent,
  useRefundLink,
  useRenewRefundLink,
  useStartPayout,
  type OwedRef,
} from "../lib/payment-queries"
import type { CryptoPayment, OwedRecord, RefundBasis, RefundLink } from "../lib/payment-types"
import { formatAmount, formatDateTime } from "../lib/format"
import { useCryptoI18n } from "../lib/i18n"

const SECTION_TITLE = "text-ui-fg-subtle"

/** Where the coins go back: the customer's address in full (the admin sends to it), its network, who gave it and when. */
function RefundAddress({ record }: { record: OwedRecord }) {
  const { t, locale } = useCryptoI18n()
  const address = record.refund_address
  return (
    <div className="flex flex-col gap-y-0.5">
      <Text size="xsmall" weight="plus" className={SECTION_TITLE}>
        {t("owed.address.title")}
      </Text>
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

/** Every address given for the record, oldest first, folded away. */
function AddressHistory({ changes }: { changes: OwedRecord["address_changes"] }) {
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
function RecordActions({ record, owed, coin }: { record: OwedRecord; owed: OwedRef; coin: string }) {
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

/** A labelled decimal input with its error under it. */
function DecimalField(props: {
  id: string
  label: string
  placeholder: string
  value: string
  error?: string
  onChange: (value: string) => void
  testId: string
  className?: string
}) {
  return (
    <div className="flex flex-col gap-y-1">
      <Label htmlFor={props.id} size="xsmall" weight="plus">
        {props.label}
      </Label>
      <Input
        id={props.id}
        size="small"
        inputMode="decimal"
        autoComplete="off"
        placeholder={props.placeholder}
        className={props.className}
        value={props.value}
        aria-invalid={!!props.error}
        onChange={(event) => props.onChange(event.target.value)}
        data-testid={props.testId}
      />
      {props.error && <Hint variant="error">{props.error}</Hint>}
    </div>
  )
}

/** Chooses the refund's basis (the rate at payment, or coins typed) and a fee; the server's refusal shows below it. */
function BasisForm({ record, owed, coin }: { record: OwedRecord; owed: OwedRef; coin: string }) {
  const { t, locale } = useCryptoI18n()
  const choose = useChooseRefundBasis()
  const [values, setValues] = useState(() => basisFormDefaults(record))
  const [serverError, setServerError] = useState<string | null>(null)
  const { body, errors } = checkBasisForm(values, record.coin ?? coin)
  const id = `crypto-basis-${record.id}`

  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault()
    if (!body) return
    setServerError(null)
    choose.mutate(
      { ...owed, body },
      {
        onSuccess: ({ payment }) => {
          const saved = payment.refund.records.find((r) => r.id === record.id)
          toast.success(
            saved?.coin_amount
              ? t("owed.basisForm.saved", { amount: formatAmount(saved.coin_amount, locale), coin })
              : t("owed.basisForm.savedNoAmount")
          )
        },
        onError: (error) => setServerError((error as Error).message),
      }
    )
  }

  return (
    <form
      className="flex flex-col gap-y-2"
      onSubmit={onSubmit}
      data-testid="crypto-refund-basis-form"
      data-owed-id={record.id}
    >
      <Text size="xsmall" weight="plus" className={SECTION_TITLE}>
        {t("owed.basisForm.title")}
      </Text>
      <Text size="xsmall" className="text-ui-fg-muted">
        {t("owed.basisForm.hint")}
      </Text>
      <div className="flex flex-col gap-y-1">
        <Label htmlFor={`${id}-basis`} size="xsmall" weight="plus">
          {t("owed.basisForm.basis")}
        </Label>
        <Select
          size="small"
          value={values.basis}
          onValueChange={(basis) => setValues({ ...values, basis: basis as RefundBasis })}
        >
          <Select.Trigger id={`${id}-basis`} data-testid="crypto-refund-basis-select">
            <Select.Value />
          </Select.Trigger>
          <Select.Content>
            {REFUND_BASES.map((basis) => (
              <Select.Item key={basis} value={basis}>
                {basisLabel(t, basis)}
              </Select.Item>
            ))}
          </Select.Content>
        </Select>
      </div>
      {values.basis === "fixed_coins" && (
        <DecimalField
          id={`${id}-coins`}
          label={t("owed.basisForm.coins", { coin })}
          placeholder="0.0051"
          value={values.coins}
          error={errors.coins && t(errors.coins.key, errors.coins.values)}
          onChange={(coins) => setValues({ ...values, coins })}
          testId="crypto-refund-basis-coins"
        />
      )}
      <DecimalField
        id={`${id}-fee`}
        label={t("owed.basisForm.fee")}
        placeholder="0"
        className="w-32"
        value={values.fee}
        error={errors.fee && t(errors.fee.key, errors.fee.values)}
        onChange={(fee) => setValues({ ...values, fee })}
        testId="crypto-refund-basis-fee"
      />
      {serverError && (
        <Hint variant="error" data-testid="crypto-refund-basis-error">
          {serverError}
        </Hint>
      )}
      <div>
        <Button
          type="submit"
          size="small"
          variant="secondary"
          disabled={!body}
          isLoading={choose.isPending}
          data-testid="crypto-refund-basis-submit"
        >
          {t("owed.basisForm.submit")}
        </Button>
      </div>
    </form>
  )
}

/**
 * Sending one record's coins back: the customer's address, the basis and fee, the payout once started,
 * the customer's link and the payout to act on while the coins are not sent, the basis form, the
 * addresses given before.
 */
function RecordRefund({ record, paymentId, coin }: { record: OwedRecord; paymentId: string; coin: string }) {
  const { t, locale } = useCryptoI18n()
  const owed: OwedRef = { paymentId, owedId: record.id }
  return (
    <div className="border-ui-border-base mt-1 flex flex-col gap-y-2 border-t pt-2">
      <RefundAddress record={record} />
      <div className="flex flex-col gap-y-0.5">
        <Text size="xsmall" weight="plus" className={SECTION_TITLE}>
          {t("owed.basis.title")}
        </Text>
        <Text
          size="xsmall"
          className="text-ui-fg-base"
          data-testid="crypto-refund-basis"
          data-basis={record.basis ?? ""}
        >
          {basisText(t, locale, record)}
        </Text>
      </div>
      {record.payout_started_at && (
        <Text size="xsmall" weight="plus" data-testid="crypto-payout-started">
          {t("owed.payout.started", {
            actor: actorLabel(t, record.payout_started_by, record.payout_started_by_name),
            at: formatDateTime(record.payout_started_at, locale),
          })}
        </Text>
      )}
      <RecordActions record={record} owed={owed} coin={coin} />
      {owedActions(record).chooseBasis && <BasisForm record={record} owed={owed} coin={coin} />}
      <AddressHistory changes={record.address_changes} />
    </div>
  )
}

/** One owed amount: its kind, coins and base amount, the refund's reason and note, sent or open, and how it goes back. */
function OwedRecordItem({
  record,
  paymentId,
  coin,
  baseCurrency,
}: {
  record: OwedRecord
  paymentId: string
  coin: string
  baseCurrency: string
}) {
  const { t, locale } = useCryptoI18n()
  // the reason and the note are the merchant's words, as Medusa keeps them
  const why = record.kind === "refund" ? [record.reason, record.note].filter(Boolean).join(" · ") : ""
  const coins = record.coin_amount === null ? "?" : formatAmount(record.coin_amount, locale)
  const when = [
    record.created_at && t("owed.since", { at: formatDateTime(record.created_at, locale) }),
    record.sent_at && t("owed.sentAt", { at: formatDateTime(record.sent_at, locale) }),
    record.reference && t("owed.reference", { reference: record.reference }),
  ]
  return (
    <li
      className="border-ui-border-base flex flex-col gap-y-1 rounded-md border px-3 py-2"
      data-testid="crypto-owed-record"
      data-owed-id={record.id}
      data-kind={record.kind}
      title={record.refund_id ? t("owed.medusaRefund", { id: record.refund_id }) : undefined}
    >
      <div className="flex items-center justify-between gap-x-2">
        <Badge size="2xsmall" color="grey">
          {owedKindLabel(t, record.kind)}
        </Badge>
        <Badge size="2xsmall" color={record.sent_at ? "green" : "orange"} data-sent={Boolean(record.sent_at)}>
          {record.sent_at ? t("owed.sent") : t("owed.open")}
        </Badge>
      </div>
      <Text size="small" leading="compact">
        {`${coins} ${coin} (≈ ${formatAmount(record.base_amount, locale)} ${baseCurrency})`}
      </Text>
      {why && (
        <Text size="xsmall" className="text-ui-fg-subtle">
          {why}
        </Text>
      )}
      <Text size="xsmall" className="text-ui-fg-muted">
        {when.filter(Boolean).join(" · ")}
      </Text>
      <RecordRefund record={record} paymentId={paymentId} coin={coin} />
    </li>
  )
}

/**
 * Money owed to the customer: every record (refunds, excess, late money) with where and how its coins go
 * back, what to send now, and the one action that marks everything owed now as sent. The service has no
 * refund API: the coins leave from its dashboard, and the admin tells us they did, naming the records
 * they saw: what changed meanwhile is refused, shown, and read again.
 */
export function OwedToCustomer({ payment }: { payment: CryptoPayment }) {
  const { t, locale } = useCryptoI18n()
  const refundSent = useMarkRefundSent()
  const [reference, setReference] = useState("")
  const [refusal, setRefusal] = useState<string | null>(null)
  const { refund } = payment
  const coin = refund.coin ?? payment.coin ?? ""
  const blocker = markSentBlocker(refund.records)

  const onRefundSent = () => {
    setRefusal(null)
    refundSent.mutate(
      { id: payment.id, ...refundSentBody(refund.records, reference) },
      {
        onSuccess: () => {
          setReference("")
          toast.success(t("owed.markedSent"))
        },
        onError: (error) => setRefusal(refusalText(t, error)),
      }
    )
  }

  return (
    <div className="flex flex-col gap-y-2" data-testid="crypto-owed">
      <Text size="small" leading="compact" weight="plus">
        {t("owed.title")}
      </Text>
      {refund.records.length > 0 && (
        <ul className="flex flex-col gap-y-2">
          {refund.records.map((record) => (
            <OwedRecordItem
              key={record.id}
              record={record}
              paymentId={payment.id}
              coin={coin}
              baseCurrency={refund.base_currency}
            />
          ))}
        </ul>
      )}
      {refund.owed && (
        <Alert variant="warning" data-testid="crypto-refund-owed">
          <div className="flex flex-col gap-y-2">
            <span className="txt-compact-small-plus" data-testid="crypto-owed-now">
              {t("owed.sendNow", { amount: owedNowText(t, locale, refund, payment.coin) })}
            </span>
            <span>{t("owed.howTo")}</span>
            <div className="flex gap-x-2">
              <Input
                size="small"
                placeholder={t("owed.referencePlaceholder")}
                value={reference}
                onChange={(e) => setReference(e.target.value)}
                data-testid="crypto-refund-reference"
              />
              <Button
                size="small"
                variant="secondary"
                onClick={onRefundSent}
                disabled={!!blocker}
                isLoading={refundSent.isPending}
                title={blocker ? t(blocker) : undefined}
                data-testid="crypto-mark-refund-sent"
              >
                {t("owed.markSent")}
              </Button>
            </div>
            {blocker && (
              <span className="txt-compact-xsmall" data-testid="crypto-mark-sent-blocked">
                {t(blocker)}
              </span>
            )}
            {refusal && (
              <Hint variant="error" data-testid="crypto-refund-sent-error">
                {refusal}
              </Hint>
            )}
          </div>
        </Alert>
      )}
    </div>
  )
}
