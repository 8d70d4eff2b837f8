import { useEffect, useState } from "react"
import { useCryptoI18n } from "../lib/i18n"

/** Time left until `until` (mm:ss, or h min), ticking every second; "expired" once past. */
export function Countdown({ until }: { until: string }) {
  const { t } = useCryptoI18n()
  const [now, setNow] = useState(Date.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(timer)
  }, [])
  const left = Math.max(0, Math.floor((Date.parse(until) - now) / 1000))
  if (left === 0) return <span>{t("countdown.expired")}</span>
  const hours = Math.floor(left / 3600)
  const minutes = Math.floor((left % 3600) / 60)
  const seconds = left % 60
  const time = hours
    ? t("countdown.hoursMinutes", { hours, minutes })
    : `${minutes}:${String(seconds).padStart(2, "0")}`
  return <span>{t("countdown.left", { time })}</span>
}
