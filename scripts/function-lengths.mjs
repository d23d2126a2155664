// Lists every function, method and arrow function in src/**/*.ts with its length in lines, longest first.
// It reads the sources with the TypeScript compiler's parser (no type checking, no build needed), so a
// function is what the language says it is, not what a pattern guesses. A function's length runs from its
// first token (leading comments excluded) to its closing brace, nested functions included.
//   node scripts/function-lengths.mjs              every function, longest first
//   node scripts/function-lengths.mjs --over 150   only those longer than 150 lines
//   node scripts/function-lengths.mjs --top 20     the 20 longest
// test/unit/function-length.test.mjs uses functionLengths() to hold the limit.
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import ts from 'typescript'

const ROOT = new URL('..', import.meta.url).pathname

function sourceFiles(dir, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) sourceFiles(path, out)
    else if (entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(path)
  }
  return out
}

function isFunction(node) {
  return ts.isFunctionDeclaration(node) || ts.isFunctionExpression(node) || ts.isArrowFunction(node) || ts.isMethodDeclaration(node)
    || ts.isConstructorDeclaration(node) || ts.isGetAccessorDeclaration(node) || ts.isSetAccessorDeclaration(node)
}

function propertyName(name, sf) {
  if (!name) return undefined
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name)) return name.text
  return name.getText(sf)
}

/** The name a reader would look for: the declaration's own, else what it is bound to (variable, property, argument). */
function functionName(node, sf) {
  if (ts.isConstructorDeclaration(node)) return 'constructor'
  if (node.name) return propertyName(node.name, sf)
  const parent = node.parent
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) return propertyName(parent.name, sf)
  if (ts.isBinaryExpression(parent) && parent.right === node) return parent.left.getText(sf)
  if (ts.isCallExpression(parent)) return `<argument of ${parent.expression.getText(sf).slice(0, 40)}>`
  return '<anonymous>'
}

/** Class, object and function names around a node, outermost first: `MakefileReader.readLine`, `collect/visit`. */
function qualified(node, sf, own) {
  const parts = [own]
  for (let p = node.parent; p && !ts.isSourceFile(p); p = p.parent) {
    if (ts.isClassLike(p)) parts.unshift(`${p.name?.text ?? '<class>'}.`)
    else if (isFunction(p)) parts.unshift(`${functionName(p, sf)}/`)
  }
  return parts.join('')
}

/** Every function in one file: { file, name, line, lines }. */
export function fileFunctionLengths(path, text = readFileSync(path, 'utf8'), root = ROOT) {
  const sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS)
  const file = relative(root, path)
  const out = []
  const visit = (node) => {
    if (isFunction(node) && node.body) {
      const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line
      const end = sf.getLineAndCharacterOfPosition(node.getEnd()).line
      out.push({ file, name: qualified(node, sf, functionName(node, sf)), line: start + 1, lines: end - start + 1 })
    }
    ts.forEachChild(node, visit)
  }
  visit(sf)
  return out
}

/** Every function under root/src, longest first (ties by file and line, so the order is stable). */
export function functionLengths(root = ROOT) {
  const all = sourceFiles(join(root, 'src')).flatMap((path) => fileFunctionLengths(path, undefined, root))
  return all.sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file) || a.line - b.line)
}

function main(argv) {
  const option = (name) => {
    const i = argv.indexOf(name)
    if (i < 0) return undefined
    const n = Number(argv[i + 1])
    if (!Number.isInteger(n) || n < 0) throw new Error(`${name} takes a whole number`)
    return n
  }
  const over = option('--over') ?? 0
  const top = option('--top')
  let rows = functionLengths().filter((f) => f.lines > over)
  if (top !== undefined) rows = rows.slice(0, top)
  for (const f of rows) console.log(`${String(f.lines).padStart(5)}  ${f.file}:${f.line}  ${f.name}`)
}

if (import.meta.url === `file://${process.argv[1]}`) main(process.argv.slice(2))
