import type { HttpTypes } from "@medusajs/types"
import { useEffect, useState } from "react"
import { messageOf, money } from "./medusa"
import { navigate, useShop } from "./shop-context"

/** The store front: every product of the sales channel with its price in the region (the region switch's). */
export function ShopPage() {
  const { sdk, region, addToCart } = useShop()
  // the products with the region they were priced in: after a switch, no old amount shows in the new currency
  const [listed, setListed] = useState<{ regionId: string; products: HttpTypes.StoreProduct[] }>()
  const products = listed?.regionId === region.id ? listed.products : undefined
  const [busy, setBusy] = useState<string>()
  const [error, setError] = useState<string>()

  useEffect(() => {
    let current = true
    setError(undefined)
    sdk.store.product.list({ region_id: region.id, fields: "*variants.calculated_price" }).then(
      ({ products }) => current && setListed({ regionId: region.id, products }),
      (e) => current && setError(messageOf(e))
    )
    return () => {
      current = false
    }
  }, [sdk, region.id])

  const add = async (variantId: string) => {
    setBusy(variantId)
    setError(undefined)
    try {
      await addToCart(variantId)
      navigate("/cart")
    } catch (e) {
      setError(messageOf(e))
    } finally {
      setBusy(undefined)
    }
  }

  return (
    <>
      <h1 className="title">All products</h1>
      {error && <p className="error">{error}</p>}
      {!products && !error && <p className="muted">Loading products…</p>}
      <ul className="grid">
        {products?.map((product) => {
          const variant = product.variants?.[0]
          const price = variant?.calculated_price?.calculated_amount
          return (
            <li key={product.id} className="card" data-testid="product">
              <div className="card__thumb" aria-hidden="true">
                {product.title.slice(0, 1)}
              </div>
              <div className="card__body">
                <h2>{product.title}</h2>
                <p className="muted">{product.description}</p>
                <p className="price">{money(price, region.currency_code)}</p>
                <button className="button" disabled={!variant || busy !== undefined} onClick={() => add(variant!.id)}>
                  {busy === variant?.id ? "Adding…" : "Add to cart"}
                </button>
              </div>
            </li>
          )
        })}
      </ul>
    </>
  )
}
