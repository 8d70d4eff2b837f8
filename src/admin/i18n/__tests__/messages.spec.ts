import fs from "node:fs"
import path from "node:path"
import resources from ".."
import { I18N_NAMESPACE } from "../namespace"
import { LANGUAGES, leaves, MESSAGES, variablesOf } from "./messages"

const ADMIN = path.resolve(__dirname, "..", "..")
const english = new Map(leaves(MESSAGES.en))

/** The admin's own code (no tests, no texts), as text. */
function sources(dir = ADMIN): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === "__tests__" || entry.name === "json" ? [] : sources(file)
    return /\.tsx?$/.test(entry.name) ? [fs.readFileSync(file, "utf8")] : []
  })
}

describe("the plugin's admin texts", () => {
  it.each(LANGUAGES.filter((language) => language !== "en"))(
    "has every English key in %s, and no other",
    (language) => {
      const keys = leaves(MESSAGES[language]).map(([key]) => key)
      expect(keys.sort()).toEqual([...english.keys()].sort())
    }
  )

  it.each(LANGUAGES)("has no empty text in %s", (language) => {
    const empty = leaves(MESSAGES[language]).filter(([, text]) => !text.trim())
    expect(empty).toEqual([])
  })

  it.each(LANGUAGES.filter((language) => language !== "en"))(
    "interpolates the same {{values}} as English in %s",
    (language) => {
      const differing = leaves(MESSAGES[language])
        .filter(([key, text]) => variablesOf(text).join() !== variablesOf(english.get(key) ?? "").join())
        .map(([key, text]) => `${key}: ${text}`)
      expect(differing).toEqual([])
    }
  )

  it.each(LANGUAGES.filter((language) => language !== "en"))("is translated in %s, not copied", (language) => {
    const same = leaves(MESSAGES[language]).filter(([key, text]) => text === english.get(key))
    // a few words are the same in both ("Status", "Webhooks", "{{hours}} h {{minutes}} min")
    expect(same.length).toBeLessThan(english.size / 10)
  })

  it("reaches the dashboard in the plugin's own namespace, one per language", () => {
    expect(Object.keys(resources).sort()).toEqual([...LANGUAGES].sort())
    for (const language of LANGUAGES) {
      expect(resources[language]).toEqual({ [I18N_NAMESPACE]: MESSAGES[language] })
    }
  })

  it("names the Crypto payments route by a key of that namespace, as a literal the build can read", () => {
    const page = fs.readFileSync(path.join(ADMIN, "routes", "crypto-payments", "page.tsx"), "utf8")
    const config = /defineRouteConfig\(\{([^}]*)\}\)/.exec(page)?.[1] ?? ""
    expect(config).toContain(`translationNs: "${I18N_NAMESPACE}"`)
    const label = /label: "([^"]+)"/.exec(config)?.[1]
    expect(label && english.get(label)).toBe("Crypto payments")
  })

  it("uses every key: by its name, or by its group in a template (`flags.${flag}`)", () => {
    const code = sources().join("\n")
    const used = (key: string) => {
      if (code.includes(`"${key}"`)) return true
      const parts = key.split(".")
      return parts.slice(1).some((_, i) => code.includes(`\`${parts.slice(0, i + 1).join(".")}.\${`))
    }
    expect([...english.keys()].filter((key) => !used(key))).toEqual([])
  })
})
