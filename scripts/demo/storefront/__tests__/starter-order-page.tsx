import * as React from "react"
import ts from "typescript"

/*
 * Medusa's storefront starter's order page, as far as it shows the payment: a model written from reading
 * `medusajs/dtc-starter` at commit 9233262 (Next.js 15.5, Medusa 2.18), not a copy of it.
 *
 * - `apps/storefront/src/modules/order/components/payment-details/index.tsx` (`PaymentDetails`), rendered by
 *   `src/modules/order/templates/order-completed-template.tsx` on `/[countryCode]/order/[id]/confirmed`: the
 *   page `placeOrder()` redirects to and the customer emails link. It takes the first payment of the order's
 *   first payment collection and reads `paymentInfoMap[payment.provider_id].title` and `.icon` with no check
 *   that the entry exists; a Stripe-like provider's card digits, else the amount and when it was paid.
 * - `apps/storefront/src/lib/constants.tsx`: `paymentInfoMap`, provider id → title and icon, with the comment
 *   above which docs/storefront.md (section 2) adds the crypto entry. Two of its six entries stand for the rest.
 *
 * Elsewhere the starter reads the map with `?.` (the checkout's payment step and `PaymentContainer`) or not at
 * all (the account's order page, the review step, the payment button), so `PaymentDetails` is the one reader
 * that throws. The guide leaves `PaymentDetails` as it is.
 */

export const ADD_PROVIDERS_HERE = "  // Add more payment providers here"

/** The part of the starter's `src/lib/constants.tsx` that the guide edits, as source text. */
export const STARTER_CONSTANTS = `import { CreditCard } from "@medusajs/icons"
import React from "react"

export const paymentInfoMap: Record<string, { title: string; icon: React.JSX.Element }> = {
  pp_stripe_stripe: {
    title: "Credit card",
    icon: <CreditCard />,
  },
  pp_system_default: {
    title: "Manual Payment",
    icon: <CreditCard />,
  },
${ADD_PROVIDERS_HERE}
}
`

export type PaymentInfoMap = Record<string, { title: string; icon: React.ReactNode }>

/** The constants file with `entry` pasted above its "Add more payment providers here", as the guide says. */
export function withEntry(constants: string, entry: string): string {
  if (!constants.includes(`\n${ADD_PROVIDERS_HERE}\n`)) throw new Error("no place to add a provider")
  return constants.replace(`\n${ADD_PROVIDERS_HERE}\n`, `\n${entry.replace(/\n*$/, "\n")}${ADD_PROVIDERS_HERE}\n`)
}

/** `paymentInfoMap` of a constants file: compiled as TSX (a snippet that does not parse fails here) and run. */
export function paymentInfoMapOf(constants: string): PaymentInfoMap {
  const out = ts.transpileModule(constants, {
    fileName: "constants.tsx",
    reportDiagnostics: true,
    compilerOptions: {
      jsx: ts.JsxEmit.React,
      module: ts.ModuleKind.CommonJS,
      target: ts.ScriptTarget.ES2019,
      esModuleInterop: true,
    },
  })
  const problems = (out.diagnostics ?? []).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"))
  if (problems.length) throw new Error(`constants.tsx does not compile: ${problems.join("; ")}`)
  const modules: Record<string, unknown> = {
    react: React,
    "@medusajs/icons": { CreditCard: () => <svg data-icon="credit-card" /> },
  }
  const load = (name: string) => {
    if (!(name in modules)) throw new Error(`constants.tsx imports ${name}, which the starter's file does not`)
    return modules[name]
  }
  const module = { exports: {} as { paymentInfoMap?: PaymentInfoMap } }
  new Function("module", "exports", "require", out.outputText)(module, module.exports, load)
  return module.exports.paymentInfoMap!
}

export type StarterOrder = {
  currency_code: string
  payment_collections?: Array<{
    payments?: Array<{
      provider_id: string
      amount: number
      created_at?: string | null
      data?: Record<string, unknown> | null
    }>
  }>
}

const isStripeLike = (providerId?: string) =>
  !!(providerId?.startsWith("pp_stripe_") || providerId?.startsWith("pp_medusa-"))

const money = (amount: number, currency: string) =>
  new Intl.NumberFormat("en-US", { style: "currency", currency }).format(amount)

/** The starter's `PaymentDetails`, its map passed in instead of imported. */
export function PaymentDetails({ order, paymentInfoMap }: { order: StarterOrder; paymentInfoMap: PaymentInfoMap }) {
  const payment = order.payment_collections?.[0].payments?.[0]
  return (
    <div>
      <h2>Payment</h2>
      {payment && (
        <div>
          <p data-testid="payment-method">{paymentInfoMap[payment.provider_id].title}</p>
          <span>{paymentInfoMap[payment.provider_id].icon}</span>
          <p data-testid="payment-amount">
            {isStripeLike(payment.provider_id) && payment.data?.card_last4
              ? `**** **** **** ${payment.data.card_last4}`
              : `${money(payment.amount, order.currency_code)} paid at ${new Date(payment.created_at ?? "").toLocaleString()}`}
          </p>
        </div>
      )}
    </div>
  )
}
