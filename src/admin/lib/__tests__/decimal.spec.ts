import { compareDecimals, subtractDecimals } from "../decimal"

describe("exact decimal arithmetic in the dashboard", () => {
  it.each([
    ["0.3", "0.1", "0.2"],
    ["0.00038462", "0.0002", "0.00018462"],
    ["0.00050000", "0.0002", "0.0003"],
    ["1", "0.00000001", "0.99999999"],
    ["25", "25.00", "0"],
    ["10", "12.5", "-2.5"],
    ["123456789.123456789012345678", "0.000000000000000001", "123456789.123456789012345677"],
  ])("%s − %s is %s", (a, b, difference) => {
    expect(subtractDecimals(a, b)).toBe(difference)
  })

  it.each([
    [45.5, 0, "45.5"],
    [0.3, 0.1, "0.2"],
    [100, 99.99, "0.01"],
    [1e-7, 0, "0.0000001"],
  ])("reads the numbers the API sends exactly as printed: %s − %s is %s", (a, b, difference) => {
    expect(subtractDecimals(a, b)).toBe(difference)
  })

  it.each([["1e-7"], [""], ["abc"], ["1,5"], ["."], [Number.NaN], [Number.POSITIVE_INFINITY]])(
    "refuses %p rather than guess",
    (value) => {
      expect(subtractDecimals(value, "1")).toBeNull()
      expect(compareDecimals("1", value)).toBeNull()
    }
  )

  it.each([
    ["0.1", "0.10", 0],
    ["0.0001", "0", 1],
    ["-0.5", "0", -1],
    ["2", "10", -1],
    [12.5, "12.49", 1],
  ] as const)("compares %p with %p as %p", (a, b, order) => {
    expect(compareDecimals(a, b)).toBe(order)
  })
})
