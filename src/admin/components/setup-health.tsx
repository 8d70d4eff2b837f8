import { Badge, Button, Container, Heading, StatusBadge, Text, toast } from "@medusajs/ui"
import { HEALTH_LEVEL_COLORS, healthCheckLabel } from "../lib/payment-labels"
import { useAcknowledgeHealthCheck, useSetupHealth } from "../lib/payment-queries"
import type { HealthCheck } from "../lib/payment-types"
import { formatDateTime, localTimesIn } from "../lib/format"
import { useCryptoI18n } from "../lib/i18n"

/** A line that waits for an admin (an API key changed outside the dashboard): one press acknowledges what it shows. */
function AcknowledgeButton({ check }: { check: HealthCheck }) {
  const { t } = useCryptoI18n()
  const acknowledge = useAcknowledgeHealthCheck()
  if (!check.acknowledge || !check.provider_id) return null
  const body = { provider_id: check.provider_id, ...check.acknowledge }
  return (
    <div>
      <Button
        size="small"
        variant="secondary"
        isLoading={acknowledge.isPending}
        onClick={() =>
          acknowledge.mutate(body, {
            onSuccess: () => toast.success(t("health.acknowledged")),
            onError: (error) => toast.error((error as Error).message),
          })
        }
        data-testid="crypto-health-acknowledge"
      >
        {t("health.acknowledge")}
      </Button>
    </div>
  )
}

function HealthCheckRow({ check }: { check: HealthCheck }) {
  const { t, locale } = useCryptoI18n()
  return (
    <div
      className="grid grid-cols-[140px_1fr] items-start gap-x-4 px-6 py-3"
      data-testid="crypto-health-check"
      data-check-id={check.id}
      data-level={check.level}
    >
      <StatusBadge color={HEALTH_LEVEL_COLORS[check.level]}>{t(`health.levels.${check.level}`)}</StatusBadge>
      <div className="flex min-w-0 flex-col gap-y-1">
        <Text size="small" leading="compact" weight="plus">
          {healthCheckLabel(t, check)}
          {check.provider_id && <span className="text-ui-fg-muted font-normal"> · {check.provider_id}</span>}
        </Text>
        {/* the detail and the action are the server's findings, worded in English: shown as sent, their times local */}
        <Text size="small" className="text-ui-fg-subtle break-words" data-testid="crypto-health-detail">
          {localTimesIn(check.detail, locale)}
        </Text>
        {check.action && (
          <Text size="small" className="break-words" data-testid="crypto-health-action">
            {t("health.whatToDo", { action: localTimesIn(check.action, locale) })}
          </Text>
        )}
        <AcknowledgeButton check={check} />
      </div>
    </div>
  )
}

export function SetupHealthPanel() {
  const { t, locale } = useCryptoI18n()
  const { data, error, isLoading, isFetching, refetch } = useSetupHealth()
  return (
    <Container className="divide-y p-0" data-testid="crypto-health" data-level={data?.level}>
      <div className="flex items-center justify-between gap-x-4 px-6 py-4">
        <div className="flex flex-col gap-y-1">
          <div className="flex items-center gap-x-2">
            <Heading level="h2">{t("health.title")}</Heading>
            {data && (
              <Badge size="2xsmall" color={HEALTH_LEVEL_COLORS[data.level]} data-testid="crypto-health-level">
                {t(`health.levels.${data.level}`)}
              </Badge>
            )}
          </div>
          {data && (
            <Text size="xsmall" className="text-ui-fg-muted">
              {t("health.checkedAt", { at: formatDateTime(data.checked_at, locale) })}
            </Text>
          )}
        </div>
        <Button size="small" variant="secondary" isLoading={isFetching} onClick={() => refetch()}>
          {t("health.checkAgain")}
        </Button>
      </div>
      {isLoading && <Text className="px-6 py-4">{t("health.checking")}</Text>}
      {error && (
        <Text className="text-ui-fg-error px-6 py-4" data-testid="crypto-health-error">
          {(error as Error).message}
        </Text>
      )}
      {data?.checks.map((check) => (
        <HealthCheckRow key={`${check.id}:${check.provider_id ?? ""}`} check={check} />
      ))}
    </Container>
  )
}
