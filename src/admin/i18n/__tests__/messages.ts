/** The plugin's texts for the tests, and a `t` over them that behaves as the dashboard's i18next does. */
import type { MessageKey, Translate } from "../../lib/i18n"
import de from "../json/de.json"
import en from "../json/en.json"
import es from "../json/es.json"
import fr from "../json/fr.json"

export const MESSAGES = { en, de, fr, es }
export type Language = keyof typeof MESSAGES
export const LANGUAGES = Object.keys(MESSAGES) as Language[]

type Tree = { [key: string]: string | Tree }

/** Every key with its text, dotted: ["widget.title", "Crypto payments"], … */
export function leaves(tree: Tree, prefix = ""): Array<[string, string]> {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === "string" ? [[`${prefix}${key}`, value] as [string, string]] : leaves(value, `${prefix}${key}.`)
  )
}

/** The `{{name}}`s a text interpolates, sorted and without repeats. */
export const variablesOf = (text: string) =>
  [...new Set([...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]))].sort()

/** `t` in one language: a missing key or a missing value throws, so a test cannot pass on a raw key. */
export function translator(language: Language): Translate {
  const texts = new Map(leaves(MESSAGES[language]))
  return (key: MessageKey, values: Record<string, string | number> = {}) => {
    const text = texts.get(key)
    if (text === undefined) throw new Error(`no text "${key}" in ${language}`)
    return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => {
      if (!(name in values)) throw new Error(`"${key}" in ${language} needs {{${name}}}`)
      return String(values[name])
    })
  }
}
