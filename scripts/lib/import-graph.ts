/**
 * The plugin's own import graph, read with TypeScript's parser: which of our files a path of code can reach
 * at run time (type-only imports left out: they hand nothing over), the hand-offs between layers on the
 * way, and the longest files and functions. For scripts/architecture-figures.ts (issue 34's before/after).
 */
import fs from "node:fs"
import path from "node:path"
import ts from "typescript"

/** The layer a source file belongs to: its first folder under src (api, lib, providers, modules, workflows …). */
export function layerOf(root: string, file: string): string {
  const [first, second] = path.relative(path.join(root, "src"), file).split(path.sep)
  return second === undefined ? "src" : first
}

/** The relative specifiers a file imports (or re-exports) for their values, not for types only. */
export function runtimeImports(text: string, fileName = "file.ts"): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TSX)
  const found: string[] = []
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause
      const typeOnly =
        !!clause &&
        (clause.isTypeOnly ||
          (!clause.name &&
            !!clause.namedBindings &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.length > 0 &&
            clause.namedBindings.elements.every((e) => e.isTypeOnly)))
      if (!typeOnly && ts.isStringLiteral(statement.moduleSpecifier)) found.push(statement.moduleSpecifier.text)
    } else if (ts.isExportDeclaration(statement) && !statement.isTypeOnly && statement.moduleSpecifier) {
      if (ts.isStringLiteral(statement.moduleSpecifier)) found.push(statement.moduleSpecifier.text)
    }
  }
  return found.filter((specifier) => specifier.startsWith("."))
}

/** A relative specifier as the file it names (.ts, .tsx, or the folder's index), or undefined. */
export function resolveImport(from: string, specifier: string): string | undefined {
  const base = path.resolve(path.dirname(from), specifier)
  const candidates = [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts"), path.join(base, "index.tsx")]
  return candidates.find((candidate) => fs.existsSync(candidate) && fs.statSync(candidate).isFile())
}

export type PathFigures = {
  /** Our files the entries reach at run time, entries included. */
  files: string[]
  /** Import edges between two files of different layers. */
  handOffs: number
  /** The layers visited, in the order first met. */
  layers: string[]
}

/** What the code reachable from `entries` amounts to. */
export function pathFigures(root: string, entries: string[], read = (f: string) => fs.readFileSync(f, "utf8")) {
  const seen = new Set<string>()
  const layers: string[] = []
  let handOffs = 0
  const queue = entries.map((entry) => path.resolve(root, entry))
  while (queue.length) {
    const file = queue.shift()!
    if (seen.has(file)) continue
    seen.add(file)
    const layer = layerOf(root, file)
    if (!layers.includes(layer)) layers.push(layer)
    for (const specifier of runtimeImports(read(file), file)) {
      const target = resolveImport(file, specifier)
      if (!target) continue
      if (layerOf(root, target) !== layer) handOffs++
      if (!seen.has(target)) queue.push(target)
    }
  }
  return { files: [...seen].map((f) => path.relative(root, f)).sort(), handOffs, layers } satisfies PathFigures
}

/** The longest function-like declaration of a file: its name and line count. */
export function longestFunction(text: string, fileName = "file.ts"): { name: string; lines: number } | undefined {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX)
  let best: { name: string; lines: number } | undefined
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line
      const named = (node as { name?: ts.Node }).name
      const parent = node.parent
      const name = named
        ? named.getText(source)
        : parent && ts.isVariableDeclaration(parent)
          ? parent.name.getText(source)
          : parent && ts.isCallExpression(parent)
            ? calledWith(parent, source)
            : "(anonymous)"
      if (!best || end - start + 1 > best.lines) best = { name, lines: end - start + 1 }
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return best
}

/** A function passed to a call, named by the call: `createStep("record-crypto-payment", …)` → that name. */
function calledWith(call: ts.CallExpression, source: ts.SourceFile): string {
  const label = call.arguments.find(ts.isStringLiteral)
  return `${call.expression.getText(source)}(${label ? JSON.stringify(label.text) : "…"})`
}
