import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { CRYPTO_ERROR_TEXTS } from "../../../../lib/domain/customer-errors"
import {
  sendStoreRouteError,
  STORE_ROUTE_ERROR_TRANSLATIONS,
  StoreRouteErrorCode,
  storeRouteErrorMessage,
  storeRouteLanguage,
} from "../route-errors"

const CODES: StoreRouteErrorCode[] = [
  "crypto.payment_not_found",
  "crypto.no_address_yet",
  "crypto.nothing_to_send",
  "crypto.status_unavailable",
  "crypto.too_many_sessions",
  "crypto.refund_link_not_found",
  "crypto.refund_address_frozen",
  "crypto.refund_address_invalid",
  "crypto.too_many_requests",
]

describe("the store routes' errors in the customer's language", () => {
  it.each([
    ["de", "de"],
    ["de-DE", "de"],
    ["de-AT", "de"],
    ["fr-CA", "fr"],
    ["fr", "fr"],
    ["es-MX", "es"],
    ["en-GB", "en"],
    ["pt-BR", "en"],
    ["zh-Hans", "en"],
    ["", "en"],
    [undefined, "en"],
  ])("req.locale %j answers in %s", (locale, language) => {
    expect(storeRouteLanguage(locale)).toBe(language)
  })

  it.each([
    ["de-DE", "crypto.payment_not_found", "Krypto-Zahlung nicht gefunden."],
    ["fr-FR", "crypto.payment_not_found", "Paiement crypto introuvable."],
    ["es-ES", "crypto.payment_not_found", "No se encontró el pago con criptomonedas."],
    ["de", "crypto.no_address_yet", "Noch keine Adresse: Es wurde noch keine Kryptowährung gewählt."],
    ["fr", "crypto.no_address_yet", "Pas encore d’adresse\u00a0: aucune cryptomonnaie n’a été choisie."],
    ["es", "crypto.no_address_yet", "Todavía no hay dirección: aún no se ha elegido ninguna criptomoneda."],
    [
      "de",
      "crypto.status_unavailable",
      "Der Zahlungsstatus ist gerade nicht verfügbar. Bitte versuchen Sie es gleich noch einmal.",
    ],
    [
      "fr-FR",
      "crypto.too_many_sessions",
      "Trop de tentatives de paiement pour ce panier. Veuillez patienter une minute, puis réessayer.",
    ],
  ] as const)("%s: %s", (locale, code, text) => {
    expect(storeRouteErrorMessage(code, locale)).toBe(text)
  })

  it.each([undefined, "en-US", "it-IT", "not a locale"])("falls back to English for %j", (locale) => {
    for (const code of CODES) expect(storeRouteErrorMessage(code, locale)).toBe(CRYPTO_ERROR_TEXTS[code])
  })

  it("has every error in every language, none empty, none left in English", () => {
    for (const texts of Object.values(STORE_ROUTE_ERROR_TRANSLATIONS)) {
      expect(Object.keys(texts).sort()).toEqual([...CODES].sort())
      for (const code of CODES) {
        expect(texts[code].trim()).not.toBe("")
        expect(texts[code]).not.toBe(CRYPTO_ERROR_TEXTS[code])
      }
    }
  })

  it("answers as Medusa does, with the code, the message in req.locale's language and Content-Language", () => {
    const headers: Record<string, string> = {}
    let status = 0
    let body: unknown
    const res = {
      setHeader: (name: string, value: string) => (headers[name] = value),
      status(code: number) {
        status = code
        return this
      },
      json(value: unknown) {
        body = value
        return this
      },
    } as unknown as MedusaResponse
    sendStoreRouteError({ locale: "fr-FR" } as MedusaRequest, res, 404, "not_found", "crypto.payment_not_found")
    expect(status).toBe(404)
    expect(headers["Content-Language"]).toBe("fr")
    expect(body).toEqual({
      type: "not_found",
      code: "crypto.payment_not_found",
      message: "Paiement crypto introuvable.",
    })
  })
})
