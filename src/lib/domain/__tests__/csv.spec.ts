import { CRLF, csvCell, csvHeader, csvLine, csvRecord, csvRecords, CsvColumn, UTF8_BOM } from "../csv"

describe("a CSV cell (RFC 4180)", () => {
  it.each([
    ["plain text as it is", "pay_123", "pay_123"],
    ["a comma quoted", "a,b", '"a,b"'],
    ["quotes doubled inside quotes", 'say "hi"', '"say ""hi"""'],
    ["a line feed quoted", "line 1\nline 2", '"line 1\nline 2"'],
    ["a CR LF quoted", "line 1\r\nline 2", '"line 1\r\nline 2"'],
    ["a lone CR quoted", "a\rb", '"a\rb"'],
    ["unicode kept as it is", "Überweisung № 5 — 東京 ✓", "Überweisung № 5 — 東京 ✓"],
    ["an emoji kept as it is", "paid 👍", "paid 👍"],
    ["spaces kept, unquoted", "  padded  ", "  padded  "],
    ["an empty string empty", "", ""],
  ])("writes %s", (_, value, cell) => {
    expect(csvCell(value)).toBe(cell)
  })

  it.each([
    ["null", null],
    ["undefined", undefined],
  ])("writes %s as an empty cell", (_, value) => {
    expect(csvCell(value)).toBe("")
  })

  it.each([
    ["0.00038462", "0.00038462"],
    ["25.00", "25.00"],
    [3, "3"],
    [0, "0"],
  ])("writes the number %p as it is", (value, cell) => {
    expect(csvCell(value)).toBe(cell)
  })
})

describe("a CSV cell against formula injection (OWASP)", () => {
  it.each([
    ["=cmd|' /C calc'!A0", "'=cmd|' /C calc'!A0"],
    ["=1+1", "'=1+1"],
    ["+SUM(A1:A9)", "'+SUM(A1:A9)"],
    ["-2+3", "'-2+3"],
    ["@SUM(A1)", "'@SUM(A1)"],
    ["\t=1", "'\t=1"],
    ["-", "'-"],
    ["+5", "'+5"],
  ])("makes %p text with a leading quote", (value, cell) => {
    expect(csvCell(value)).toBe(cell)
  })

  it.each([
    ["\uFF1D1+1", "'\uFF1D1+1"],
    ["\uFF0BSUM(A1)", "'\uFF0BSUM(A1)"],
    ["\uFF0D2+3", "'\uFF0D2+3"],
    ["\uFF20SUM(A1)", "'\uFF20SUM(A1)"],
    ["\u0000=1+1", "'\u0000=1+1"],
    [" =1+1", "' =1+1"],
  ])("6. makes %p text too: a fullwidth sign, or one after a NUL or a space a spreadsheet strips", (value, cell) => {
    expect(csvCell(value)).toBe(cell)
  })

  it("6. guards a formula after a leading line feed (then quoted)", () => {
    expect(csvCell("\n=1")).toBe(`"'\n=1"`)
  })

  it("guards, then quotes, a formula that also holds a comma or a quote", () => {
    expect(csvCell('=HYPERLINK("http://x.test?a=1,2")')).toBe(`"'=HYPERLINK(""http://x.test?a=1,2"")"`)
    expect(csvCell("\r=1")).toBe(`"'\r=1"`)
  })

  it.each([
    ["-0.5", "-0.5"],
    ["-12", "-12"],
    [-3, "-3"],
  ])("keeps the plain negative number %p numeric", (value, cell) => {
    expect(csvCell(value)).toBe(cell)
  })

  it("leaves a formula sign that is not first alone", () => {
    expect(csvCell("a=b")).toBe("a=b")
    expect(csvCell("pay-1")).toBe("pay-1")
    expect(csvCell("user@example.com")).toBe("user@example.com")
  })
})

describe("CSV lines", () => {
  it("separates fields with commas and ends every line with CRLF", () => {
    expect(csvLine(["a", "b,c", null, 2])).toBe('a,"b,c",,2\r\n')
    expect(CRLF).toBe("\r\n")
  })

  it("writes an empty last field as a trailing comma", () => {
    expect(csvLine(["a", null])).toBe("a,\r\n")
  })

  type Item = { name: string; price: string | null }
  const columns: CsvColumn<Item>[] = [
    { header: "name", cell: (r) => r.name },
    { header: "price", cell: (r) => r.price },
  ]

  it("writes a header and records through column definitions", () => {
    expect(csvHeader(columns)).toBe("name,price\r\n")
    expect(csvRecord(columns, { name: 'Tea "green", 1kg', price: "9.50" })).toBe('"Tea ""green"", 1kg",9.50\r\n')
    expect(
      csvRecords(columns, [
        { name: "a", price: null },
        { name: "=b", price: "1" },
      ])
    ).toBe("a,\r\n'=b,1\r\n")
    expect(csvRecords(columns, [])).toBe("")
  })

  it("has a UTF-8 byte order mark that encodes as EF BB BF", () => {
    expect([...Buffer.from(UTF8_BOM, "utf8")]).toEqual([0xef, 0xbb, 0xbf])
  })
})
