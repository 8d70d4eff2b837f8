/**
 * The i18next namespace of the plugin's texts: its own, so no key can meet the dashboard's (they are in
 * "translation"). The route's `translationNs` repeats it as a literal: the admin build reads that one
 * from the source.
 */
export const I18N_NAMESPACE = "cryptoPayments"
