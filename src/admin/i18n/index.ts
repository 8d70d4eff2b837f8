/**
 * The plugin's texts for the dashboard. The admin build finds this file (src/admin/i18n/index.ts) and
 * deep-merges its default export into the dashboard's i18next resources: language → namespace → keys.
 * The texts live in a namespace of their own (I18N_NAMESPACE), so they never meet the dashboard's keys;
 * other languages fall back to English (the dashboard's `fallbackLng`).
 */
import de from "./json/de.json"
import en from "./json/en.json"
import es from "./json/es.json"
import fr from "./json/fr.json"
import { I18N_NAMESPACE } from "./namespace"

export default {
  en: { [I18N_NAMESPACE]: en },
  de: { [I18N_NAMESPACE]: de },
  fr: { [I18N_NAMESPACE]: fr },
  es: { [I18N_NAMESPACE]: es },
}
