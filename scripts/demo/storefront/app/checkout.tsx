import type { HttpTypes } from "@medusajs/types"
import { FormEvent, ReactNode, useEffect, useRef, useState } from "react"
import { CryptoCoinPicker } from "../../../../docs/storefront/CryptoCoinPicker"
import { CryptoPaymentBox } from "../../../../docs/storefront/CryptoPaymentBox"
import {
  Coin,
  cryptoPaymentVerdict,
  cryptoSessionOf,
  readyToCompleteCart,
  startCryptoPayment,
} from "../../../../docs/storefront/crypto-payment"
import { cryptoPaymentLabels } from "../../../../docs/storefront/crypto-payment-i18n"
import { CryptoExchange } from "./exchange"
import { CART_QUERY, messageOf, money } from "./medusa"
import { navigate, useShop } from "./shop-context"
import { SandboxNote } from "./sandbox-note"
import { Summary } from "./summary"

type Step = "address" | "delivery" | "payment" | "review"
type Cart = HttpTypes.StoreCart

/** Filled in, so that a person can buy with the mouse alone; the address is one of the cart's region (below). */
const DEMO_CUSTOMER = {
  email: "satoshi@example.com",
  first_name: "Satoshi",
  last_name: "Nakamoto",
  address_1: "1 Genesis Block",
  city: "Austin",
  postal_code: "73301",
  country_code: "us",
}
type AddressFields = typeof DEMO_CUSTOMER

/** The demo's address in a country: the US one, or Berlin for the Europe region (Germany). */
const DEMO_ADDRESSES: Record<string, Pick<AddressFields, "address_1" | "city" | "postal_code">> = {
  us: { address_1: "1 Genesis Block", city: "Austin", postal_code: "73301" },
  de: { address_1: "Genesisstraße 1", city: "Berlin", postal_code: "10115" },
}

/** The country the form starts in: the US or Germany when the region has it, else its first country. */
function defaultCountry(countries: string[]): string {
  return ["us", "de"].find((c) => countries.includes(c)) ?? countries[0] ?? DEMO_CUSTOMER.country_code
}

const isCrypto = (providerId: string | undefined) => !!providerId?.startsWith("pp_crypto_")
const providerTitle = (id: string) =>
  isCrypto(id) ? "Crypto (BTC, ETH, LTC, USDT)" : id === "pp_system_default" ? "Manual payment" : id

function pendingSession(cart: Cart) {
  return cart.payment_collection?.payment_sessions?.find((s) => s.status === "pending")
}

function firstOpenStep(cart: Cart): Step {
  if (!cart.email || !cart.shipping_address?.address_1) return "address"
  if (!cart.shipping_methods?.length) return "delivery"
  return pendingSession(cart) ? "review" : "payment"
}

export function CheckoutPage() {
  const { cart } = useShop()
  if (!cart?.items?.length) {
    return (
      <p className="muted">
        Your cart is empty. <a href="#/">Shop the products</a>
      </p>
    )
  }
  // a cart moved to another region (the region switch) starts over at its first open step
  return <Checkout key={cart.region_id} cart={cart} />
}

function Section(props: {
  title: string
  step: Step
  current: Step
  onEdit: (step: Step) => void
  summary?: ReactNode
  children: ReactNode
}) {
  const open = props.step === props.current
  const order: Step[] = ["address", "delivery", "payment", "review"]
  const done = order.indexOf(props.step) < order.indexOf(props.current)
  return (
    <section className="step" data-testid={`step-${props.step}`}>
      <header className="step__header">
        <h2>{props.title}</h2>
        {done && (
          <button className="link" onClick={() => props.onEdit(props.step)}>
            Edit
          </button>
        )}
      </header>
      {open ? props.children : done ? <div className="muted">{props.summary}</div> : null}
    </section>
  )
}

function Checkout({ cart }: { cart: Cart }) {
  const { sdk, setCart, locale } = useShop()
  const [step, setStep] = useState<Step>(() => firstOpenStep(cart))
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string>()

  /** Runs a step's action: busy while it runs, its error shown in the shopper's language (the plugin's, by code). */
  const run = async (action: () => Promise<void>) => {
    setBusy(true)
    setError(undefined)
    try {
      await action()
    } catch (e) {
      setError(messageOf(e, locale))
    } finally {
      setBusy(false)
    }
  }
  const reload = async () => setCart((await sdk.store.cart.retrieve(cart.id, CART_QUERY)).cart)
  const address = cart.shipping_address

  return (
    <div className="two-columns">
      <div>
        <h1 className="title">Checkout</h1>
        {error && (
          <p className="error" role="alert" data-testid="checkout-error">
            {error}
          </p>
        )}
        <Section
          title="Shipping Address"
          step="address"
          current={step}
          onEdit={setStep}
          summary={
            address &&
            `${address.first_name} ${address.last_name}, ${address.address_1}, ${address.city} · ${cart.email}`
          }
        >
          <AddressForm
            cart={cart}
            busy={busy}
            onSubmit={(fields) =>
              run(async () => {
                const { email, ...shipping } = fields
                setCart(
                  (
                    await sdk.store.cart.update(
                      cart.id,
                      { email, shipping_address: shipping, billing_address: shipping },
                      CART_QUERY
                    )
                  ).cart
                )
                setStep("delivery")
              })
            }
          />
        </Section>
        <Section
          title="Delivery"
          step="delivery"
          current={step}
          onEdit={setStep}
          summary={cart.shipping_methods?.[0]?.name}
        >
          <DeliveryStep
            cart={cart}
            busy={busy}
            onSubmit={(optionId) =>
              run(async () => {
                setCart((await sdk.store.cart.addShippingMethod(cart.id, { option_id: optionId }, CART_QUERY)).cart)
                setStep("payment")
              })
            }
          />
        </Section>
        <Section title="Payment" step="payment" current={step} onEdit={setStep} summary={paymentSummary(cart)}>
          <PaymentStep
            cart={cart}
            busy={busy}
            onSubmit={(providerId, coin) =>
              run(async () => {
                if (isCrypto(providerId)) await startCryptoPayment(sdk, cart, coin)
                else await sdk.store.payment.initiatePaymentSession(cart, { provider_id: providerId })
                await reload()
                setStep("review")
              })
            }
          />
        </Section>
        <Section title="Review" step="review" current={step} onEdit={setStep}>
          <ReviewStep cart={cart} busy={busy} run={run} reload={reload} />
        </Section>
      </div>
      <aside>
        <Summary cart={cart} title="In your cart" />
        <ul className="mini-lines">
          {cart.items?.map((item) => (
            <li key={item.id}>
              {item.quantity} × {item.product_title}
            </li>
          ))}
        </ul>
      </aside>
    </div>
  )
}

function paymentSummary(cart: Cart): string | undefined {
  const session = pendingSession(cart)
  if (!session) return undefined
  const crypto = cryptoSessionOf(cart.payment_collection)
  if (!isCrypto(session.provider_id) || !crypto) return providerTitle(session.provider_id)
  return crypto.kind === "invoice" ? "Crypto: any coin, chosen on the payment page" : `Crypto: ${crypto.currency}`
}

function AddressForm({
  cart,
  busy,
  onSubmit,
}: {
  cart: Cart
  busy: boolean
  onSubmit: (fields: AddressFields) => void
}) {
  const { regions } = useShop()
  // the countries of the cart's region: Medusa takes no shipping address outside it
  const countries = (regions.find((r) => r.id === cart.region_id)?.countries ?? [])
    .filter((c) => c.iso_2)
    .map((c) => ({ code: c.iso_2!, name: c.display_name || c.name || c.iso_2! }))
    .sort((a, b) => a.name.localeCompare(b.name))
  const codes = countries.map((c) => c.code)
  // an address saved in another region's country is not reused (Medusa drops it when the cart moves; this is the guard)
  const saved =
    cart.shipping_address?.country_code && (!codes.length || codes.includes(cart.shipping_address.country_code))
      ? cart.shipping_address
      : undefined
  const country = saved?.country_code || defaultCountry(codes)
  const demo = DEMO_ADDRESSES[country] ?? DEMO_ADDRESSES[DEMO_CUSTOMER.country_code]
  const [fields, setFields] = useState({
    email: cart.email || DEMO_CUSTOMER.email,
    first_name: saved?.first_name || DEMO_CUSTOMER.first_name,
    last_name: saved?.last_name || DEMO_CUSTOMER.last_name,
    address_1: saved?.address_1 || demo.address_1,
    city: saved?.city || demo.city,
    postal_code: saved?.postal_code || demo.postal_code,
    country_code: country,
  })
  const field = (name: keyof typeof fields, label: string) => (
    <label className="field">
      <span>{label}</span>
      <input
        name={name}
        value={fields[name]}
        required
        onChange={(e) => setFields({ ...fields, [name]: e.target.value })}
      />
    </label>
  )
  const submit = (e: FormEvent) => {
    e.preventDefault()
    onSubmit(fields)
  }
  return (
    <form onSubmit={submit} className="form">
      <div className="form__grid">
        {field("first_name", "First name")}
        {field("last_name", "Last name")}
        {field("address_1", "Address")}
        {field("postal_code", "Postal code")}
        {field("city", "City")}
        <label className="field">
          <span>Country</span>
          <select
            name="country_code"
            value={fields.country_code}
            onChange={(e) => setFields({ ...fields, country_code: e.target.value })}
          >
            {(countries.length ? countries : [{ code: country, name: country.toUpperCase() }]).map(({ code, name }) => (
              <option key={code} value={code}>
                {name}
              </option>
            ))}
          </select>
        </label>
        {field("email", "Email")}
      </div>
      <button className="button" disabled={busy}>
        Continue to delivery
      </button>
    </form>
  )
}

function DeliveryStep({ cart, busy, onSubmit }: { cart: Cart; busy: boolean; onSubmit: (optionId: string) => void }) {
  const { sdk } = useShop()
  const [options, setOptions] = useState<HttpTypes.StoreCartShippingOption[]>()
  const [chosen, setChosen] = useState<string>()
  useEffect(() => {
    sdk.store.fulfillment.listCartOptions({ cart_id: cart.id }).then(({ shipping_options }) => {
      setOptions(shipping_options)
      setChosen((current) => current ?? cart.shipping_methods?.[0]?.shipping_option_id ?? shipping_options[0]?.id)
    })
  }, [sdk, cart.id])
  if (!options) return <p className="muted">Loading delivery options…</p>
  return (
    <div className="form">
      <div className="radios">
        {options.map((option) => (
          <label key={option.id} className="radio" data-selected={chosen === option.id || undefined}>
            <input type="radio" name="delivery" checked={chosen === option.id} onChange={() => setChosen(option.id)} />
            <span>{option.name}</span>
            <span className="radio__aside">{money(option.amount, cart.currency_code)}</span>
          </label>
        ))}
      </div>
      <button className="button" disabled={busy || !chosen} onClick={() => chosen && onSubmit(chosen)}>
        Continue to payment
      </button>
    </div>
  )
}

function PaymentStep({
  cart,
  busy,
  onSubmit,
}: {
  cart: Cart
  busy: boolean
  onSubmit: (providerId: string, coin?: Coin) => void
}) {
  const { sdk, locale } = useShop()
  const [providers, setProviders] = useState<string[]>()
  const [chosen, setChosen] = useState<string>()
  const [coin, setCoin] = useState<Coin | undefined>(() => cryptoSessionOf(cart.payment_collection)?.currency)
  useEffect(() => {
    sdk.store.payment.listPaymentProviders({ region_id: cart.region_id! }).then(({ payment_providers }) => {
      const ids = payment_providers.map((p) => p.id)
      setProviders(ids)
      setChosen((current) => current ?? pendingSession(cart)?.provider_id ?? ids.find(isCrypto) ?? ids[0])
    })
  }, [sdk, cart.region_id])
  if (!providers) return <p className="muted">Loading payment methods…</p>
  return (
    <div className="form">
      <div className="radios">
        {providers.map((id) => (
          <div key={id}>
            <label className="radio" data-selected={chosen === id || undefined}>
              <input type="radio" name="payment" checked={chosen === id} onChange={() => setChosen(id)} />
              <span>{providerTitle(id)}</span>
            </label>
            {chosen === id && isCrypto(id) && (
              <CryptoCoinPicker value={coin} onChange={setCoin} disabled={busy} locale={locale} />
            )}
          </div>
        ))}
      </div>
      <button className="button" disabled={busy || !chosen} onClick={() => chosen && onSubmit(chosen, coin)}>
        Continue to review
      </button>
    </div>
  )
}

function ReviewStep({
  cart,
  busy,
  run,
  reload,
}: {
  cart: Cart
  busy: boolean
  run: (action: () => Promise<void>) => Promise<void>
  reload: () => Promise<void>
}) {
  const { sdk, setCart, locale } = useShop()
  const labels = cryptoPaymentLabels(locale)
  const crypto = isCrypto(pendingSession(cart)?.provider_id) ? cryptoSessionOf(cart.payment_collection) : undefined
  const payFirst = crypto?.placeOrder === "after_payment"
  const [paying, setPaying] = useState(false)
  const completing = useRef(false)
  /** The verdict the cart was last completed on: one try per verdict, not one per status read. */
  const triedOn = useRef<string>()

  const complete = async () => {
    const result = await sdk.store.cart.complete(cart.id)
    if (result.type !== "order") throw new Error(result.error.message)
    setCart(undefined)
    navigate(`/order/${result.order.id}`)
  }

  // in a currency the crypto service does not take: the amount and what it comes to in USD, at which rate
  const exchange = crypto && <CryptoExchange session={crypto} locale={locale} />

  if (payFirst && paying && crypto) {
    return (
      <div className="form">
        {exchange}
        <p className="muted">Your order is placed as soon as the payment is confirmed on chain.</p>
        <CryptoPaymentBox
          key={crypto.paymentId}
          sdk={sdk}
          session={crypto}
          intervalMs={2_000}
          locale={locale}
          startAgainLabel={labels.startNewPayment}
          onStartAgain={() =>
            run(async () => {
              await startCryptoPayment(sdk, cart, crypto.currency)
              await reload()
            })
          }
          onStatus={(view) => {
            // the service's COMPLETED alone is not paid: complete the cart once the shop accepted the payment
            // or has yet to apply it; the backend checks it again (never on "needs attention")
            const verdict = cryptoPaymentVerdict(view)
            if (!readyToCompleteCart(view) || completing.current || triedOn.current === verdict) return
            completing.current = true
            triedOn.current = verdict
            void run(complete).finally(() => (completing.current = false))
          }}
        />
        <SandboxNote />
      </div>
    )
  }
  return (
    <div className="form">
      {exchange}
      <p className="muted">
        By clicking the button, you confirm that you have read and accept our Terms of Use, Terms of Sale and Returns
        Policy.
      </p>
      <button
        className="button"
        data-testid="place-order"
        disabled={busy}
        onClick={() => (payFirst ? setPaying(true) : run(complete))}
      >
        {payFirst ? labels.payWithCrypto : "Place order"}
      </button>
    </div>
  )
}
