import type { MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import type { PaymentCore, SecretsState } from "../../../../modules/crypto-payment/core"
import { fromBasisPoints } from "../../../../lib/domain/merchant-policy"
import { RatesState, shownUrl } from "../../../../lib/domain/exchange-rates/rates-state"
import { CRYPTO_PAYMENT_MODULE } from "../../../../modules/crypto-payment"
import type { SettingChange } from "../../../../modules/crypto-payment/merchant-settings"
import type CryptoPaymentModuleService from "../../../../modules/crypto-payment/service"

const iso = (value: Date | string | null | undefined) => (value ? new Date(value).toISOString() : null)

/** Each crypto provider's policy: the one in force, medusa-config's defaults, and what the admin saved. */
export async function settingsViews(scope: MedusaContainer, cores: PaymentCore[]) {
  const cryptoPayment: CryptoPaymentModuleService = scope.resolve(CRYPTO_PAYMENT_MODULE)
  const saved = await cryptoPayment.settings.saved(cores.map((core) => core.providerId))
  return Promise.all(
    cores.map(async (core) => {
      const { providerId } = core
      const [{ defaults, effective, lateWindowHours }, { rates }, secrets] = await Promise.all([
        core.policy(),
        core.exchangeRates("state"),
        core.secretsState(),
      ])
      const row = saved.find((s) => s.provider_id === providerId)
      return {
        provider_id: providerId,
        underpayment_tolerance_percent: effective.underpaymentTolerancePercent,
        late_payments: effective.latePayments,
        late_window_hours: lateWindowHours,
        defaults: {
          underpayment_tolerance_percent: defaults.underpaymentTolerancePercent,
          late_payments: defaults.latePayments,
        },
        saved: row
          ? {
              underpayment_tolerance_percent:
                row.underpayment_tolerance_bp === null ? null : fromBasisPoints(row.underpayment_tolerance_bp),
              late_payments: row.late_payments,
            }
          : null,
        updated_at: row && row.updated_by ? iso(row.updated_at) : null,
        updated_by: row?.updated_by ?? null,
        exchange_rates: ratesView(rates),
        secrets: secretsView(secrets),
      }
    })
  )
}

/** The newest changes of the providers' settings, with the email of the admin who made each. */
export async function changeViews(scope: MedusaContainer, providerIds: string[]) {
  const cryptoPayment: CryptoPaymentModuleService = scope.resolve(CRYPTO_PAYMENT_MODULE)
  return withActorEmails(scope, await cryptoPayment.settings.changes(providerIds))
}

/** The providers' API key changes from the admin since `since`, newest first, with who made each. */
export async function apiKeyChangeViews(scope: MedusaContainer, providerIds: string[], since: Date) {
  if (!providerIds.length) return []
  const cryptoPayment: CryptoPaymentModuleService = scope.resolve(CRYPTO_PAYMENT_MODULE)
  const changes = await cryptoPayment.listCryptoSettingChanges(
    { provider_id: providerIds, field: "api_key", created_at: { $gte: since } },
    { order: { created_at: "DESC" } }
  )
  return withActorEmails(scope, changes)
}

type SettingChangeRow = SettingChange

async function withActorEmails(scope: MedusaContainer, changes: SettingChangeRow[]) {
  const actorIds = [...new Set(changes.map((c) => c.actor_id).filter((id): id is string => !!id))]
  const users = actorIds.length
    ? await scope.resolve(Modules.USER).listUsers({ id: actorIds }, { select: ["id", "email"] })
    : []
  return changes.map((change) => ({
    id: change.id,
    provider_id: change.provider_id,
    field: change.field,
    from: change.from_value,
    to: change.to_value,
    actor_id: change.actor_id,
    actor_email: users.find((u) => u.id === change.actor_id)?.email ?? null,
    created_at: iso(change.created_at),
  }))
}

/** Where a provider's API key and webhook secret come from (never a value: the key's last four). */
function secretsView(secrets: SecretsState) {
  return {
    can_store: secrets.canStore,
    api_key: {
      source: secrets.apiKey.source,
      last_four: secrets.apiKey.lastFour,
      saved_by: secrets.apiKey.savedBy,
      saved_at: secrets.apiKey.savedAt,
      unreadable: secrets.apiKey.unreadable,
    },
    webhook_secret: {
      source: secrets.webhookSecret.source,
      accepted: secrets.webhookSecret.accepted,
      legacy_accepted: secrets.webhookSecret.legacyAccepted,
    },
  }
}

function ratesView(rates: RatesState) {
  return {
    source: rates.source,
    url: rates.url ? shownUrl(rates.url) : null,
    max_age_hours: rates.maxAgeHours ?? null,
    markup_percent: rates.markupPercent ?? null,
    refresh_minutes: rates.refreshMinutes ?? null,
    published_on: rates.publishedOn ?? null,
    fetched_at: rates.fetchedAt ?? null,
    age_hours: rates.ageHours ?? null,
    fresh: rates.fresh ?? null,
    misses_working_day: rates.missesWorkingDay ?? null,
    next_refresh_at: rates.nextRefreshAt ?? null,
    last_error: rates.lastError ?? null,
    held: rates.held
      ? { published_on: rates.held.publishedOn, fetched_at: rates.held.fetchedAt, moved: rates.held.moved }
      : null,
    rates: rates.rates ?? {},
  }
}
