import fs from "node:fs"
import path from "node:path"
import { untranslatedText } from "./untranslated-text"

const ADMIN = path.resolve(__dirname, "..")

function components(dir = ADMIN): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === "__tests__" ? [] : components(file)
    return entry.name.endsWith(".tsx") ? [file] : []
  })
}

describe("the admin's screens", () => {
  const files = components()

  it("are all read", () => {
    const names = files.map((file) => path.relative(ADMIN, file))
    expect(names).toEqual(
      expect.arrayContaining([
        "widgets/order-crypto-payments.tsx",
        "routes/crypto-payments/page.tsx",
        "components/crypto-payment-card.tsx",
        "components/setup-health.tsx",
      ])
    )
  })

  it.each(files.map((file) => [path.relative(ADMIN, file), file]))("show no untranslated text: %s", (_, file) => {
    expect(untranslatedText(file, fs.readFileSync(file, "utf8"))).toEqual([])
  })
})

describe("the check itself", () => {
  const found = (source: string) => untranslatedText("fixture.tsx", source).map((item) => item.text)

  it("finds text of every kind that reaches the screen without t", () => {
    const source = `
      const A = ({ label = "Default label" }) => (
        <div title="A title" aria-label={\`Row of \${id}\`}>
          Plain text
          {ok ? "Yes" : t("no")}
          {value ?? "nothing"}
          {\`\${n} left\`}
          {[a, "joined"].filter(Boolean).join(" · ")}
          <Input placeholder="Type here" />
          <Select options={[{ value: "a", label: "Option A" }]} />
        </div>
      )
      toast.success("Saved.")
    `
    expect(found(source)).toEqual([
      "Default label",
      "A title",
      "Row of",
      "Plain text",
      "Yes",
      "nothing",
      "left",
      "joined",
      "Type here",
      "Option A",
      "Saved.",
    ])
  })

  it("lets translations, data, symbols, coin names and code through", () => {
    const source = `
      const B = () => (
        <div className="flex gap-x-2" data-testid="crypto-row" title={t("row.title", { id })}>
          — · ? ≈ {amount} / {required ?? "?"}
          {status === "PENDING" ? <Countdown /> : formatDateTime(at, locale)}
          {t("x", { value: "data" })}
          <Copy content={address} />
          BTC
        </div>
      )
      toast.error((error as Error).message)
      export const config = defineRouteConfig({ label: "route.label", translationNs: "ns" })
    `
    expect(found(source)).toEqual([])
  })
})
