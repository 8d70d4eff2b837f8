import type { HttpTypes } from "@medusajs/types"
import { useEffect, useState } from "react"
import { messageOf, money } from "./medusa"
import { navigate, useShop } from "./shop-context"

/** The store front: every product of the sales channel with its price in the region. */
export function ShopPage() {
  const { sdk, region, addToCart } = useShop()
  const [products, setProducts] = useState<HttpTypes.StoreProduct[]>()
  const [busy, setBusy] = useState<string>()
  const [error, setError] = useState<string>()

  useEffect(() => {
    sdk.store.product.list({ region_id: region.id, fields: "*variants.calculated_price" }).then(
      ({ products }) => setProducts(products),
      (e) => setError(messageOf(e))
    )
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
