"use strict"
/**
 * RELIABILITY.md's table has two writers: `npm run test:reliability` writes the file whole from the
 * suite's figures (R1–R7, R14–R16), and `npm run soak -- --minutes 60` writes its own rows (R10 the soak,
 * R11 its kill -9, one each per locking provider). Each keeps the other's rows: the suite carries R10 and
 * R11 over, the soak replaces its rows only.
 */
const fs = require("node:fs")

/** Rows the suite does not write, carried over when it rewrites the file: the soak's (R10) and its kill's (R11). */
const SOAK_ROW = /^\| R1[01] \|/

/** The header's note on R10 (scripts/reliability.js writes it; the soak adds it to a file written before it). */
const SOAK_NOTE =
  "- R10: `npm run soak -- --minutes 60` (scripts/soak.ts), one `medusa develop` for an hour under steady checkouts with a `kill -9` in the middle, per locking provider; R11: that kill's victims, from the restart to captured (`--record-kill` writes it alone); kept when the suite rewrites this file"

/** A row's number (R10 → 10), for ordering: R10 comes after R7, not after R1. */
const rowNumber = (line) => Number(/^\| R(\d+)/.exec(line)?.[1] ?? Infinity)

/** The table's rows of a RELIABILITY.md text. */
function tableRows(text) {
  return text.split("\n").filter((line) => /^\| R\d+ \|/.test(line))
}

/** The soak's rows of the file as it is now (none when it does not exist). */
function soakRows(file) {
  if (!fs.existsSync(file)) return []
  return tableRows(fs.readFileSync(file, "utf8")).filter((line) => SOAK_ROW.test(line))
}

/** Rows in their numbers' order (stable for rows of one number). */
function ordered(rows) {
  return rows
    .map((line, i) => ({ line, i }))
    .sort((a, b) => rowNumber(a.line) - rowNumber(b.line) || a.i - b.i)
    .map(({ line }) => line)
}

/**
 * The text with `row` in its table: it replaces the rows `replaces` accepts, the others stay, in their
 * numbers' order; the header gets the soak's note when it lacks it.
 */
function withRow(text, row, replaces) {
  const lines = text.split("\n")
  const first = lines.findIndex((line) => /^\| R\d+ \|/.test(line))
  const header = first === -1 ? text.trimEnd().split("\n") : lines.slice(0, first)
  const after = first === -1 ? [] : lines.slice(first).filter((line) => !/^\| R\d+ \|/.test(line))
  const note = header.findIndex((line) => line.startsWith("- R10:"))
  if (note !== -1) header[note] = SOAK_NOTE
  else {
    const lastNote = header.map((line) => line.startsWith("- ")).lastIndexOf(true)
    header.splice(lastNote === -1 ? header.length : lastNote + 1, 0, SOAK_NOTE)
  }
  if (first === -1) header.push("", "| | what | count | result | time |", "|---|---|---|---|---|")
  const rows = ordered([...tableRows(text).filter((line) => !replaces(line)), row])
  return [...header, ...rows, ...(after.length ? after : ["", ""])].join("\n")
}

module.exports = { SOAK_NOTE, soakRows, ordered, withRow, tableRows }
