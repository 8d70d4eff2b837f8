"use strict"
/** The commit a measured document was made at, and whether the tree had changes beside it. */
const { execFileSync } = require("node:child_process")
const path = require("node:path")

function commitStamp() {
  const root = path.join(__dirname, "..", "..")
  try {
    const git = (...args) => execFileSync("git", args, { cwd: root, encoding: "utf8" }).trim()
    // the measured documents themselves are being rewritten: they don't make the code "changed"
    const dirty =
      git("status", "--porcelain", "--untracked-files=no", "--", ".", ":!RELIABILITY.md", ":!BENCHMARKS.md") !== ""
    return `${git("rev-parse", "--short", "HEAD")}${dirty ? " with uncommitted changes" : ""}`
  } catch {
    return "unknown (not a git checkout)"
  }
}

module.exports = { commitStamp }
