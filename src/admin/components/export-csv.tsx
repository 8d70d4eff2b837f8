import { Button, Container, Heading, Input, Label, Select, Text, toast } from "@medusajs/ui"
import { useState } from "react"
import { downloadExport } from "../lib/export-download"
import { EXPORT_KINDS, exportRange, ExportKind, monthToDate } from "../lib/export-range"
import { useCryptoI18n } from "../lib/i18n"

const isExportKind = (value: string): value is ExportKind => (EXPORT_KINDS as readonly string[]).includes(value)

/** "Export CSV" for the accountant: whole days in the admin's time zone, the month so far unless changed. */
export function ExportCsv() {
  const { t } = useCryptoI18n()
  const [initial] = useState(() => monthToDate(new Date()))
  const [from, setFrom] = useState(initial.from)
  const [to, setTo] = useState(initial.to)
  const [kind, setKind] = useState<ExportKind>("payments")
  const [busy, setBusy] = useState(false)
  const range = exportRange(from, to)

  const onExport = async () => {
    if (!range) return
    setBusy(true)
    try {
      const name = await downloadExport({ kind, ...range })
      toast.success(t("export.saved", { name }))
    } catch (error) {
      toast.error(t("export.failed", { message: (error as Error).message }))
    } finally {
      setBusy(false)
    }
  }

  return (
    <Container className="flex flex-col gap-y-3 px-6 py-4" data-testid="crypto-export">
      <div>
        <Heading level="h2">{t("export.title")}</Heading>
        <Text size="small" className="text-ui-fg-subtle">
          {t("export.hint")}
        </Text>
      </div>
      <div className="flex flex-wrap items-end gap-3">
        <div className="flex flex-col gap-y-1">
          <Label htmlFor="crypto-export-from" size="small" weight="plus">
            {t("export.from")}
          </Label>
          <Input
            id="crypto-export-from"
            type="date"
            size="small"
            value={from}
            max={to || undefined}
            onChange={(event) => setFrom(event.target.value)}
          />
        </div>
        <div className="flex flex-col gap-y-1">
          <Label htmlFor="crypto-export-to" size="small" weight="plus">
            {t("export.to")}
          </Label>
          <Input
            id="crypto-export-to"
            type="date"
            size="small"
            value={to}
            min={from || undefined}
            onChange={(event) => setTo(event.target.value)}
          />
        </div>
        <div className="flex flex-col gap-y-1">
          <Label htmlFor="crypto-export-kind" size="small" weight="plus">
            {t("export.kind")}
          </Label>
          <Select size="small" value={kind} onValueChange={(value) => isExportKind(value) && setKind(value)}>
            <Select.Trigger id="crypto-export-kind" className="w-52">
              <Select.Value />
            </Select.Trigger>
            <Select.Content>
              {EXPORT_KINDS.map((option) => (
                <Select.Item key={option} value={option}>
                  {t(`export.kinds.${option}`)}
                </Select.Item>
              ))}
            </Select.Content>
          </Select>
        </div>
        <Button
          size="small"
          variant="secondary"
          disabled={!range}
          isLoading={busy}
          onClick={onExport}
          data-testid="crypto-export-button"
        >
          {t("export.button")}
        </Button>
      </div>
      {!range && (
        <Text size="small" className="text-ui-fg-error">
          {t("export.badRange")}
        </Text>
      )}
    </Container>
  )
}
