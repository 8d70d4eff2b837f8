/**
 * Finds text of the admin's own that reaches the screen without `t(…)`: JSX text, literals in props a
 * person reads or hears (label, placeholder, title, aria-label, alt), toasts, and what JSX renders from
 * an expression (a literal, a template's words, either branch of `?:`, `??`, `||`, `&&`, an array joined).
 * Words are letters; symbols ("—", "·", "?", "≈") pass, and so do the few names kept in every language.
 */
import ts from "typescript"

/** Coin names, the same in every language. */
const KEPT = new Set(["BTC", "ETH", "LTC", "USDT (ERC-20)", "USDT (BEP-20)"])
const VISIBLE_PROPS = new Set(["label", "placeholder", "title", "aria-label", "alt", "anyLabel"])

export type Untranslated = { line: number; text: string }

export function untranslatedText(fileName: string, source: string): Untranslated[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX)
  const found: Untranslated[] = []
  const report = (node: ts.Node, text: string) => {
    const trimmed = text.trim()
    if (/\p{L}/u.test(trimmed) && !KEPT.has(trimmed)) {
      found.push({ line: file.getLineAndCharacterOfPosition(node.getStart()).line + 1, text: trimmed })
    }
  }
  const isCallTo = (node: ts.Node, name: string) =>
    ts.isCallExpression(node) &&
    ((ts.isIdentifier(node.expression) && node.expression.text === name) ||
      (ts.isPropertyAccessExpression(node.expression) &&
        ts.isIdentifier(node.expression.expression) &&
        node.expression.expression.text === name))

  /** A value that ends up on screen as it is. */
  const rendered = (expr: ts.Expression | undefined): void => {
    if (!expr) return
    if (ts.isParenthesizedExpression(expr)) return rendered(expr.expression)
    if (ts.isStringLiteral(expr) || ts.isNoSubstitutionTemplateLiteral(expr)) return report(expr, expr.text)
    if (ts.isTemplateExpression(expr)) {
      report(expr.head, expr.head.text)
      for (const span of expr.templateSpans) {
        report(span.literal, span.literal.text)
        rendered(span.expression)
      }
      return
    }
    if (ts.isConditionalExpression(expr)) return (rendered(expr.whenTrue), rendered(expr.whenFalse))
    if (ts.isBinaryExpression(expr)) {
      const op = expr.operatorToken.kind
      if (op === ts.SyntaxKind.AmpersandAmpersandToken) return rendered(expr.right)
      if (op === ts.SyntaxKind.QuestionQuestionToken || op === ts.SyntaxKind.BarBarToken) {
        return (rendered(expr.left), rendered(expr.right))
      }
      return
    }
    if (ts.isArrayLiteralExpression(expr)) return expr.elements.forEach((element) => rendered(element))
    // `t(…)` is the translation; `[…].filter(…).join(…)` renders its array; other calls format data
    if (ts.isCallExpression(expr) && !isCallTo(expr, "t") && ts.isPropertyAccessExpression(expr.expression)) {
      return rendered(expr.expression.expression)
    }
  }

  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node)) report(node, node.text)
    else if (ts.isJsxExpression(node) && (ts.isJsxElement(node.parent) || ts.isJsxFragment(node.parent))) {
      rendered(node.expression)
    } else if (ts.isJsxAttribute(node) && VISIBLE_PROPS.has(node.name.getText(file))) {
      const value = node.initializer
      if (value && ts.isStringLiteral(value)) report(value, value.text)
      else if (value && ts.isJsxExpression(value)) rendered(value.expression)
    } else if (ts.isCallExpression(node) && isCallTo(node, "toast")) {
      rendered(node.arguments[0])
    } else if (
      (ts.isPropertyAssignment(node) || ts.isBindingElement(node) || ts.isParameter(node)) &&
      VISIBLE_PROPS.has(node.name.getText(file)) &&
      // the route's label is a key of the plugin's texts: the dashboard translates it (tested with the texts)
      !isCallTo(node.parent.parent, "defineRouteConfig")
    ) {
      rendered(node.initializer)
    }
    ts.forEachChild(node, visit)
  }
  visit(file)
  return found
}
