/**
 * go-task's templates (Go text/template with go-task's and sprig's functions), evaluated
 * statically for the gate: `{{.VAR}}`, pipelines (`{{.X | default "y" | upper}}`), string and
 * number literals, and the pure functions Taskfiles use for paths, quoting and text. A variable
 * known only when go-task runs (an `sh:` variable, the environment) is a hole; an action this
 * subset does not read (`{{if}}`, `{{range}}`, an unknown function) makes the whole text a hole,
 * since what it prints can't be told.
 */
import { posix } from 'node:path'
import { concat, hole, known, shellQuoteWord, type Hole, type Value } from './text-body.js'

/** A variable: a plain value (string, number, boolean, list, map) or a hole. */
export type TaskVar = { readonly plain: unknown } | { readonly hole: Hole }

/** What a template reads. */
export type TemplateVars = (name: string) => TaskVar | undefined

class Unreadable extends Error {}

type Item = { plain: unknown } | { hole: Hole }

const isHole = (i: Item): i is { hole: Hole } => 'hole' in i

/** Go's `fmt.Sprint` of a plain value, as text/template prints it. */
export function goText(v: unknown): string {
  if (v === null || v === undefined) return ''
  if (Array.isArray(v)) return `[${v.map(goText).join(' ')}]`
  if (typeof v === 'object') return `map[${Object.keys(v).sort().map((k) => `${k}:${goText((v as Record<string, unknown>)[k])}`).join(' ')}]`
  return String(v)
}

function truthy(v: unknown): boolean {
  if (Array.isArray(v)) return v.length > 0
  if (v && typeof v === 'object') return Object.keys(v).length > 0
  return v !== '' && v !== 0 && v !== false && v !== null && v !== undefined
}

const GO_OS = process.platform === 'win32' ? 'windows' : process.platform
const GO_ARCH = process.arch === 'x64' ? 'amd64' : process.arch === 'ia32' ? '386' : process.arch

/** Pure functions over plain values; the last argument is the piped value, as in Go. */
const FUNCS: Record<string, (args: unknown[]) => unknown> = {
  default: ([d, x]) => (truthy(x) ? x : d),
  upper: ([s]) => goText(s).toUpperCase(),
  lower: ([s]) => goText(s).toLowerCase(),
  title: ([s]) => goText(s).replace(/\b\w/g, (c) => c.toUpperCase()),
  trim: ([s]) => goText(s).trim(),
  trimAll: ([c, s]) => goText(s).replace(new RegExp(`^[${escapeClass(goText(c))}]+|[${escapeClass(goText(c))}]+$`, 'g'), ''),
  trimPrefix: ([p, s]) => (goText(s).startsWith(goText(p)) ? goText(s).slice(goText(p).length) : goText(s)),
  trimSuffix: ([p, s]) => (goText(p) !== '' && goText(s).endsWith(goText(p)) ? goText(s).slice(0, -goText(p).length) : goText(s)),
  replace: ([a, b, s]) => goText(s).split(goText(a)).join(goText(b)),
  quote: (args) => args.map((a) => JSON.stringify(goText(a))).join(' '),
  squote: (args) => args.map((a) => `'${goText(a)}'`).join(' '),
  shellQuote: ([s]) => shellQuoteWord(goText(s)),
  q: ([s]) => shellQuoteWord(goText(s)),
  cat: (args) => args.filter((a) => a !== null && a !== undefined).map(goText).join(' '),
  print: (args) => args.map(goText).join(''),
  println: (args) => `${args.map(goText).join(' ')}\n`,
  printf: ([f, ...rest]) => sprintf(goText(f), rest),
  join: ([sep, list]) => (Array.isArray(list) ? list.map(goText).join(goText(sep)) : goText(list)),
  splitList: ([sep, s]) => goText(s).split(goText(sep)),
  splitLines: ([s]) => goText(s).split(/\r?\n/),
  catLines: ([s]) => goText(s).replace(/\r?\n/g, ' '),
  toSlash: ([s]) => goText(s),
  fromSlash: ([s]) => goText(s),
  joinPath: (args) => posix.join(...args.map(goText)),
  base: ([s]) => posix.basename(goText(s)),
  dir: ([s]) => posix.dirname(goText(s)),
  ext: ([s]) => posix.extname(goText(s)),
  clean: ([s]) => posix.normalize(goText(s)),
  index: ([l, i]) => (Array.isArray(l) ? l[Number(i)] : l && typeof l === 'object' ? (l as Record<string, unknown>)[goText(i)] : undefined),
  len: ([l]) => (Array.isArray(l) ? l.length : l && typeof l === 'object' ? Object.keys(l).length : goText(l).length),
  first: ([l]) => (Array.isArray(l) ? l[0] : undefined),
  last: ([l]) => (Array.isArray(l) ? l[l.length - 1] : undefined),
  list: (args) => args,
  OS: () => GO_OS,
  ARCH: () => GO_ARCH,
  exeExt: () => (GO_OS === 'windows' ? '.exe' : ''),
}

function escapeClass(s: string): string {
  return s.replace(/[\\\]^-]/g, '\\$&')
}

function sprintf(format: string, args: unknown[]): string {
  let k = 0
  return format.replace(/%([%sdvq])/g, (_, verb: string) => {
    if (verb === '%') return '%'
    const a = args[k++]
    if (verb === 'q') return JSON.stringify(goText(a))
    return goText(a)
  })
}

/** Tokens of one action: literals, `.NAME` fields, names, `|`, parentheses. */
type Tok = { t: 'str'; v: string } | { t: 'num'; v: number } | { t: 'field'; path: string[] } | { t: 'name'; v: string } | { t: 'op'; v: string }

function lexAction(src: string): Tok[] {
  const out: Tok[] = []
  let i = 0
  while (i < src.length) {
    const c = src[i]!
    if (/\s/.test(c)) i++
    else if (c === '"') {
      let j = i + 1
      while (j < src.length && src[j] !== '"') j += src[j] === '\\' ? 2 : 1
      if (j >= src.length) throw new Unreadable('an unterminated string')
      out.push({ t: 'str', v: goUnquote(src.slice(i + 1, j)) })
      i = j + 1
    } else if (c === '`') {
      const j = src.indexOf('`', i + 1)
      if (j === -1) throw new Unreadable('an unterminated raw string')
      out.push({ t: 'str', v: src.slice(i + 1, j) })
      i = j + 1
    } else if (c === '.') {
      const m = /^(?:\.[A-Za-z_][A-Za-z0-9_]*)+/.exec(src.slice(i))
      if (!m) throw new Unreadable('the dot (the whole data) is not read')
      out.push({ t: 'field', path: m[0].slice(1).split('.') })
      i += m[0].length
    } else if (/[0-9-]/.test(c) && /^-?[0-9]/.test(src.slice(i))) {
      const m = /^-?[0-9]+(\.[0-9]+)?/.exec(src.slice(i))!
      out.push({ t: 'num', v: Number(m[0]) })
      i += m[0].length
    } else if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i))!
      out.push({ t: 'name', v: m[0] })
      i += m[0].length
    } else if (c === '|' || c === '(' || c === ')') {
      out.push({ t: 'op', v: c })
      i++
    } else throw new Unreadable(`${JSON.stringify(c)} is not read`)
  }
  return out
}

function goUnquote(body: string): string {
  try {
    return JSON.parse(`"${body.replace(/\\x([0-9a-fA-F]{2})/g, '\\u00$1').replace(/\\'/g, "'")}"`) as string
  } catch {
    throw new Unreadable('a string escape is not read')
  }
}

const KEYWORDS = new Set(['if', 'else', 'end', 'range', 'with', 'define', 'template', 'block', 'break', 'continue'])

/** Evaluates one action's pipeline. */
function pipeline(toks: Tok[], vars: TemplateVars): Item {
  let k = 0
  const operand = (): Item => {
    const t = toks[k++]
    if (!t) throw new Unreadable('an empty command')
    if (t.t === 'str' || t.t === 'num') return { plain: t.v }
    if (t.t === 'field') return field(t.path, vars)
    if (t.t === 'op' && t.v === '(') {
      const start = k
      let depth = 1
      while (k < toks.length && depth > 0) {
        const x = toks[k++]!
        if (x.t === 'op' && x.v === '(') depth++
        if (x.t === 'op' && x.v === ')') depth--
      }
      return pipeline(toks.slice(start, k - 1), vars)
    }
    if (t.t === 'name' && (t.v === 'true' || t.v === 'false')) return { plain: t.v === 'true' }
    if (t.t === 'name' && t.v === 'nil') return { plain: null }
    throw new Unreadable(`${t.t === 'name' ? t.v : JSON.stringify(t)} is not read`)
  }
  let piped: Item | undefined
  while (k < toks.length) {
    const t = toks[k]!
    let result: Item
    if (t.t === 'name' && !['true', 'false', 'nil'].includes(t.v)) {
      if (KEYWORDS.has(t.v)) throw new Unreadable(`{{${t.v}}} is not read`)
      const fn = FUNCS[t.v]
      if (!fn) throw new Unreadable(`the function ${t.v} is not read`)
      k++
      const args: Item[] = []
      while (k < toks.length && !(toks[k]!.t === 'op' && (toks[k] as { v: string }).v === '|')) args.push(operand())
      if (piped) args.push(piped)
      const gap = args.find(isHole)
      result = gap ?? { plain: fn(args.map((a) => (a as { plain: unknown }).plain)) }
    } else {
      if (piped) throw new Unreadable('a value piped into a value')
      result = operand()
    }
    piped = result
    if (k < toks.length) {
      const bar = toks[k++]!
      if (!(bar.t === 'op' && bar.v === '|')) throw new Unreadable('two values in one command')
    }
  }
  if (!piped) throw new Unreadable('an empty action')
  return piped
}

function field(path: string[], vars: TemplateVars): Item {
  const v = vars(path[0]!)
  if (!v) return { hole: { hole: path[0]!, why: `${path[0]} is not set in the Taskfile: go-task takes it from the environment, or leaves it empty` } }
  if ('hole' in v) return v
  let value = v.plain
  for (const key of path.slice(1)) value = value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined
  return { plain: value }
}

/**
 * Renders `text`: each `{{ … }}` action evaluated, text between them kept. An undefined variable
 * under `default` takes the default (what the Taskfile means); alone it is a hole.
 */
export function renderTemplate(text: string, vars: TemplateVars, owner = 'UNKNOWN'): Value {
  if (!text.includes('{{')) return known(text)
  const parts: Value[] = []
  let i = 0
  let trimNext = false
  try {
    while (i < text.length) {
      const open = text.indexOf('{{', i)
      let literal = open === -1 ? text.slice(i) : text.slice(i, open)
      if (trimNext) literal = literal.trimStart()
      if (open === -1) {
        parts.push(known(literal))
        break
      }
      const close = text.indexOf('}}', open + 2)
      if (close === -1) throw new Unreadable('an action is not closed')
      let inner = text.slice(open + 2, close)
      if (inner.startsWith('-') && /^-\s/.test(inner)) {
        literal = literal.trimEnd()
        inner = inner.slice(1)
      }
      trimNext = /\s-$/.test(inner)
      if (trimNext) inner = inner.slice(0, -1)
      parts.push(known(literal))
      const trimmed = inner.trim()
      if (!(trimmed.startsWith('/*') && trimmed.endsWith('*/'))) {
        const item = withDefaults(lexAction(trimmed), vars)
        parts.push(isHole(item) ? [item.hole] : known(goText(item.plain)))
      }
      i = close + 2
    }
  } catch (error) {
    if (!(error instanceof Unreadable)) throw error
    return hole(owner, `go-task evaluates this template when it runs (${error.message})`, text)
  }
  return concat(...parts)
}

/** A pipeline where an undefined variable piped into or given to `default` reads as empty. */
function withDefaults(toks: Tok[], vars: TemplateVars): Item {
  const usesDefault = toks.some((t) => t.t === 'name' && t.v === 'default')
  if (!usesDefault) return pipeline(toks, vars)
  return pipeline(toks, (name) => vars(name) ?? { plain: '' })
}
