/**
 * Every text the crypto payment components show, in English, German, French and Spanish. `{{name}}` marks
 * a value filled in when shown: amounts and counts already formatted for the customer's locale, the coin's
 * code ("BTC", "USDT ERC20"), the address, the payment id, a time. Pick a language and override any text with
 * `cryptoPaymentLabels(locale, overrides)` (crypto-payment-i18n.ts), or the components' `locale` and `labels`
 * props; a language not built in starts from English and takes the texts you give it.
 */
import type { Coin } from "./crypto-payment"
import type { CryptoErrorKey } from "./crypto-payment-errors"

export type CryptoPaymentLabels = {
  /** The box's title before the first status read. */
  checking: string
  titleChooseCoin: string
  titleAwaiting: string
  titleConfirming: string
  titlePaid: string
  titleShort: string
  titleExpired: string
  titleFailed: string
  titleNeedsAttention: string
  /** What to do now, per verdict (`describeCryptoVerdict`). */
  detailChooseCoin: string
  detailAwaiting: string
  detailRecording: string
  detailConfirmations: string
  detailConfirmingOnChain: string
  detailPaid: string
  detailPaidOverpaid: string
  detailShort: string
  detailExpiredPartly: string
  detailExpired: string
  detailFailedPartly: string
  detailFailed: string
  detailNeedsAttention: string
  /** The countdown, and the time it runs to (its tooltip). */
  expiresIn: string
  expiring: string
  expiresAt: string
  chooseCoinAndPay: string
  opensPaymentPage: string
  qrAlt: string
  /** The price in the store's currency, with "≈ $…" beside it when the shop converted it to USD. */
  price: string
  sendExactly: string
  sendRemaining: string
  /**
   * The line no customer paying in a token (USDT) can miss: the coin on its network (`coins`, "USDT on BNB Smart
   * Chain (BEP-20)") as `{{network}}`. A wallet would send the token on any EVM chain to the same `0x…` address.
   */
  sendOnNetworkOnly: string
  to: string
  confirmations: string
  confirmationsCount: string
  openInWallet: string
  paymentPage: string
  paymentId: string
  received: string
  copy: string
  copied: string
  copyAmount: string
  copyAddress: string
  copyPaymentId: string
  startAgain: string
  startNewPayment: string
  startAgainWithSameItems: string
  statusUnavailable: string
  /** The coin picker. */
  payWith: string
  anyCoin: string
  anyCoinHint: string
  payWithCrypto: string
  /** What to call each coin: for a token, the coin on its network. */
  coins: Record<Coin, string>
  /** The plugin's errors by code (crypto-payment-errors.ts), written for the customer. */
  errors: Record<CryptoErrorKey, string>
}

/** Any texts to replace, at any depth: `{ copy: "Copy it", errors: { "crypto.payment_expired": "…" } }`. */
export type CryptoPaymentLabelOverrides = Partial<Omit<CryptoPaymentLabels, "coins" | "errors">> & {
  coins?: Partial<CryptoPaymentLabels["coins"]>
  errors?: Partial<CryptoPaymentLabels["errors"]>
}

const en: CryptoPaymentLabels = {
  checking: "Checking the payment…",
  titleChooseCoin: "Choose a coin",
  titleAwaiting: "Awaiting payment",
  titleConfirming: "Confirming",
  titlePaid: "Paid",
  titleShort: "Partly paid",
  titleExpired: "Expired",
  titleFailed: "Failed",
  titleNeedsAttention: "Needs attention",
  detailChooseCoin: "Pick the coin you want to pay with on the payment page, then send the amount.",
  detailAwaiting: "Send {{required}} {{coin}} to {{address}} before the payment window closes.",
  detailRecording:
    "Your payment arrived; the shop is recording it. Nothing more to send: your order shows as paid once it has.",
  detailConfirmations:
    "{{received}} {{coin}} arrived: {{confirmations}} of {{requiredConfirmations}} confirmations. Nothing more to send; this page updates by itself.",
  detailConfirmingOnChain:
    "{{received}} {{coin}} arrived and is being confirmed on chain. Nothing more to send; this page updates by itself.",
  detailPaid: "The shop accepted your payment of {{received}} {{coin}}. Thank you!",
  detailPaidOverpaid:
    "The shop accepted your payment of {{received}} {{coin}}. You sent more than required: the shop has been told about the difference.",
  detailShort:
    "{{received}} of {{required}} {{coin}} received. Send the remaining {{remaining}} {{coin}} to the same address before the payment window closes.",
  detailExpiredPartly:
    "The payment window closed with only {{received}} of {{required}} {{coin}} received. Contact the shop about that money with the payment id {{paymentId}}, or start a new payment.",
  detailExpired: "The payment window closed before any payment arrived. Start a new payment to buy the items.",
  detailFailedPartly:
    "The payment service could not process this payment. Contact the shop about the {{received}} {{coin}} you sent, with the payment id {{paymentId}}.",
  detailFailed: "The payment service could not process this payment. Start a new payment.",
  detailNeedsAttention:
    "The shop could not accept this payment as it stands (for example paid after the window closed, paid twice, or a different amount) and has been notified. Do not send more: keep the payment id {{paymentId}} and contact the shop.",
  expiresIn: "Expires in {{time}}",
  expiring: "Expiring…",
  expiresAt: "Pay by {{time}}",
  chooseCoinAndPay: "Choose a coin and pay",
  opensPaymentPage: "Opens the payment page in a new tab; this page updates by itself.",
  qrAlt: "QR code: {{amount}} {{coin}} to {{address}}",
  price: "Price",
  sendExactly: "Send exactly",
  sendRemaining: "Send the remaining",
  sendOnNetworkOnly: "Send {{network}} only: coins sent on another network are lost.",
  to: "To",
  confirmations: "Confirmations",
  confirmationsCount: "{{confirmations}} of {{requiredConfirmations}}",
  openInWallet: "Open in a wallet app",
  paymentPage: "Payment page",
  paymentId: "Payment id",
  received: "Received",
  copy: "Copy",
  copied: "Copied",
  copyAmount: "Copy the amount",
  copyAddress: "Copy the address",
  copyPaymentId: "Copy the payment id",
  startAgain: "Start again",
  startNewPayment: "Start a new payment",
  startAgainWithSameItems: "Start again with the same items",
  statusUnavailable: "The payment status is not available right now; trying again.",
  payWith: "Pay with",
  anyCoin: "Any coin",
  anyCoinHint: "choose on the payment page",
  payWithCrypto: "Pay with crypto",
  coins: {
    BTC: "Bitcoin",
    ETH: "Ether",
    LTC: "Litecoin",
    USDT_ERC20: "USDT on Ethereum (ERC-20)",
    USDT_BEP20: "USDT on BNB Smart Chain (BEP-20)",
  },
  errors: {
    "crypto.no_session": "The crypto payment could not be started. Please try again.",
    "crypto.unknown_coin": "This coin is not accepted. Please choose Bitcoin, Ether, Litecoin or USDT.",
    "crypto.coin_required": "Please choose the coin you want to pay with.",
    "crypto.currency_not_accepted": "Crypto payments are not available in this cart's currency.",
    "crypto.currency_not_priced": "Crypto payments are not available in this cart's currency.",
    "crypto.rate_stale":
      "Crypto payments are not available in this currency right now. Please try again later or choose another payment method.",
    "crypto.nothing_to_pay": "There is nothing to pay for this cart.",
    "crypto.no_payment": "There is no crypto payment for this checkout. Please start a new payment.",
    "crypto.payment_expired": "Your crypto payment expired before the full amount arrived. Please start a new payment.",
    "crypto.payment_failed": "Your crypto payment failed at the payment service. Please start a new payment.",
    "crypto.payment_not_received":
      "Your crypto payment has not been received yet. Choose a coin and pay on the payment page; your order is placed once the payment is confirmed.",
    "crypto.payment_unconfirmed": "Your crypto payment is not confirmed yet. Your order is placed as soon as it is.",
    "crypto.payment_partly_received":
      "Only part of your crypto payment has arrived so far. Your order is placed as soon as the full amount is confirmed.",
    "crypto.payment_not_capturable": "The crypto payment is not complete yet.",
    "crypto.not_set_up": "Crypto payments are not available right now.",
    "crypto.try_again": "Something went wrong. Please try again.",
    "crypto.unexpected_error": "Something went wrong. Please try again in a moment.",
    "crypto.request_invalid": "The crypto payment could not be started with these details.",
    "crypto.request_refused": "The crypto payment service refused the request.",
    "crypto.service_unreachable":
      "The crypto payment service is not reachable right now. Please try again in a moment.",
    "crypto.service_bad_answer": "The crypto payment service gave an unexpected answer. Please try again later.",
    "crypto.service_access_refused": "Crypto payments are not available right now.",
    "crypto.payment_unknown": "The crypto payment service does not know this payment.",
    "crypto.service_busy": "The crypto payment service is busy. Please try again in a minute.",
    "crypto.service_error": "The crypto payment service had a problem. Please try again in a moment.",
    "crypto.payment_not_found": "Crypto payment not found.",
    "crypto.no_address_yet": "No address yet: please choose a coin first.",
    "crypto.nothing_to_send": "Nothing is left to send for this payment.",
    "crypto.status_unavailable": "The payment status is not available right now. Please try again shortly.",
    "crypto.too_many_sessions": "Too many payment attempts for this cart. Please wait a minute and try again.",
    "crypto.refund_link_not_found": "This refund link is not valid or has expired. Ask the shop for a new one.",
    "crypto.refund_address_frozen":
      "Your refund is already being sent: its address can no longer change. Contact the shop if it is wrong.",
    "crypto.refund_address_invalid": "This address cannot receive the refund. Check the address and its network.",
    "crypto.too_many_requests": "Too many requests. Please wait a moment and try again.",
    conflict: "This request is already being processed. Please wait a moment, then try again.",
  },
}

const de: CryptoPaymentLabels = {
  checking: "Zahlung wird geprüft…",
  titleChooseCoin: "Kryptowährung wählen",
  titleAwaiting: "Zahlung ausstehend",
  titleConfirming: "Wird bestätigt",
  titlePaid: "Bezahlt",
  titleShort: "Teilweise bezahlt",
  titleExpired: "Abgelaufen",
  titleFailed: "Fehlgeschlagen",
  titleNeedsAttention: "Klärung nötig",
  detailChooseCoin:
    "Wählen Sie auf der Zahlungsseite die Kryptowährung, mit der Sie bezahlen möchten, und senden Sie dann den Betrag.",
  detailAwaiting: "Senden Sie {{required}} {{coin}} an {{address}}, bevor das Zahlungsfenster schließt.",
  detailRecording:
    "Ihre Zahlung ist eingegangen; der Shop verbucht sie gerade. Sie müssen nichts mehr senden: Ihre Bestellung wird als bezahlt angezeigt, sobald das geschehen ist.",
  detailConfirmations:
    "{{received}} {{coin}} eingegangen: {{confirmations}} von {{requiredConfirmations}} Bestätigungen. Sie müssen nichts mehr senden; diese Seite aktualisiert sich von selbst.",
  detailConfirmingOnChain:
    "{{received}} {{coin}} eingegangen, die Bestätigung auf der Blockchain läuft. Sie müssen nichts mehr senden; diese Seite aktualisiert sich von selbst.",
  detailPaid: "Der Shop hat Ihre Zahlung über {{received}} {{coin}} angenommen. Vielen Dank!",
  detailPaidOverpaid:
    "Der Shop hat Ihre Zahlung über {{received}} {{coin}} angenommen. Sie haben mehr als nötig gesendet: Der Shop wurde über die Differenz informiert.",
  detailShort:
    "{{received}} von {{required}} {{coin}} eingegangen. Senden Sie die restlichen {{remaining}} {{coin}} an dieselbe Adresse, bevor das Zahlungsfenster schließt.",
  detailExpiredPartly:
    "Das Zahlungsfenster hat sich geschlossen, als erst {{received}} von {{required}} {{coin}} eingegangen waren. Wenden Sie sich wegen dieses Betrags mit der Zahlungs-ID {{paymentId}} an den Shop oder starten Sie eine neue Zahlung.",
  detailExpired:
    "Das Zahlungsfenster hat sich geschlossen, bevor eine Zahlung eingegangen ist. Starten Sie eine neue Zahlung, um die Artikel zu kaufen.",
  detailFailedPartly:
    "Der Zahlungsdienst konnte diese Zahlung nicht verarbeiten. Wenden Sie sich wegen der gesendeten {{received}} {{coin}} mit der Zahlungs-ID {{paymentId}} an den Shop.",
  detailFailed: "Der Zahlungsdienst konnte diese Zahlung nicht verarbeiten. Starten Sie eine neue Zahlung.",
  detailNeedsAttention:
    "Der Shop konnte diese Zahlung so nicht annehmen (zum Beispiel nach Ablauf des Zahlungsfensters, doppelt oder mit einem anderen Betrag bezahlt) und wurde benachrichtigt. Senden Sie nichts mehr: Notieren Sie sich die Zahlungs-ID {{paymentId}} und wenden Sie sich an den Shop.",
  expiresIn: "Läuft ab in {{time}}",
  expiring: "Läuft ab…",
  expiresAt: "Zahlbar bis {{time}}",
  chooseCoinAndPay: "Kryptowährung wählen und bezahlen",
  opensPaymentPage: "Öffnet die Zahlungsseite in einem neuen Tab; diese Seite aktualisiert sich von selbst.",
  qrAlt: "QR-Code: {{amount}} {{coin}} an {{address}}",
  price: "Preis",
  sendExactly: "Senden Sie genau",
  sendRemaining: "Senden Sie den Rest",
  sendOnNetworkOnly: "Senden Sie nur {{network}}: Beträge in einem anderen Netzwerk sind verloren.",
  to: "An",
  confirmations: "Bestätigungen",
  confirmationsCount: "{{confirmations}} von {{requiredConfirmations}}",
  openInWallet: "In einer Wallet-App öffnen",
  paymentPage: "Zahlungsseite",
  paymentId: "Zahlungs-ID",
  received: "Eingegangen",
  copy: "Kopieren",
  copied: "Kopiert",
  copyAmount: "Betrag kopieren",
  copyAddress: "Adresse kopieren",
  copyPaymentId: "Zahlungs-ID kopieren",
  startAgain: "Neu beginnen",
  startNewPayment: "Neue Zahlung starten",
  startAgainWithSameItems: "Mit denselben Artikeln neu beginnen",
  statusUnavailable: "Der Zahlungsstatus ist gerade nicht verfügbar; wir versuchen es weiter.",
  payWith: "Bezahlen mit",
  anyCoin: "Beliebige Kryptowährung",
  anyCoinHint: "Auswahl auf der Zahlungsseite",
  payWithCrypto: "Mit Krypto bezahlen",
  coins: {
    BTC: "Bitcoin",
    ETH: "Ether",
    LTC: "Litecoin",
    USDT_ERC20: "USDT auf Ethereum (ERC-20)",
    USDT_BEP20: "USDT auf BNB Smart Chain (BEP-20)",
  },
  errors: {
    "crypto.no_session": "Die Krypto-Zahlung konnte nicht gestartet werden. Bitte versuchen Sie es erneut.",
    "crypto.unknown_coin":
      "Diese Kryptowährung wird nicht akzeptiert. Bitte wählen Sie Bitcoin, Ether, Litecoin oder USDT.",
    "crypto.coin_required": "Bitte wählen Sie die Kryptowährung, mit der Sie bezahlen möchten.",
    "crypto.currency_not_accepted": "Krypto-Zahlungen sind in der Währung dieses Warenkorbs nicht verfügbar.",
    "crypto.currency_not_priced": "Krypto-Zahlungen sind in der Währung dieses Warenkorbs nicht verfügbar.",
    "crypto.rate_stale":
      "Krypto-Zahlungen sind in dieser Währung gerade nicht verfügbar. Bitte versuchen Sie es später erneut oder wählen Sie eine andere Zahlungsart.",
    "crypto.nothing_to_pay": "Für diesen Warenkorb ist nichts zu bezahlen.",
    "crypto.no_payment": "Zu diesem Bezahlvorgang gibt es keine Krypto-Zahlung. Bitte starten Sie eine neue Zahlung.",
    "crypto.payment_expired":
      "Ihre Krypto-Zahlung ist abgelaufen, bevor der volle Betrag eingegangen ist. Bitte starten Sie eine neue Zahlung.",
    "crypto.payment_failed":
      "Ihre Krypto-Zahlung ist beim Zahlungsdienst fehlgeschlagen. Bitte starten Sie eine neue Zahlung.",
    "crypto.payment_not_received":
      "Ihre Krypto-Zahlung ist noch nicht eingegangen. Wählen Sie auf der Zahlungsseite eine Kryptowährung und bezahlen Sie; die Bestellung wird aufgegeben, sobald die Zahlung bestätigt ist.",
    "crypto.payment_unconfirmed":
      "Ihre Krypto-Zahlung ist noch nicht bestätigt. Die Bestellung wird aufgegeben, sobald sie bestätigt ist.",
    "crypto.payment_partly_received":
      "Bisher ist nur ein Teil Ihrer Krypto-Zahlung eingegangen. Die Bestellung wird aufgegeben, sobald der volle Betrag bestätigt ist.",
    "crypto.payment_not_capturable": "Die Krypto-Zahlung ist noch nicht abgeschlossen.",
    "crypto.not_set_up": "Krypto-Zahlungen sind gerade nicht verfügbar.",
    "crypto.try_again": "Etwas ist schiefgelaufen. Bitte versuchen Sie es erneut.",
    "crypto.unexpected_error": "Etwas ist schiefgelaufen. Bitte versuchen Sie es gleich noch einmal.",
    "crypto.request_invalid": "Mit diesen Angaben konnte die Krypto-Zahlung nicht gestartet werden.",
    "crypto.request_refused": "Der Krypto-Zahlungsdienst hat die Anfrage abgelehnt.",
    "crypto.service_unreachable":
      "Der Krypto-Zahlungsdienst ist gerade nicht erreichbar. Bitte versuchen Sie es gleich noch einmal.",
    "crypto.service_bad_answer":
      "Der Krypto-Zahlungsdienst hat unerwartet geantwortet. Bitte versuchen Sie es später erneut.",
    "crypto.service_access_refused": "Krypto-Zahlungen sind gerade nicht verfügbar.",
    "crypto.payment_unknown": "Der Krypto-Zahlungsdienst kennt diese Zahlung nicht.",
    "crypto.service_busy":
      "Der Krypto-Zahlungsdienst ist gerade ausgelastet. Bitte versuchen Sie es in einer Minute erneut.",
    "crypto.service_error":
      "Beim Krypto-Zahlungsdienst ist ein Problem aufgetreten. Bitte versuchen Sie es gleich noch einmal.",
    "crypto.payment_not_found": "Krypto-Zahlung nicht gefunden.",
    "crypto.no_address_yet": "Noch keine Adresse: Bitte wählen Sie zuerst eine Kryptowährung.",
    "crypto.nothing_to_send": "Für diese Zahlung ist nichts mehr zu senden.",
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
    conflict: "Diese Anfrage wird bereits bearbeitet. Bitte warten Sie einen Moment und versuchen Sie es dann erneut.",
  },
}

/* French: a no-break space (\u00a0) before ":", ";" and "!", as French typography wants. */
const fr: CryptoPaymentLabels = {
  checking: "Vérification du paiement…",
  titleChooseCoin: "Choisissez une cryptomonnaie",
  titleAwaiting: "En attente de paiement",
  titleConfirming: "Confirmation en cours",
  titlePaid: "Payé",
  titleShort: "Partiellement payé",
  titleExpired: "Expiré",
  titleFailed: "Échoué",
  titleNeedsAttention: "Action requise",
  detailChooseCoin:
    "Choisissez sur la page de paiement la cryptomonnaie avec laquelle vous souhaitez payer, puis envoyez le montant.",
  detailAwaiting: "Envoyez {{required}} {{coin}} à l’adresse {{address}} avant la fermeture de la fenêtre de paiement.",
  detailRecording:
    "Votre paiement est arrivé\u00a0; la boutique est en train de l’enregistrer. Vous n’avez plus rien à envoyer\u00a0: votre commande apparaîtra comme payée dès que ce sera fait.",
  detailConfirmations:
    "{{received}} {{coin}} reçus\u00a0: {{confirmations}} confirmations sur {{requiredConfirmations}}. Vous n’avez plus rien à envoyer\u00a0; cette page se met à jour automatiquement.",
  detailConfirmingOnChain:
    "{{received}} {{coin}} reçus, en cours de confirmation sur la blockchain. Vous n’avez plus rien à envoyer\u00a0; cette page se met à jour automatiquement.",
  detailPaid: "La boutique a accepté votre paiement de {{received}} {{coin}}. Merci\u00a0!",
  detailPaidOverpaid:
    "La boutique a accepté votre paiement de {{received}} {{coin}}. Vous avez envoyé plus que le montant demandé\u00a0: la boutique a été informée de la différence.",
  detailShort:
    "{{received}} sur {{required}} {{coin}} reçus. Envoyez les {{remaining}} {{coin}} restants à la même adresse avant la fermeture de la fenêtre de paiement.",
  detailExpiredPartly:
    "La fenêtre de paiement s’est fermée alors que seuls {{received}} sur {{required}} {{coin}} avaient été reçus. Contactez la boutique au sujet de cette somme en indiquant l’identifiant de paiement {{paymentId}}, ou lancez un nouveau paiement.",
  detailExpired:
    "La fenêtre de paiement s’est fermée avant l’arrivée de tout paiement. Lancez un nouveau paiement pour acheter les articles.",
  detailFailedPartly:
    "Le service de paiement n’a pas pu traiter ce paiement. Contactez la boutique au sujet des {{received}} {{coin}} envoyés, en indiquant l’identifiant de paiement {{paymentId}}.",
  detailFailed: "Le service de paiement n’a pas pu traiter ce paiement. Lancez un nouveau paiement.",
  detailNeedsAttention:
    "La boutique n’a pas pu accepter ce paiement en l’état (par exemple payé après la fermeture de la fenêtre, payé deux fois ou d’un montant différent) et a été prévenue. N’envoyez rien de plus\u00a0: conservez l’identifiant de paiement {{paymentId}} et contactez la boutique.",
  expiresIn: "Expire dans {{time}}",
  expiring: "Expiration imminente…",
  expiresAt: "À payer avant {{time}}",
  chooseCoinAndPay: "Choisir une cryptomonnaie et payer",
  opensPaymentPage: "Ouvre la page de paiement dans un nouvel onglet\u00a0; cette page se met à jour automatiquement.",
  qrAlt: "Code QR\u00a0: {{amount}} {{coin}} à {{address}}",
  price: "Prix",
  sendExactly: "Envoyez exactement",
  sendRemaining: "Envoyez le reste",
  sendOnNetworkOnly: "Envoyez uniquement des {{network}}\u00a0: les fonds envoyés sur un autre réseau sont perdus.",
  to: "À",
  confirmations: "Confirmations",
  confirmationsCount: "{{confirmations}} sur {{requiredConfirmations}}",
  openInWallet: "Ouvrir dans une application de portefeuille",
  paymentPage: "Page de paiement",
  paymentId: "Identifiant de paiement",
  received: "Reçu",
  copy: "Copier",
  copied: "Copié",
  copyAmount: "Copier le montant",
  copyAddress: "Copier l’adresse",
  copyPaymentId: "Copier l’identifiant de paiement",
  startAgain: "Recommencer",
  startNewPayment: "Lancer un nouveau paiement",
  startAgainWithSameItems: "Recommencer avec les mêmes articles",
  statusUnavailable: "Le statut du paiement n’est pas disponible pour le moment\u00a0; nouvelle tentative en cours.",
  payWith: "Payer avec",
  anyCoin: "N’importe quelle cryptomonnaie",
  anyCoinHint: "à choisir sur la page de paiement",
  payWithCrypto: "Payer en crypto",
  coins: {
    BTC: "Bitcoin",
    ETH: "Ether",
    LTC: "Litecoin",
    USDT_ERC20: "USDT sur Ethereum (ERC-20)",
    USDT_BEP20: "USDT sur BNB Smart Chain (BEP-20)",
  },
  errors: {
    "crypto.no_session": "Le paiement crypto n’a pas pu être lancé. Veuillez réessayer.",
    "crypto.unknown_coin": "Cette cryptomonnaie n’est pas acceptée. Veuillez choisir Bitcoin, Ether, Litecoin ou USDT.",
    "crypto.coin_required": "Veuillez choisir la cryptomonnaie avec laquelle vous souhaitez payer.",
    "crypto.currency_not_accepted": "Les paiements crypto ne sont pas disponibles dans la devise de ce panier.",
    "crypto.currency_not_priced": "Les paiements crypto ne sont pas disponibles dans la devise de ce panier.",
    "crypto.rate_stale":
      "Les paiements crypto ne sont pas disponibles dans cette devise pour le moment. Réessayez plus tard ou choisissez un autre moyen de paiement.",
    "crypto.nothing_to_pay": "Il n’y a rien à payer pour ce panier.",
    "crypto.no_payment": "Aucun paiement crypto n’est associé à cette commande. Veuillez lancer un nouveau paiement.",
    "crypto.payment_expired":
      "Votre paiement crypto a expiré avant l’arrivée du montant complet. Veuillez lancer un nouveau paiement.",
    "crypto.payment_failed":
      "Votre paiement crypto a échoué auprès du service de paiement. Veuillez lancer un nouveau paiement.",
    "crypto.payment_not_received":
      "Votre paiement crypto n’a pas encore été reçu. Choisissez une cryptomonnaie et payez sur la page de paiement\u00a0; la commande sera passée dès que le paiement sera confirmé.",
    "crypto.payment_unconfirmed":
      "Votre paiement crypto n’est pas encore confirmé. La commande sera passée dès qu’il le sera.",
    "crypto.payment_partly_received":
      "Seule une partie de votre paiement crypto est arrivée pour l’instant. La commande sera passée dès que le montant complet sera confirmé.",
    "crypto.payment_not_capturable": "Le paiement crypto n’est pas encore terminé.",
    "crypto.not_set_up": "Les paiements crypto ne sont pas disponibles pour le moment.",
    "crypto.try_again": "Une erreur s’est produite. Veuillez réessayer.",
    "crypto.unexpected_error": "Une erreur s’est produite. Veuillez réessayer dans un instant.",
    "crypto.request_invalid": "Le paiement crypto n’a pas pu être lancé avec ces informations.",
    "crypto.request_refused": "Le service de paiement crypto a refusé la demande.",
    "crypto.service_unreachable":
      "Le service de paiement crypto est injoignable pour le moment. Veuillez réessayer dans un instant.",
    "crypto.service_bad_answer":
      "Le service de paiement crypto a renvoyé une réponse inattendue. Veuillez réessayer plus tard.",
    "crypto.service_access_refused": "Les paiements crypto ne sont pas disponibles pour le moment.",
    "crypto.payment_unknown": "Le service de paiement crypto ne connaît pas ce paiement.",
    "crypto.service_busy": "Le service de paiement crypto est surchargé. Veuillez réessayer dans une minute.",
    "crypto.service_error":
      "Le service de paiement crypto a rencontré un problème. Veuillez réessayer dans un instant.",
    "crypto.payment_not_found": "Paiement crypto introuvable.",
    "crypto.no_address_yet": "Pas encore d’adresse\u00a0: veuillez d’abord choisir une cryptomonnaie.",
    "crypto.nothing_to_send": "Il n’y a plus rien à envoyer pour ce paiement.",
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
    conflict: "Cette demande est déjà en cours de traitement. Veuillez patienter un instant, puis réessayer.",
  },
}

const es: CryptoPaymentLabels = {
  checking: "Comprobando el pago…",
  titleChooseCoin: "Elige una criptomoneda",
  titleAwaiting: "Pendiente de pago",
  titleConfirming: "Confirmando",
  titlePaid: "Pagado",
  titleShort: "Pagado en parte",
  titleExpired: "Caducado",
  titleFailed: "Fallido",
  titleNeedsAttention: "Requiere atención",
  detailChooseCoin: "Elige en la página de pago la criptomoneda con la que quieres pagar y luego envía el importe.",
  detailAwaiting: "Envía {{required}} {{coin}} a {{address}} antes de que se cierre el plazo de pago.",
  detailRecording:
    "Tu pago ha llegado; la tienda lo está registrando. No tienes que enviar nada más: tu pedido aparecerá como pagado en cuanto termine.",
  detailConfirmations:
    "Han llegado {{received}} {{coin}}: {{confirmations}} de {{requiredConfirmations}} confirmaciones. No tienes que enviar nada más; esta página se actualiza sola.",
  detailConfirmingOnChain:
    "Han llegado {{received}} {{coin}} y se están confirmando en la cadena de bloques. No tienes que enviar nada más; esta página se actualiza sola.",
  detailPaid: "La tienda ha aceptado tu pago de {{received}} {{coin}}. ¡Gracias!",
  detailPaidOverpaid:
    "La tienda ha aceptado tu pago de {{received}} {{coin}}. Has enviado más de lo necesario: se ha informado a la tienda de la diferencia.",
  detailShort:
    "Recibidos {{received}} de {{required}} {{coin}}. Envía los {{remaining}} {{coin}} restantes a la misma dirección antes de que se cierre el plazo de pago.",
  detailExpiredPartly:
    "El plazo de pago se cerró cuando solo se habían recibido {{received}} de {{required}} {{coin}}. Ponte en contacto con la tienda por ese importe indicando el identificador de pago {{paymentId}}, o inicia un nuevo pago.",
  detailExpired:
    "El plazo de pago se cerró antes de que llegara ningún pago. Inicia un nuevo pago para comprar los artículos.",
  detailFailedPartly:
    "El servicio de pago no pudo procesar este pago. Ponte en contacto con la tienda por los {{received}} {{coin}} que enviaste, indicando el identificador de pago {{paymentId}}.",
  detailFailed: "El servicio de pago no pudo procesar este pago. Inicia un nuevo pago.",
  detailNeedsAttention:
    "La tienda no ha podido aceptar este pago tal como está (por ejemplo, pagado después de cerrarse el plazo, pagado dos veces o por un importe distinto) y ha recibido un aviso. No envíes nada más: guarda el identificador de pago {{paymentId}} y ponte en contacto con la tienda.",
  expiresIn: "Caduca en {{time}}",
  expiring: "Caducando…",
  expiresAt: "Paga antes de las {{time}}",
  chooseCoinAndPay: "Elegir criptomoneda y pagar",
  opensPaymentPage: "Abre la página de pago en una pestaña nueva; esta página se actualiza sola.",
  qrAlt: "Código QR: {{amount}} {{coin}} a {{address}}",
  price: "Precio",
  sendExactly: "Envía exactamente",
  sendRemaining: "Envía el resto",
  sendOnNetworkOnly: "Envía solo {{network}}: los fondos enviados por otra red se pierden.",
  to: "A",
  confirmations: "Confirmaciones",
  confirmationsCount: "{{confirmations}} de {{requiredConfirmations}}",
  openInWallet: "Abrir en una app de monedero",
  paymentPage: "Página de pago",
  paymentId: "Identificador de pago",
  received: "Recibido",
  copy: "Copiar",
  copied: "Copiado",
  copyAmount: "Copiar el importe",
  copyAddress: "Copiar la dirección",
  copyPaymentId: "Copiar el identificador de pago",
  startAgain: "Empezar de nuevo",
  startNewPayment: "Iniciar un nuevo pago",
  startAgainWithSameItems: "Empezar de nuevo con los mismos artículos",
  statusUnavailable: "El estado del pago no está disponible en este momento; lo seguimos intentando.",
  payWith: "Pagar con",
  anyCoin: "Cualquier criptomoneda",
  anyCoinHint: "elígela en la página de pago",
  payWithCrypto: "Pagar con criptomonedas",
  coins: {
    BTC: "Bitcoin",
    ETH: "Ether",
    LTC: "Litecoin",
    USDT_ERC20: "USDT en Ethereum (ERC-20)",
    USDT_BEP20: "USDT en BNB Smart Chain (BEP-20)",
  },
  errors: {
    "crypto.no_session": "No se pudo iniciar el pago con criptomonedas. Inténtalo de nuevo.",
    "crypto.unknown_coin": "Esta criptomoneda no se acepta. Elige Bitcoin, Ether, Litecoin o USDT.",
    "crypto.coin_required": "Elige la criptomoneda con la que quieres pagar.",
    "crypto.currency_not_accepted": "Los pagos con criptomonedas no están disponibles en la moneda de este carrito.",
    "crypto.currency_not_priced": "Los pagos con criptomonedas no están disponibles en la moneda de este carrito.",
    "crypto.rate_stale":
      "Los pagos con criptomonedas no están disponibles en esta moneda en este momento. Inténtelo más tarde o elija otro método de pago.",
    "crypto.nothing_to_pay": "No hay nada que pagar en este carrito.",
    "crypto.no_payment": "No hay ningún pago con criptomonedas para esta compra. Inicia un nuevo pago.",
    "crypto.payment_expired":
      "Tu pago con criptomonedas caducó antes de que llegara el importe completo. Inicia un nuevo pago.",
    "crypto.payment_failed": "Tu pago con criptomonedas falló en el servicio de pago. Inicia un nuevo pago.",
    "crypto.payment_not_received":
      "Todavía no se ha recibido tu pago con criptomonedas. Elige una criptomoneda y paga en la página de pago; el pedido se realizará en cuanto se confirme el pago.",
    "crypto.payment_unconfirmed":
      "Tu pago con criptomonedas aún no está confirmado. El pedido se realizará en cuanto lo esté.",
    "crypto.payment_partly_received":
      "Por ahora solo ha llegado una parte de tu pago con criptomonedas. El pedido se realizará en cuanto se confirme el importe completo.",
    "crypto.payment_not_capturable": "El pago con criptomonedas aún no se ha completado.",
    "crypto.not_set_up": "Los pagos con criptomonedas no están disponibles en este momento.",
    "crypto.try_again": "Algo salió mal. Inténtalo de nuevo.",
    "crypto.unexpected_error": "Algo salió mal. Vuelve a intentarlo en unos instantes.",
    "crypto.request_invalid": "No se pudo iniciar el pago con criptomonedas con estos datos.",
    "crypto.request_refused": "El servicio de pago con criptomonedas rechazó la solicitud.",
    "crypto.service_unreachable":
      "El servicio de pago con criptomonedas no está disponible en este momento. Vuelve a intentarlo en unos instantes.",
    "crypto.service_bad_answer":
      "El servicio de pago con criptomonedas dio una respuesta inesperada. Inténtalo de nuevo más tarde.",
    "crypto.service_access_refused": "Los pagos con criptomonedas no están disponibles en este momento.",
    "crypto.payment_unknown": "El servicio de pago con criptomonedas no reconoce este pago.",
    "crypto.service_busy":
      "El servicio de pago con criptomonedas está saturado. Vuelve a intentarlo dentro de un minuto.",
    "crypto.service_error":
      "El servicio de pago con criptomonedas tuvo un problema. Vuelve a intentarlo en unos instantes.",
    "crypto.payment_not_found": "No se encontró el pago con criptomonedas.",
    "crypto.no_address_yet": "Todavía no hay dirección: elige primero una criptomoneda.",
    "crypto.nothing_to_send": "No queda nada por enviar para este pago.",
    "crypto.status_unavailable":
      "El estado del pago no está disponible en este momento. Vuelve a intentarlo en unos instantes.",
    "crypto.too_many_sessions":
      "Demasiados intentos de pago para este carrito. Espera un minuto y vuelve a intentarlo.",
    "crypto.refund_link_not_found": "Este enlace de reembolso no es válido o ha caducado. Pide uno nuevo a la tienda.",
    "crypto.refund_address_frozen":
      "El reembolso ya se está enviando: su dirección ya no puede cambiar. Contacta con la tienda si es incorrecta.",
    "crypto.refund_address_invalid": "Esta dirección no puede recibir el reembolso. Comprueba la dirección y su red.",
    "crypto.too_many_requests": "Demasiadas solicitudes. Espera un momento y vuelve a intentarlo.",
    conflict: "Esta solicitud ya se está procesando. Espera un momento y vuelve a intentarlo.",
  },
}

/** The built-in languages. */
export const CRYPTO_PAYMENT_LABELS = { en, de, fr, es }
export type CryptoPaymentLanguage = keyof typeof CRYPTO_PAYMENT_LABELS
