/**
 * Every text of the refund-address page (CryptoRefundPage.tsx), in English, German, French and Spanish, as
 * crypto-payment-labels.ts has the payment's. `{{name}}` marks a value filled in when shown: the network's name
 * ("Bitcoin", "Ethereum (ERC-20)"), an amount of money already formatted for the locale, a date, the masked
 * address. The page's errors that are not about the address (the link expired, too many requests, the address
 * frozen) are the `errors` of crypto-payment-labels.ts, by their code. Pick a language and override any text
 * with `cryptoRefundLabels(locale, overrides)` or the page's `labels` prop.
 */
import { cryptoPaymentLanguage } from "./crypto-payment-i18n"
import type { RefundAddressReason } from "./crypto-refund"

export type CryptoRefundLabels = {
  /** The page's heading. */
  title: string
  loading: string
  /** The intro while no address is given: what the money is, per kind of what is owed, and the address asked for. */
  kindRefund: string
  kindExcess: string
  kindLate: string
  /** What is owed, per kind, as the later intros name it: "your refund", "the difference back". */
  owedRefund: string
  owedExcess: string
  owedLate: string
  /** The intro once an address is given, while the shop sends, and once it sent, with what is owed as `{{owed}}`. */
  introAddressGiven: string
  introFrozen: string
  introSent: string
  /** The badge, per state (`cryptoRefundState`). */
  stateAwaitingAddress: string
  stateAddressGiven: string
  stateFrozen: string
  stateSent: string
  /** The facts: the coins owed and their worth in the store's currency, the network, the address so far. */
  amount: string
  worth: string
  /** The details line under the coins when the exact coins owed have more places than the shop sends. */
  exactAmount: string
  network: string
  address: string
  noAddress: string
  expiresOn: string
  /** The form. */
  coinLabel: string
  addressLabel: string
  addressHint: string
  confirmNetwork: string
  save: string
  change: string
  saving: string
  saved: string
  /** The notices: the address can no longer change (the shop is sending to it); what to do once the coins were sent. */
  frozen: string
  sent: string
  /** The store could not be reached. */
  unavailable: string
  retry: string
  /** Why an address was refused (the 400's `reason`), with the network's name as `{{network}}`. */
  reasons: Record<RefundAddressReason, string>
}

/** Any texts to replace: `{ save: "Use this address", reasons: { testnet: "…" } }`. */
export type CryptoRefundLabelOverrides = Partial<Omit<CryptoRefundLabels, "reasons">> & {
  reasons?: Partial<CryptoRefundLabels["reasons"]>
}

const en: CryptoRefundLabels = {
  title: "Your refund",
  loading: "Loading your refund…",
  kindRefund: "The shop is refunding you. Tell it the address to send the coins to.",
  kindExcess: "You sent more than the order's total. Tell the shop the address to send the difference back to.",
  kindLate: "Your payment arrived after the payment window had closed. Tell the shop the address to send it back to.",
  owedRefund: "your refund",
  owedExcess: "the difference back",
  owedLate: "your payment back",
  introAddressGiven:
    "The shop will send {{owed}} to the address below. You can change it until the shop starts sending.",
  introFrozen: "The shop has started sending {{owed}}.",
  introSent: "The shop has sent {{owed}}.",
  stateAwaitingAddress: "Address needed",
  stateAddressGiven: "Address given",
  stateFrozen: "Being sent",
  stateSent: "Sent",
  amount: "Amount",
  worth: "worth {{money}}",
  exactAmount: "Exact amount owed",
  network: "Network",
  address: "Address",
  noAddress: "Not given yet",
  expiresOn: "This link works until {{date}}.",
  coinLabel: "Refund in",
  addressLabel: "Your {{network}} address",
  addressHint: "Paste it from your wallet and check it: coins sent to a wrong address are lost.",
  confirmNetwork: "This address is on {{network}}. I know that coins sent on another network are lost.",
  save: "Save the address",
  change: "Change the address",
  saving: "Saving…",
  saved: "Address saved: the shop sends your refund to {{address}}.",
  frozen: "This address is in use: it can no longer change. Contact the shop if it is wrong.",
  sent: "Contact the shop if the coins have not reached your wallet.",
  unavailable: "Your refund cannot be shown right now. Please try again in a moment.",
  retry: "Try again",
  reasons: {
    empty: "Enter your {{network}} address.",
    too_long: "This is too long for an address: paste the address only.",
    testnet: "This is a testnet address: give your {{network}} mainnet address.",
    wrong_network: "This address is for another network: give your {{network}} address.",
    bad_checksum: "This address has a typo (its checksum does not match): copy it again from your wallet.",
    invalid: "This is not a valid {{network}} address: copy it again from your wallet.",
    network_unconfirmed: "Confirm that this address is on {{network}}: coins sent on another network are lost.",
    not_allowed: "The refund cannot be sent on this network: choose one of those offered.",
  },
}

const de: CryptoRefundLabels = {
  title: "Ihre Erstattung",
  loading: "Ihre Erstattung wird geladen…",
  kindRefund: "Der Shop erstattet Ihnen einen Betrag. Geben Sie an, an welche Adresse er ihn senden soll.",
  kindExcess:
    "Sie haben mehr als den Bestellbetrag gesendet. Geben Sie an, an welche Adresse der Shop die Differenz zurücksenden soll.",
  kindLate:
    "Ihre Zahlung ist nach Ablauf des Zahlungsfensters eingegangen. Geben Sie an, an welche Adresse der Shop sie zurücksenden soll.",
  owedRefund: "Ihre Erstattung",
  owedExcess: "den zu viel gezahlten Betrag",
  owedLate: "den Betrag Ihrer verspäteten Zahlung",
  introAddressGiven:
    "Der Shop sendet {{owed}} an die unten stehende Adresse. Sie können sie ändern, bis der Shop mit dem Senden beginnt.",
  introFrozen: "Der Shop hat begonnen, {{owed}} zu senden.",
  introSent: "Der Shop hat {{owed}} gesendet.",
  stateAwaitingAddress: "Adresse fehlt",
  stateAddressGiven: "Adresse angegeben",
  stateFrozen: "Wird gesendet",
  stateSent: "Gesendet",
  amount: "Betrag",
  worth: "Wert: {{money}}",
  exactAmount: "Genauer geschuldeter Betrag",
  network: "Netzwerk",
  address: "Adresse",
  noAddress: "Noch nicht angegeben",
  expiresOn: "Dieser Link gilt bis {{date}}.",
  coinLabel: "Erstattung in",
  addressLabel: "Ihre {{network}}-Adresse",
  addressHint:
    "Fügen Sie sie aus Ihrer Wallet ein und prüfen Sie sie: Beträge, die an eine falsche Adresse gehen, sind verloren.",
  confirmNetwork:
    "Diese Adresse gehört zum Netzwerk {{network}}. Mir ist bewusst, dass Beträge in einem anderen Netzwerk verloren sind.",
  save: "Adresse speichern",
  change: "Adresse ändern",
  saving: "Wird gespeichert…",
  saved: "Adresse gespeichert: Der Shop sendet Ihre Erstattung an {{address}}.",
  frozen:
    "Diese Adresse wird bereits verwendet: Sie kann nicht mehr geändert werden. Wenden Sie sich an den Shop, falls sie falsch ist.",
  sent: "Wenden Sie sich an den Shop, falls der Betrag nicht in Ihrer Wallet angekommen ist.",
  unavailable: "Ihre Erstattung kann gerade nicht angezeigt werden. Bitte versuchen Sie es gleich noch einmal.",
  retry: "Erneut versuchen",
  reasons: {
    empty: "Geben Sie Ihre {{network}}-Adresse ein.",
    too_long: "Das ist zu lang für eine Adresse: Fügen Sie nur die Adresse ein.",
    testnet: "Das ist eine Testnet-Adresse: Geben Sie Ihre {{network}}-Mainnet-Adresse an.",
    wrong_network: "Diese Adresse gehört zu einem anderen Netzwerk: Geben Sie Ihre {{network}}-Adresse an.",
    bad_checksum:
      "Diese Adresse enthält einen Tippfehler (ihre Prüfsumme stimmt nicht): Kopieren Sie sie erneut aus Ihrer Wallet.",
    invalid: "Das ist keine gültige {{network}}-Adresse: Kopieren Sie sie erneut aus Ihrer Wallet.",
    network_unconfirmed:
      "Bestätigen Sie, dass diese Adresse zum Netzwerk {{network}} gehört: Beträge in einem anderen Netzwerk sind verloren.",
    not_allowed: "Die Erstattung kann nicht in diesem Netzwerk gesendet werden: Wählen Sie eines der angebotenen.",
  },
}

const fr: CryptoRefundLabels = {
  title: "Votre remboursement",
  loading: "Chargement de votre remboursement…",
  kindRefund: "La boutique vous rembourse. Indiquez-lui l’adresse à laquelle envoyer les fonds.",
  kindExcess:
    "Vous avez envoyé plus que le montant de la commande. Indiquez à la boutique l’adresse à laquelle renvoyer la différence.",
  kindLate:
    "Votre paiement est arrivé après la fermeture de la fenêtre de paiement. Indiquez à la boutique l’adresse à laquelle le renvoyer.",
  owedRefund: "votre remboursement",
  owedExcess: "le montant payé en trop",
  owedLate: "le montant de votre paiement arrivé en retard",
  introAddressGiven:
    "La boutique enverra {{owed}} à l’adresse ci-dessous. Vous pouvez la modifier tant que l’envoi n’a pas commencé.",
  introFrozen: "La boutique a commencé à vous envoyer {{owed}}.",
  introSent: "La boutique vous a envoyé {{owed}}.",
  stateAwaitingAddress: "Adresse requise",
  stateAddressGiven: "Adresse indiquée",
  stateFrozen: "Envoi en cours",
  stateSent: "Envoyé",
  amount: "Montant",
  worth: "soit {{money}}",
  exactAmount: "Montant exact dû",
  network: "Réseau",
  address: "Adresse",
  noAddress: "Pas encore indiquée",
  expiresOn: "Ce lien est valable jusqu’au {{date}}.",
  coinLabel: "Rembourser en",
  addressLabel: "Votre adresse {{network}}",
  addressHint:
    "Collez-la depuis votre portefeuille et vérifiez-la\u00a0: les fonds envoyés à une mauvaise adresse sont perdus.",
  confirmNetwork:
    "Cette adresse est sur le réseau {{network}}. Je sais que les fonds envoyés sur un autre réseau sont perdus.",
  save: "Enregistrer l’adresse",
  change: "Modifier l’adresse",
  saving: "Enregistrement…",
  saved: "Adresse enregistrée\u00a0: la boutique enverra votre remboursement à {{address}}.",
  frozen:
    "Cette adresse est déjà utilisée\u00a0: elle ne peut plus être modifiée. Contactez la boutique si elle est erronée.",
  sent: "Contactez la boutique si les fonds ne sont pas arrivés dans votre portefeuille.",
  unavailable: "Votre remboursement ne peut pas être affiché pour le moment. Veuillez réessayer dans un instant.",
  retry: "Réessayer",
  reasons: {
    empty: "Saisissez votre adresse {{network}}.",
    too_long: "C’est trop long pour une adresse\u00a0: collez uniquement l’adresse.",
    testnet: "C’est une adresse de testnet\u00a0: indiquez votre adresse {{network}} du réseau principal (mainnet).",
    wrong_network: "Cette adresse appartient à un autre réseau\u00a0: indiquez votre adresse {{network}}.",
    bad_checksum:
      "Cette adresse contient une faute de frappe (sa somme de contrôle ne correspond pas)\u00a0: copiez-la à nouveau depuis votre portefeuille.",
    invalid: "Ce n’est pas une adresse {{network}} valide\u00a0: copiez-la à nouveau depuis votre portefeuille.",
    network_unconfirmed:
      "Confirmez que cette adresse est sur le réseau {{network}}\u00a0: les fonds envoyés sur un autre réseau sont perdus.",
    not_allowed: "Le remboursement ne peut pas être envoyé sur ce réseau\u00a0: choisissez l’un de ceux proposés.",
  },
}

const es: CryptoRefundLabels = {
  title: "Tu reembolso",
  loading: "Cargando tu reembolso…",
  kindRefund: "La tienda te hace un reembolso. Indícale la dirección a la que enviar los fondos.",
  kindExcess: "Enviaste más que el total del pedido. Indica a la tienda la dirección a la que devolver la diferencia.",
  kindLate:
    "Tu pago llegó después de que se cerrara el plazo de pago. Indica a la tienda la dirección a la que devolverlo.",
  owedRefund: "tu reembolso",
  owedExcess: "lo que pagaste de más",
  owedLate: "el importe de tu pago tardío",
  introAddressGiven:
    "La tienda enviará {{owed}} a la dirección de abajo. Puedes cambiarla hasta que la tienda empiece el envío.",
  introFrozen: "La tienda ha empezado a enviarte {{owed}}.",
  introSent: "La tienda te ha enviado {{owed}}.",
  stateAwaitingAddress: "Falta la dirección",
  stateAddressGiven: "Dirección indicada",
  stateFrozen: "Enviándose",
  stateSent: "Enviado",
  amount: "Importe",
  worth: "equivale a {{money}}",
  exactAmount: "Importe exacto adeudado",
  network: "Red",
  address: "Dirección",
  noAddress: "Todavía no indicada",
  expiresOn: "Este enlace es válido hasta el {{date}}.",
  coinLabel: "Reembolsar en",
  addressLabel: "Tu dirección de {{network}}",
  addressHint: "Pégala desde tu monedero y compruébala: los fondos enviados a una dirección equivocada se pierden.",
  confirmNetwork: "Esta dirección es de la red {{network}}. Sé que los fondos enviados por otra red se pierden.",
  save: "Guardar la dirección",
  change: "Cambiar la dirección",
  saving: "Guardando…",
  saved: "Dirección guardada: la tienda enviará tu reembolso a {{address}}.",
  frozen: "Esta dirección ya se está usando: ya no se puede cambiar. Contacta con la tienda si es incorrecta.",
  sent: "Contacta con la tienda si los fondos no han llegado a tu monedero.",
  unavailable: "Tu reembolso no se puede mostrar en este momento. Vuelve a intentarlo en unos instantes.",
  retry: "Reintentar",
  reasons: {
    empty: "Introduce tu dirección de {{network}}.",
    too_long: "Es demasiado largo para ser una dirección: pega solo la dirección.",
    testnet: "Es una dirección de testnet: indica tu dirección de {{network}} de la red principal (mainnet).",
    wrong_network: "Esta dirección es de otra red: indica tu dirección de {{network}}.",
    bad_checksum:
      "Esta dirección tiene un error (su suma de comprobación no coincide): cópiala de nuevo desde tu monedero.",
    invalid: "No es una dirección de {{network}} válida: cópiala de nuevo desde tu monedero.",
    network_unconfirmed:
      "Confirma que esta dirección es de la red {{network}}: los fondos enviados por otra red se pierden.",
    not_allowed: "El reembolso no se puede enviar por esta red: elige una de las ofrecidas.",
  },
}

/** The built-in languages (the same as the payment's). */
export const CRYPTO_REFUND_LABELS = { en, de, fr, es }

/** The refund page's texts for a locale (any BCP 47 tag, by its language, else English), with `overrides` on top. */
export function cryptoRefundLabels(locale?: string | null, overrides?: CryptoRefundLabelOverrides): CryptoRefundLabels {
  const base = CRYPTO_REFUND_LABELS[cryptoPaymentLanguage(locale)]
  if (!overrides) return base
  const { reasons, ...texts } = overrides
  return { ...base, ...texts, reasons: { ...base.reasons, ...reasons } }
}
