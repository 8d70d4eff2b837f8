/**
 * The code one path runs through, from the calls rather than the imports: starting at its entry
 * functions, every function, method, step or workflow a body calls (resolved by TypeScript's checker,
 * through imports, `this.deps.x.y` and `Pick<…>` types) is followed; types hand nothing over and are
 * not. A file is visited when one of its declarations is reached, and a hand-off is a call from one
 * layer's file into another's. The import closure (import-graph.ts) counts every file a path *could*
 * reach — a class's imports for all its methods; this counts the ones its calls reach.
 *
 * Medusa's payment module is not our code: where a path crosses it (the door, the capture's
 * re-entry), the path names the provider functions Medusa calls as entries of their own.
 */
import path from "node:path"
import ts from "typescript"
import { layerOf } from "./import-graph"

/** A declaration by file and dotted name: `src/a.ts#POST`, `src/b.ts#PaymentAssessor.report`. */
export type DeclarationRef = string

export type CallPathFigures = {
  /** Our files holding a reached declaration, sorted. */
  files: string[]
  /** The declarations reached, as `file#name`. */
  declarations: string[]
  /** Distinct (file → file) calls between two layers. */
  handOffs: number
  /** The layers visited, in the order first met. */
  layers: string[]
}

/** A program over the project's typecheck config (one per run: building it is the slow part). */
export function projectProgram(root: string, config = "tsconfig.typecheck.json"): ts.Program {
  const file = ts.readConfigFile(path.join(root, config), ts.sys.readFile)
  const parsed = ts.parseJsonConfigFileContent(file.config, ts.sys, root)
  return ts.createProgram(parsed.fileNames, { ...parsed.options, noEmit: true })
}

type Walked = ts.Node & { parent: ts.Node }

function nameOf(node: ts.Node): string | undefined {
  if (ts.isConstructorDeclaration(node)) return "constructor"
  const named = (node as { name?: ts.Node }).name
  return named && (ts.isIdentifier(named) || ts.isStringLiteral(named)) ? named.text : undefined
}

/** `Class.member` or `name` of a declaration, for refs and reports. */
function dottedName(node: ts.Node): string {
  const own = nameOf(node) ?? "(anonymous)"
  const holder = node.parent
  if (holder && (ts.isClassLike(holder) || ts.isObjectLiteralExpression(holder))) {
    const owner = ts.isClassLike(holder)
      ? nameOf(holder)
      : holder.parent && ts.isPropertyDeclaration(holder.parent)
        ? `${nameOf(holder.parent.parent)}.${nameOf(holder.parent)}`
        : undefined
    return owner ? `${owner}.${own}` : own
  }
  return own
}

/** Declarations of a file, by dotted name (top level, class members, members of an object held by a class property). */
function declarationsOf(source: ts.SourceFile): Map<string, ts.Node> {
  const found = new Map<string, ts.Node>()
  const add = (node: ts.Node) => found.set(dottedName(node), node)
  const visit = (node: ts.Node) => {
    if (
      ts.isFunctionDeclaration(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isPropertyDeclaration(node) ||
      ts.isVariableDeclaration(node) ||
      ts.isPropertyAssignment(node) ||
      ts.isClassDeclaration(node) ||
      ts.isConstructorDeclaration(node)
    )
      add(node)
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

/** What running a declaration runs: a function's body, a variable's or property's initializer, a class's constructor and field initializers. */
function runnable(node: ts.Node): ts.Node[] {
  if (ts.isClassDeclaration(node) || ts.isClassExpression(node))
    return node.members.filter(
      (m) => (ts.isConstructorDeclaration(m) || (ts.isPropertyDeclaration(m) && !!m.initializer)) && !isStopped(m)
    )
  if (ts.isFunctionLike(node)) return "body" in node && node.body ? [node.body] : []
  if (
    (ts.isVariableDeclaration(node) || ts.isPropertyDeclaration(node) || ts.isPropertyAssignment(node)) &&
    node.initializer
  )
    return [node.initializer]
  return []
}

let stopped = new Set<ts.Node>()
const isStopped = (node: ts.Node) => stopped.has(node)

/**
 * The figures of one path. `entries`: the functions where the path begins (and where Medusa calls back
 * in); `stops`: declarations the walk must not open (a table of handlers, of which the path runs one:
 * that one is an entry).
 */
export function callPathFigures(
  program: ts.Program,
  root: string,
  entries: DeclarationRef[],
  stops: DeclarationRef[] = []
): CallPathFigures {
  const checker = program.getTypeChecker()
  const ours = (file: string) =>
    file.startsWith(path.join(root, "src") + path.sep) && !file.includes(`${path.sep}__tests__${path.sep}`)
  const resolve = (ref: DeclarationRef): ts.Node => {
    const [file, name] = ref.split("#")
    const source = program.getSourceFile(path.resolve(root, file))
    const node = source && declarationsOf(source).get(name)
    if (!node) throw new Error(`no declaration ${ref}`)
    return node
  }
  stopped = new Set(stops.map(resolve))

  const reached = new Set<ts.Node>()
  const edges = new Set<string>()
  const queue: ts.Node[] = entries.map(resolve)
  const reach = (from: ts.Node, target: ts.Node) => {
    const a = from.getSourceFile().fileName
    const b = target.getSourceFile().fileName
    if (layerOf(root, a) !== layerOf(root, b)) edges.add(`${a}\n${b}`)
    if (!reached.has(target) && ![...stopped].some((stop) => stop !== target && contains(stop, target)))
      queue.push(target)
  }
  const targetsOf = (symbol: ts.Symbol | undefined): ts.Node[] => {
    if (!symbol) return []
    const real = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol
    return (real.declarations ?? []).filter(
      (d) =>
        ours(d.getSourceFile().fileName) &&
        !ts.isInterfaceDeclaration(d) &&
        !ts.isTypeAliasDeclaration(d) &&
        !ts.isPropertySignature(d) &&
        !ts.isParameter(d) &&
        !ts.isImportSpecifier(d) &&
        !ts.isImportClause(d) &&
        !ts.isNamespaceImport(d)
    )
  }
  while (queue.length) {
    const node = queue.shift()!
    if (reached.has(node)) continue
    reached.add(node)
    if (isStopped(node)) continue
    const walk = (child: ts.Node) => {
      if (ts.isTypeNode(child) || ts.isTypeAliasDeclaration(child) || ts.isInterfaceDeclaration(child)) return
      if (ts.isIdentifier(child) && !isDeclarationName(child as Walked)) {
        const called = isCalled(child)
        for (const target of targetsOf(checker.getSymbolAtLocation(child))) {
          // a property is followed when it is called (a handler, a method held in a field); reading a
          // row's or an option's field runs nothing
          if (isProperty(target) && !called) continue
          // a local variable of the same body is not a hand-off to anything
          if (target.getSourceFile() === child.getSourceFile() && contains(node, target)) continue
          reach(node, target)
        }
      }
      ts.forEachChild(child, walk)
    }
    for (const body of runnable(node)) walk(body)
  }

  const files = [...new Set([...reached].map((n) => n.getSourceFile().fileName))]
  const layers: string[] = []
  for (const node of reached) {
    const layer = layerOf(root, node.getSourceFile().fileName)
    if (!layers.includes(layer)) layers.push(layer)
  }
  return {
    files: files.map((f) => path.relative(root, f)).sort(),
    declarations: [...reached].map((n) => `${path.relative(root, n.getSourceFile().fileName)}#${dottedName(n)}`).sort(),
    handOffs: edges.size,
    layers,
  }
}

/** `f(…)`, `a.f(…)`, `new C(…)`, `new a.C(…)`: the identifier is what runs. */
function isCalled(identifier: ts.Identifier): boolean {
  const parent = identifier.parent
  const access = ts.isPropertyAccessExpression(parent) && parent.name === identifier ? parent : identifier
  const holder = access.parent
  return (ts.isCallExpression(holder) || ts.isNewExpression(holder)) && holder.expression === access
}

function isProperty(node: ts.Node): boolean {
  return ts.isPropertyAssignment(node) || ts.isPropertyDeclaration(node) || ts.isShorthandPropertyAssignment(node)
}

function isDeclarationName(node: Walked): boolean {
  const parent = node.parent
  return (parent as { name?: ts.Node }).name === node && !ts.isPropertyAccessExpression(parent)
}

function contains(outer: ts.Node, inner: ts.Node): boolean {
  return inner.getSourceFile() === outer.getSourceFile() && inner.pos >= outer.pos && inner.end <= outer.end
}
