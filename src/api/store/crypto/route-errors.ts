import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { CRYPTO_ERROR_TEXTS } from "../../../lib/domain/customer-errors"

/**
 * The errors the plugin's own store routes answer, and its bound before Medusa's session creation
 * (session-creation-bound.ts); their codes and English texts: src/lib/domain/customer-errors.ts.
 */
export type StoreRouteErrorCode =
  | "crypto.payment_not_found"
  | "crypto.no_address_yet"
  | "crypto.nothing_to_send"
  | "crypto.status_unavailable"
  | "crypto.too_many_sessions"
  | "crypto.refund_link_not_found"
  | "crypto.refund_address_frozen"
  | "crypto.refund_address_invalid"
  | "crypto.too_many_requests"

export const STORE_ROUTE_LANGUAGES = ["en", "de", "fr", "es"] as const
export type StoreRouteLanguage = (typeof STORE_ROUTE_LANGUAGES)[number]

/** The store routes' errors in the languages besides English, written for the customer. */
export const STORE_ROUTE_ERROR_TRANSLATIONS: Record<
  Exclude<StoreRouteLanguage, "en">,
  Record<StoreRouteErrorCode, string>
> = {
  de: {
    "crypto.payment_not_found": "Krypto-Zahlung nicht gefunden.",
    "crypto.no_address_yet": "Noch keine Adresse: Es wurde noch keine Kryptowährung gewählt.",
    "crypto.nothing_to_send": "Hier ist nichts mehr zu senden: Die Zahlung ist eingegangen oder geschlossen.",
    "crypto.status_unavailable":
      "Der Zahlungsstatus ist gerade nicht verfügbar. Bitte versuchen Sie es gleich noch einmal.",
    "crypto.too_many_sessions":
      "Zu viele Zahlungsversuche für diesen Warenkorb. Bitte warten Sie eine Minute und versuchen Sie es dann erneut.",
    "crypto.refund_link_not_found":
      "Dieser Erstattungslink ist ungültig oder abgelaufen. Bitten Sie den Shop um einen neuen.",
    "crypto.refund_address_frozen":
      "Die Erstattung wird bereits gesendet: Ihre Adresse kann nicht mehr geändert werden. Wenden Sie sich an den Shop, falls sie falsch ist.",
    "crypto.refund_address_invalid":
      "An diese Adresse kann die Erstattung nicht gehen. Prüfen Sie die Adresse und ihr Netzwerk.",
    "crypto.too_many_requests": "Zu viele Anfragen. Bitte warten Sie einen Moment und versuchen Sie es erneut.",
  },
  fr: {
    "crypto.payment_not_found": "Paiement crypto introuvable.",
    "crypto.no_address_yet": "Pas encore d’adresse\u00a0: aucune cryptomonnaie n’a été choisie.",
    "crypto.nothing_to_send": "Plus rien à envoyer : le paiement est reçu ou clos.",
    "crypto.status_unavailable":
      "Le statut du paiement n’est pas disponible pour le moment. Veuillez réessayer dans un instant.",
    "crypto.too_many_sessions":
      "Trop de tentatives de paiement pour ce panier. Veuillez patienter une minute, puis réessayer.",
    "crypto.refund_link_not_found":
      "Ce lien de remboursement n’est pas valide ou a expiré. Demandez-en un nouveau à la boutique.",
    "crypto.refund_address_frozen":
      "Le remboursement est déjà en cours d’envoi\u00a0: son adresse ne peut plus changer. Contactez la boutique si elle est erronée.",
    "crypto.refund_address_invalid":
      "Cette adresse ne peut pas recevoir le remboursement. Vérifiez l’adresse et son réseau.",
    "crypto.too_many_requests": "Trop de demandes. Veuillez patienter un instant, puis réessayer.",
  },
  es: {
    "crypto.payment_not_found": "No se encontró el pago con criptomonedas.",
    "crypto.no_address_yet": "Todavía no hay dirección: aún no se ha elegido ninguna criptomoneda.",
    "crypto.nothing_to_send": "Ya no queda nada por enviar: el pago está recibido o cerrado.",
    "crypto.status_unavailable":
      "El estado del pago no está disponible en este momento. Vuelve a intentarlo en unos instantes.",
    "crypto.too_many_sessions":
      "Demasiados intentos de pago para este carrito. Espera un minuto y vuelve a intentarlo.",
    "crypto.refund_link_not_found": "Este enlace de reembolso no es válido o ha caducado. Pide uno nuevo a la tienda.",
    "crypto.refund_address_frozen":
      "El reembolso ya se está enviando: su dirección ya no puede cambiar. Contacta con la tienda si es incorrecta.",
    "crypto.refund_address_invalid": "Esta dirección no puede recibir el reembolso. Comprueba la dirección y su red.",
    "crypto.too_many_requests": "Demasiadas solicitudes. Espera un momento y vuelve a intentarlo.",
  },
}

/**
 * Medusa sets `req.locale` on /store routes from the `locale` query parameter or the `x-medusa-locale`
 * header. Its language subtag picks the text ("de-AT" → de); anything else is English.
 */
export function storeRouteLanguage(locale: string | undefined | null): StoreRouteLanguage {
  const language = String(locale ?? "")
    .split(/[-_]/)[0]
    .toLowerCase()
  return (STORE_ROUTE_LANGUAGES as readonly string[]).includes(language) ? (language as StoreRouteLanguage) : "en"
}

/** A store route error's text in the request's language, English as the fallback. */
export function storeRouteErrorMessage(code: StoreRouteErrorCode, locale: string | undefined | null): string {
  const language = storeRouteLanguage(locale)
  return language === "en" ? CRYPTO_ERROR_TEXTS[code] : STORE_ROUTE_ERROR_TRANSLATIONS[language][code]
}

/**
 * As Medusa answers its own errors (`type`, `code`, `message`), in the request's language with
 * `Content-Language` saying which.
 */
export function sendStoreRouteError(
  req: MedusaRequest,
  res: MedusaResponse,
  status: number,
  type: string,
  code: StoreRouteErrorCode
) {
  const language = storeRouteLanguage(req.locale)
  res.setHeader("Content-Language", language)
  return res.status(status).json({ type, code, message: storeRouteErrorMessage(code, language) })
}
