import { compareDecimals, subtractDecimals, toSignificant, withPlaces } from "../decimal"

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

describe("amounts at a currency's decimals", () => {
  it.each([
    ["25.5", 2, "25.50"],
    ["25", 2, "25.00"],
    ["25.00", 2, "25.00"],
    ["5000", 0, "5000"],
    ["5000.00", 0, "5000"],
    ["1.5", 3, "1.500"],
    ["-3.2", 2, "-3.20"],
    [42, 2, "42.00"],
  ] as const)("%p at %p decimals is %p", (value, places, text) => {
    expect(withPlaces(value, places)).toBe(text)
  })

  it("keeps a digit that is not a zero rather than round it away", () => {
    expect(withPlaces("5000.5", 0)).toBe("5000.5")
    expect(withPlaces("12.3450", 2)).toBe("12.345")
  })

  it.each([["1e-7"], [""], ["abc"]])("refuses %p", (value) => {
    expect(withPlaces(value, 2)).toBeNull()
  })
})

describe("rates at a few significant digits", () => {
  it.each([
    ["1.0842", 6, "1.0842"],
    ["1.08420000000000000", 6, "1.0842"],
    ["1.25923312883435583", 6, "1.25923"],
    ["0.00670552677577000000", 6, "0.00670553"],
    ["0.00644329896907216495", 5, "0.0064433"],
    ["0.999999999", 3, "1"],
    ["123456.789", 3, "123457"],
    ["1234567", 3, "1234567"],
    ["-1.23456789", 4, "-1.235"],
    ["0", 6, "0"],
  ] as const)("%p at %p digits is %p", (value, digits, text) => {
    expect(toSignificant(value, digits)).toBe(text)
  })

  it("rounds exactly, where a float would not", () => {
    // 1.0000005 is 1.00000049999… as a double
    expect(toSignificant("1.0000005", 7)).toBe("1.000001")
    expect(toSignificant("abc", 6)).toBeNull()
  })
})
