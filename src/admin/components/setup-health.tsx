import { Badge, Button, Container, Heading, StatusBadge, Text } from "@medusajs/ui"
import { HEALTH_LEVELS, HealthCheck, useSetupHealth } from "../lib/crypto-payments"

/** One check: its level as a coloured dot, what was checked, what was found and, when not green, what to do. */
function HealthCheckRow({ check }: { check: HealthCheck }) {
  const level = HEALTH_LEVELS[check.level]
  return (
    <div
      className="grid grid-cols-[140px_1fr] items-start gap-x-4 px-6 py-3"
      data-testid="crypto-health-check"
      data-check-id={check.id}
      data-level={check.level}
    >
      <StatusBadge color={level.color}>{level.label}</StatusBadge>
      <div className="flex min-w-0 flex-col gap-y-1">
        <Text size="small" leading="compact" weight="plus">
          {check.label}
          {check.provider_id && <span className="text-ui-fg-muted font-normal"> · {check.provider_id}</span>}
        </Text>
        <Text size="small" className="text-ui-fg-subtle break-words">
          {check.detail}
        </Text>
        {check.action && (
          <Text size="small" className="break-words" data-testid="crypto-health-action">
            {`What to do: ${check.action}`}
          </Text>
        )}
      </div>
    </div>
  )
}

/** "Setup health": whether the plugin is set up to take payments, check by check, run again on demand. */
export function SetupHealthPanel() {
  const { data, error, isLoading, isFetching, refetch } = useSetupHealth()
  const overall = data && HEALTH_LEVELS[data.level]
  return (
    <Container className="divide-y p-0" data-testid="crypto-health" data-level={data?.level}>
      <div className="flex items-center justify-between gap-x-4 px-6 py-4">
        <div className="flex flex-col gap-y-1">
          <div className="flex items-center gap-x-2">
            <Heading level="h2">Setup health</Heading>
            {overall && (
              <Badge size="2xsmall" color={overall.color} data-testid="crypto-health-level">
                {overall.label}
              </Badge>
            )}
          </div>
          {data && (
            <Text size="xsmall" className="text-ui-fg-muted">
              Checked {new Date(data.checked_at).toLocaleString()}
            </Text>
          )}
        </div>
        <Button size="small" variant="secondary" isLoading={isFetching} onClick={() => refetch()}>
          Check again
        </Button>
      </div>
      {isLoading && <Text className="px-6 py-4">Checking…</Text>}
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
