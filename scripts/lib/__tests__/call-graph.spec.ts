import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { callPathFigures, projectProgram } from "../call-graph"

describe("the calls one path runs through", () => {
  let root: string
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true })
    fs.writeFileSync(path.join(root, file), text)
  }

  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "calls-"))
    write(
      "tsconfig.json",
      JSON.stringify({ compilerOptions: { strict: true, target: "es2022", module: "commonjs" }, include: ["src"] })
    )
    write(
      "src/api/route.ts",
      [
        'import { Judge } from "../providers/judge"',
        'import { record } from "../workflows/record"',
        'import type { Row } from "../modules/types"',
        "export function POST(judge: Pick<Judge, 'report'>, row: Row) {",
        "  const local = () => row.status",
        "  return record(judge.report(row), local())",
        "}",
      ].join("\n")
    )
    write(
      "src/providers/judge.ts",
      [
        'import { assess } from "../lib/assess"',
        'import { create } from "../lib/create"',
        "export class Judge {",
        `  handlers = { report: (x: number) => assess(x), create: () => create() /* ${"wide ".repeat(60)} */ }`,
        "  report(row: { amount: number }) { return this.handlers.report(row.amount) }",
        "  create() { return create() }",
        "}",
      ].join("\n")
    )
    write("src/lib/assess.ts", "export const assess = (x: number) => x > 1\n")
    write("src/lib/create.ts", "export function create() { return 1 }\n")
    // offsets that fall inside Judge.handlers' in its own file
    write(
      "src/workflows/record.ts",
      `export const pad = "${"x".repeat(120)}"\nexport function record(paid: boolean, status: string) { return { paid, status } }\n`
    )
    write("src/modules/types.ts", "export type Row = { status: string; amount: number }\n")
  })

  afterAll(() => fs.rmSync(root, { recursive: true, force: true }))

  it("follows what the bodies call, through Pick<> types and called handlers, never types or field reads", () => {
    const figures = callPathFigures(projectProgram(root, "tsconfig.json"), root, ["src/api/route.ts#POST"])
    expect(figures.files).toEqual([
      "src/api/route.ts",
      "src/lib/assess.ts",
      "src/providers/judge.ts",
      "src/workflows/record.ts",
    ])
    // the class's other method and the other handler run nothing here; the row type hands nothing over
    expect(figures.declarations).not.toContain("src/providers/judge.ts#Judge.create")
    expect(figures.declarations).toContain("src/providers/judge.ts#Judge.handlers.report")
    // api → providers, api → workflows, providers → lib
    expect(figures.handOffs).toBe(3)
    expect(figures.layers).toEqual(["api", "workflows", "providers", "lib"])
  })

  it("does not open a stopped declaration, and refuses an entry that does not exist", () => {
    const program = projectProgram(root, "tsconfig.json")
    const figures = callPathFigures(program, root, ["src/api/route.ts#POST"], ["src/providers/judge.ts#Judge.handlers"])
    expect(figures.files).not.toContain("src/lib/assess.ts")
    // a stop hides what is inside it, in its own file only (the record function sits at the same offsets)
    expect(figures.files).toContain("src/workflows/record.ts")
    expect(() => callPathFigures(program, root, ["src/api/route.ts#GET"])).toThrow(
      "no declaration src/api/route.ts#GET"
    )
  })
})
