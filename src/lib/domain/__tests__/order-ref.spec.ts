import { parseOrderRef } from "../order-ref"

describe("an order named in a filter", () => {
  it.each([
    ["order_01JDX4K2M9ABCDEF", { orderId: "order_01JDX4K2M9ABCDEF" }],
    [" order_01JDX4K2M9ABCDEF ", { orderId: "order_01JDX4K2M9ABCDEF" }],
    ["1042", { displayId: 1042 }],
    ["#1042", { displayId: 1042 }],
    ["2147483647", { displayId: 2147483647 }],
  ])("takes %j as %j", (text, ref) => {
    expect(parseOrderRef(text)).toEqual(ref)
  })

  it.each([["0"], ["-3"], ["2147483648"], ["12.5"], ["#"], ["order_"], ["order_1'--"], ["cart_01"], [""]])(
    "refuses %j",
    (text) => {
      expect(parseOrderRef(text)).toBeUndefined()
    }
  )
})
