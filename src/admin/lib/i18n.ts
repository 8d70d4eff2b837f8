import { useTranslation } from "react-i18next"
import type en from "../i18n/json/en.json"
import { I18N_NAMESPACE } from "../i18n/namespace"
import { intlLocale } from "./format"

/** Every key of the English texts, dotted: "widget.title", "flags.paid_late". */
type Leaves<T> = { [K in keyof T & string]: T[K] extends string ? K : `${K}.${Leaves<T[K]>}` }[keyof T & string]
export type MessageKey = Leaves<typeof en>

/** `t` of the plugin's namespace: a key of the English texts, with the `{{name}}`s it interpolates. */
export type Translate = (key: MessageKey, values?: Record<string, string | number>) => string

/**
 * The plugin's texts and the Intl locale, following the dashboard's language. Languages without the
 * plugin's texts fall back to English; dates and numbers still follow the language.
 */
export function useCryptoI18n(): { t: Translate; locale: string | undefined } {
  const { t, i18n } = useTranslation(I18N_NAMESPACE)
  return { t: (key, values) => t(key, values), locale: intlLocale(i18n.resolvedLanguage ?? i18n.language) }
}
