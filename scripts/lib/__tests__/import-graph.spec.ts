import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { layerOf, longestFunction, pathFigures, runtimeImports } from "../import-graph"

describe("the plugin's import graph", () => {
  it("follows imports that carry values, not types, and only our own files", () => {
    const text = [
      'import type { A } from "./types"',
      'import { type B, type C } from "./only-types"',
      'import { D, type E } from "./mixed"',
      'import F from "./default"',
      'import "./side-effect"',
      'export { G } from "./re-export"',
      'export type { H } from "./type-re-export"',
      'import { MedusaError } from "@medusajs/framework/utils"',
    ].join("\n")
    expect(runtimeImports(text)).toEqual(["./mixed", "./default", "./side-effect", "./re-export"])
  })

  it("names a file's layer by its first folder under src", () => {
    expect(layerOf("/repo", "/repo/src/lib/money.ts")).toBe("lib")
    expect(layerOf("/repo", "/repo/src/api/hooks/crypto/[token]/route.ts")).toBe("api")
  })

  it("counts the files a path reaches and the hand-offs between layers", () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "graph-"))
    const write = (file: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true })
      fs.writeFileSync(path.join(root, file), text)
    }
    write("src/api/route.ts", 'import { a } from "../lib/a"\nimport { w } from "../workflows/w"')
    write("src/lib/a.ts", 'import { b } from "./b"\nimport type { T } from "../modules/types"')
    write("src/lib/b.ts", "export const b = 1")
    write("src/workflows/w.ts", 'import { a } from "../lib/a"')
    write("src/modules/types.ts", "export type T = 1")
    const figures = pathFigures(root, ["src/api/route.ts"])
    expect(figures.files).toEqual(["src/api/route.ts", "src/lib/a.ts", "src/lib/b.ts", "src/workflows/w.ts"])
    // api → lib, api → workflows, workflows → lib; lib → lib is no hand-off, the type import none at all
    expect(figures.handOffs).toBe(3)
    expect(figures.layers).toEqual(["api", "lib", "workflows"])
    fs.rmSync(root, { recursive: true, force: true })
  })

  it("finds the longest function and names it, a step's closure by its step", () => {
    const text = [
      "function short() { return 1 }",
      'export const step = createStep("record-crypto-payment", async () => {',
      "  const a = 1",
      "  return a",
      "})",
    ].join("\n")
    expect(longestFunction(text)).toEqual({ name: 'createStep("record-crypto-payment")', lines: 4 })
  })
})
