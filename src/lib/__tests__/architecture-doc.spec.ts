import fs from "node:fs"
import path from "node:path"
import ts from "typescript"
import { CRYPTO_PAYMENT_EVENT_NAMES } from "../domain/payment-events"

/**
 * docs/architecture.md against the code: the files it cites exist, it names every route the plugin
 * serves and every crypto_payment.* event (and none that does not exist), and its table of the core's
 * methods is PaymentCore's public methods. Each failure lists what is missing, with the page's line.
 */

const ROOT = path.resolve(__dirname, "../../..")
const SRC = path.join(ROOT, "src")
const API = path.join(SRC, "api")
const PAGE_FILE = path.join(ROOT, "docs/architecture.md")
const PAYMENT_CORE = path.join(SRC, "modules/crypto-payment/core/payment-core.ts")

const PAGE = fs.readFileSync(PAGE_FILE, "utf8")
const LINES = PAGE.split("\n")

/** Folders never searched for a file the page names. */
const SKIPPED = new Set(["node_modules", ".git", ".medusa", "dist", ".cache"])

/** Every file of the repository (relative, with "/"), for the bare names the page cites ("cores.ts"). */
function repoFiles(dir = ROOT): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIPPED.has(entry.name)) return []
    const full = path.join(dir, entry.name)
    return entry.isDirectory() ? repoFiles(full) : [path.relative(ROOT, full).split(path.sep).join("/")]
  })
}

/** A segment of a cited path as a regular expression: `*` any name, everything else literal (`[token]` is a folder). */
function segmentPattern(segment: string): RegExp {
  return new RegExp(`^${segment.split("*").map(escapeRegExp).join("[^/]*")}$`)
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
}

/** The paths under `base` a cited path matches: `*` within a segment, `**` any depth; a trailing "/" wants a folder. */
function matches(base: string, cited: string): string[] {
  const wantsDir = cited.endsWith("/")
  const segments = cited.split("/").filter(Boolean)
  const walk = (dir: string, rest: string[]): string[] => {
    if (rest.length === 0) return [dir]
    if (!isDir(dir)) return []
    const [head, ...tail] = rest
    if (head === "**")
      return [
        ...walk(dir, tail),
        ...subdirs(dir)
          .filter((name) => !SKIPPED.has(name))
          .flatMap((name) => walk(path.join(dir, name), rest)),
      ]
    if (!head.includes("*")) {
      const next = path.join(dir, head)
      return fs.existsSync(next) ? walk(next, tail) : []
    }
    const pattern = segmentPattern(head)
    return fs
      .readdirSync(dir)
      .filter((name) => pattern.test(name))
      .flatMap((name) => walk(path.join(dir, name), tail))
  }
  return walk(base, segments).filter((found) => !wantsDir || isDir(found))
}

function isDir(file: string): boolean {
  return fs.existsSync(file) && fs.statSync(file).isDirectory()
}

function subdirs(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
}

type Cited = { text: string; line: number }

const FILE_NAME = /\.(?:tsx?|jsx?|mjs|cjs|json|md|css|sql)$/

/**
 * The repository paths the page cites, in prose, code spans and the diagram alike: a word with a "/" (not
 * a route or URL: those start with "/" or a placeholder, or have a ":"), and bare file names ("cores.ts").
 */
function citedPaths(): { paths: Cited[]; names: Cited[] } {
  const paths: Cited[] = []
  const names: Cited[] = []
  LINES.forEach((text, index) => {
    for (const match of text.matchAll(/[^\s`'"(),]+/g)) {
      const word = match[0].replace(/[.,:;]+$/, "")
      if (!/^[\w.\-[\]*/]+$/.test(word) || word.startsWith("/")) continue
      if (word.includes("/")) paths.push({ text: word, line: index + 1 })
      else if (FILE_NAME.test(word)) names.push({ text: word, line: index + 1 })
    }
  })
  return { paths, names }
}

/**
 * Where a cited path may be read from: the repository root, or src/ (the page's diagram and its src/lib
 * list are relative to src/); "./" and "../" as a link from docs/.
 */
function resolves(cited: string): boolean {
  if (cited.startsWith("./") || cited.startsWith("../")) return matches(path.dirname(PAGE_FILE), cited).length > 0
  return matches(ROOT, cited).length > 0 || matches(SRC, cited).length > 0
}

/** The routes the plugin serves: each src/api/**\/route.ts, its folder as the path, `[param]` as `:param`. */
function servedRoutes(dir = API): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === "__tests__" ? [] : servedRoutes(full)
    if (!/^route\.[jt]s$/.test(entry.name)) return []
    const folder = path.relative(API, dir).split(path.sep)
    return ["/" + folder.map((segment) => segment.replace(/^\[(\w+)\]$/, ":$1")).join("/")]
  })
}

/**
 * The routes of the plugin's namespaces the page names (`/store/crypto/payments/:paymentId`,
 * `{backendUrl}/hooks/crypto/{token}`), `{param}`, `<param>` and `[param]` read as `:param`. A path inside a
 * file path (`src/api/store/crypto/…`) is the file's.
 */
function namedRoutes(prefixes: string[]): Cited[] {
  const route = new RegExp(
    `(?<![\\w.\\]\\-/])(?:${prefixes.map(escapeRegExp).join("|")})(?:/(?:[\\w-]+|:\\w+|\\{\\w+\\}|<\\w+>|\\[\\w+\\]))*`,
    "g"
  )
  return LINES.flatMap((text, index) =>
    [...text.matchAll(route)].map((match) => ({
      text: match[0].replace(/\{(\w+)\}|<(\w+)>|\[(\w+)\]/g, (_all, a, b, c) => `:${a ?? b ?? c}`),
      line: index + 1,
    }))
  )
}

/** PaymentCore's public methods (not the constructor, not its private helpers, not its fields). */
function coreMethods(): string[] {
  const source = ts.createSourceFile(PAYMENT_CORE, fs.readFileSync(PAYMENT_CORE, "utf8"), ts.ScriptTarget.Latest)
  const core = source.statements.find(
    (node): node is ts.ClassDeclaration => ts.isClassDeclaration(node) && node.name?.text === "PaymentCore"
  )
  if (!core) throw new Error(`no class PaymentCore in ${path.relative(ROOT, PAYMENT_CORE)}`)
  return core.members
    .filter((member): member is ts.MethodDeclaration => ts.isMethodDeclaration(member))
    .filter(
      (method) =>
        !ts
          .getModifiers(method)
          ?.some((m) => m.kind === ts.SyntaxKind.PrivateKeyword || m.kind === ts.SyntaxKind.ProtectedKeyword) &&
        !ts.isPrivateIdentifier(method.name)
    )
    .map((method) => method.name.getText(source))
}

/** The methods the table of section 2 ("method of `PaymentCore`") names in its first column, with their line. */
function tabledMethods(): Cited[] {
  const start = LINES.findIndex((line) => /^## \d+\. The core/.test(line))
  if (start < 0) return []
  const end = LINES.findIndex((line, index) => index > start && line.startsWith("## "))
  const section = LINES.slice(start, end < 0 ? undefined : end)
  const header = section.findIndex((line) => /^\|\s*method of `PaymentCore`/.test(line))
  if (header < 0) return []
  const rows: Cited[] = []
  for (let i = header + 2; i < section.length && section[i].startsWith("|"); i++) {
    const firstColumn = section[i].split("|")[1]
    for (const match of firstColumn.matchAll(/`(\w+)\(/g)) rows.push({ text: match[1], line: start + i + 1 })
  }
  return rows
}

const at = ({ text, line }: Cited) => `${text} (docs/architecture.md:${line})`

describe("docs/architecture.md", () => {
  const { paths, names } = citedPaths()
  const routes = servedRoutes()
  const prefixes = [...new Set(routes.map((route) => route.split("/").slice(0, 3).join("/")))]
  const methods = coreMethods()

  it("finds what it checks", () => {
    expect(paths.length).toBeGreaterThan(50)
    expect(names.length).toBeGreaterThan(20)
    expect(routes).toContain("/hooks/crypto/:token")
    expect(routes).toContain("/admin/crypto/payments/:paymentId/owed/:owedId/link/reissue")
    expect([...prefixes].sort()).toEqual(["/admin/crypto", "/hooks/crypto", "/store/crypto"])
    expect(methods).toEqual(expect.arrayContaining(["report", "notified", "hinted"]))
    expect(methods).not.toContain("row")
    expect(tabledMethods().length).toBeGreaterThan(5)
    expect(CRYPTO_PAYMENT_EVENT_NAMES.length).toBeGreaterThan(5)
  })

  it("cites only repository paths that exist (from the root, or from src/; a glob matches at least one)", () => {
    const notInTheRepository = paths.filter((cited) => !resolves(cited.text)).map(at)
    expect({ notInTheRepository }).toEqual({ notInTheRepository: [] })
  })

  it("cites only file names that exist somewhere in the repository", () => {
    const files = new Set(repoFiles().map((file) => path.posix.basename(file)))
    const noFileOfThatName = names.filter((cited) => !files.has(cited.text)).map(at)
    expect({ noFileOfThatName }).toEqual({ noFileOfThatName: [] })
  })

  it("names every route the plugin serves (src/api/**/route.ts)", () => {
    const named = new Set(namedRoutes(prefixes).map((route) => route.text))
    const servedButNotNamedInThePage = routes.filter((route) => !named.has(route))
    expect({ servedButNotNamedInThePage }).toEqual({ servedButNotNamedInThePage: [] })
  })

  it("names no route of the plugin's namespaces that it does not serve", () => {
    const served = new Set(routes)
    const namedButNotServed = namedRoutes(prefixes)
      .filter((route) => !served.has(route.text))
      .map(at)
    expect({ namedButNotServed }).toEqual({ namedButNotServed: [] })
  })

  it("names every crypto_payment.* event of CryptoPaymentEvents, and none that does not exist", () => {
    const named = LINES.flatMap((text, index) =>
      [...text.matchAll(/\bcrypto_payment\.[a-z_]+\b/g)].map((match) => ({ text: match[0], line: index + 1 }))
    )
    const namedNames = new Set(named.map((event) => event.text))
    const known = new Set<string>(CRYPTO_PAYMENT_EVENT_NAMES)
    expect({
      notNamedInThePage: CRYPTO_PAYMENT_EVENT_NAMES.filter((event) => !namedNames.has(event)),
      notInCryptoPaymentEvents: named.filter((event) => !known.has(event.text)).map(at),
    }).toEqual({ notNamedInThePage: [], notInCryptoPaymentEvents: [] })
  })

  it("lists every public method of PaymentCore in its table of the core's methods, and no other", () => {
    const tabled = tabledMethods()
    const tabledNames = new Set(tabled.map((method) => method.text))
    const real = new Set(methods)
    expect({
      notInTheTable: methods.filter((method) => !tabledNames.has(method)),
      notPublicMethodsOfPaymentCore: tabled.filter((method) => !real.has(method.text)).map(at),
    }).toEqual({ notInTheTable: [], notPublicMethodsOfPaymentCore: [] })
  })
})
