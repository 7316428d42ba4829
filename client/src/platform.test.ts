/**
 * Shared code runs in the mini-program too, which has no DOM: browser-only globals may appear only
 * inside `if (process.env.TARO_ENV === 'h5') { … }` (which the weapp build drops) or behind `typeof`.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const SRC = fileURLToPath(new URL('.', import.meta.url))
const DOM_ONLY = new Set([
  'window', 'document', 'localStorage', 'sessionStorage', 'navigator', 'location', 'history',
  'XMLHttpRequest', 'HTMLElement', 'Element', 'fetch', 'Headers', 'Request', 'Response', 'AbortController',
  'getComputedStyle', 'matchMedia', 'alert', 'confirm', 'prompt',
])

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) return name === 'test' ? [] : files(p)
    return /\.(ts|tsx)$/.test(name) && !/\.test(-d)?\.ts$/.test(name) && !name.endsWith('.d.ts') ? [p] : []
  })
}

/** `process.env.TARO_ENV === 'h5'`, or `typeof NAME === …` for the name in question. */
function isGuard(expr: ts.Expression, name: string): boolean {
  const text = expr.getText().trim()
  return /^process\.env\.TARO_ENV\s*===\s*['"]h5['"]$/.test(text) || new RegExp(`^typeof ${name}\\s*[!=]==`).test(text)
}

/** Inside the true branch of an H5 check, or the operand of typeof. */
function guarded(node: ts.Identifier): boolean {
  const name = node.text
  let child: ts.Node = node
  for (let p = node.parent; p; child = p, p = p.parent) {
    if (ts.isTypeOfExpression(p)) return true
    if (ts.isIfStatement(p) && p.thenStatement === child && isGuard(p.expression, name)) return true
    if (ts.isConditionalExpression(p) && p.whenTrue === child && isGuard(p.condition, name)) return true
    if (ts.isBinaryExpression(p) && p.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken &&
      p.right === child && isGuard(p.left, name)) return true
  }
  return false
}

function violations(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS)
  const found: string[] = []
  const visit = (node: ts.Node) => {
    if (ts.isTypeNode(node) || ts.isImportDeclaration(node)) return
    if (ts.isIdentifier(node) && DOM_ONLY.has(node.text)) {
      const p = node.parent
      const isName = (ts.isPropertyAccessExpression(p) && p.name === node) || (ts.isPropertyAssignment(p) && p.name === node) ||
        ts.isJsxAttribute(p) || (ts.isMethodDeclaration(p) && p.name === node) || (ts.isPropertySignature(p) && p.name === node) ||
        (ts.isVariableDeclaration(p) && p.name === node) || (ts.isParameter(p) && p.name === node)
      if (!isName && !guarded(node)) {
        const { line } = sf.getLineAndCharacterOfPosition(node.getStart())
        found.push(`${relative(SRC, file)}:${line + 1} ${node.text}`)
      }
    }
    ts.forEachChild(node, visit)
  }
  visit(sf)
  return found
}

describe('shared code', () => {
  it('uses no DOM-only API outside H5 branches', () => {
    const all = files(SRC).flatMap(violations)
    expect(all).toEqual([])
  })

  it('the check itself catches an unguarded use', () => {
    const tmp = join(SRC, '..', 'node_modules', '.cache-platform-probe.ts')
    const probe = `export const a = window.innerWidth\nif (process.env.TARO_ENV === 'h5') { document.title = 'x' }\nexport const b = typeof navigator`
    ts.sys.writeFile(tmp, probe)
    expect(violations(tmp)).toEqual([`${relative(SRC, tmp)}:1 window`])
  })
})
