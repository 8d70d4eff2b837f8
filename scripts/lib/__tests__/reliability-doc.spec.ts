import fs from "node:fs"
import os from "node:os"
import path from "node:path"
const { withRow, soakRows, ordered, SOAK_NOTE } = require("../reliability-doc")

const file = [
  "# Reliability",
  "",
  "Written by `npm run test:reliability`; do not edit by hand.",
  "",
  "- Run: today",
  "- Medusa: the development store",
  "",
  "| | what | count | result | time |",
  "|---|---|---|---|---|",
  "| R1 | forged input | 1 | ok | 1.0 s |",
  "| R7 | secrets | 1 | ok | 0.1 s |",
  "",
  "",
].join("\n")

const soak = (locking: string, result: string) => `| R10 | soak, 60 min, ${locking} locking | 9 | ${result} | 3600 s |`
const replaces = (locking: string) => (line: string) => line.startsWith(`| R10 | soak, 60 min, ${locking} locking`)

describe("RELIABILITY.md's rows", () => {
  it("adds the soak's row after R7, and its note to the header", () => {
    const text = withRow(file, soak("Postgres", "a"), replaces("Postgres"))
    const lines = text.split("\n")
    expect(lines.filter((l: string) => l.startsWith("| R"))).toEqual([
      "| R1 | forged input | 1 | ok | 1.0 s |",
      "| R7 | secrets | 1 | ok | 0.1 s |",
      soak("Postgres", "a"),
    ])
    expect(lines[lines.indexOf("- Medusa: the development store") + 1]).toBe(SOAK_NOTE)
    expect(text.endsWith("3600 s |\n\n")).toBe(true)
  })

  it("replaces the row of the same locking, keeps the other's, and adds the note once", () => {
    let text = withRow(file, soak("Postgres", "a"), replaces("Postgres"))
    text = withRow(text, soak("Redis", "b"), replaces("Redis"))
    text = withRow(text, soak("Postgres", "c"), replaces("Postgres"))
    expect(text.split("\n").filter((l: string) => l.startsWith("| R10"))).toEqual([
      soak("Redis", "b"),
      soak("Postgres", "c"),
    ])
    expect(text.split("\n").filter((l: string) => l === SOAK_NOTE)).toHaveLength(1)
  })

  it("orders rows by their number", () => {
    expect(ordered(["| R10 | a", "| R2 | b", "| R1 | c"])).toEqual(["| R1 | c", "| R2 | b", "| R10 | a"])
  })

  it("keeps the kill's rows (R11) beside the soak's, each per locking, through the suite's rewrite", () => {
    const kill = (locking: string, result: string) =>
      `| R11 | kill -9 mid-capture, ${locking} locking | 3 | ${result} | 50 s |`
    let text = withRow(file, soak("Postgres", "a"), replaces("Postgres"))
    text = withRow(text, kill("Postgres", "b"), (line: string) =>
      line.startsWith("| R11 | kill -9 mid-capture, Postgres")
    )
    text = withRow(text, kill("Redis", "c"), (line: string) => line.startsWith("| R11 | kill -9 mid-capture, Redis"))
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reliability-doc-"))
    fs.writeFileSync(path.join(dir, "RELIABILITY.md"), text)
    // what the suite carries over when it writes the file whole
    expect(soakRows(path.join(dir, "RELIABILITY.md"))).toEqual([
      soak("Postgres", "a"),
      kill("Postgres", "b"),
      kill("Redis", "c"),
    ])
  })

  it("brings an older note on the soak up to date instead of adding a second one", () => {
    const old = file.replace("- Medusa: the development store", "- Medusa: the development store\n- R10: an older note")
    const text = withRow(old, soak("Postgres", "a"), replaces("Postgres"))
    expect(text.split("\n").filter((l: string) => l.startsWith("- R10:"))).toEqual([SOAK_NOTE])
  })

  it("finds no soak rows in a file that does not exist", () => {
    expect(soakRows("/nonexistent/RELIABILITY.md")).toEqual([])
  })
})
