import fs from "node:fs"
import path from "node:path"

const LIB = path.resolve(__dirname, "..")
const ABOVE = ["modules", "providers", "workflows", "api", "jobs", "subscribers", "admin"].map((dir) =>
  path.resolve(LIB, "..", dir)
)

/** Every non-test source file of src/lib. */
function libFiles(dir = LIB): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === "__tests__" ? [] : libFiles(full)
    return /\.tsx?$/.test(entry.name) ? [full] : []
  })
}

/** The relative specifiers a file imports or re-exports, type-only ones included. */
function specifiers(text: string): string[] {
  return [
    ...text.matchAll(/(?:import|export)\s[^;]*?from\s+["'](\.[^"']+)["']|import\(\s*["'](\.[^"']+)["']\s*\)/g),
  ].map((m) => m[1] ?? m[2])
}

describe("src/lib's layering", () => {
  it("finds the files it checks", () => {
    expect(libFiles().length).toBeGreaterThan(30)
    expect(specifiers('import type { A } from "../b"\nexport { C } from "./c"')).toEqual(["../b", "./c"])
  })

  it("imports nothing from the layers that use it (modules, providers, workflows, api …), not even types", () => {
    const upward = libFiles().flatMap((file) =>
      specifiers(fs.readFileSync(file, "utf8"))
        .map((specifier) => path.resolve(path.dirname(file), specifier))
        .filter((target) => ABOVE.some((dir) => target === dir || target.startsWith(dir + path.sep)))
        .map((target) => `${path.relative(LIB, file)} → ${path.relative(LIB, target)}`)
    )
    expect(upward).toEqual([])
  })
})
