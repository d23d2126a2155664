/**
 * just's expressions, evaluated statically for the gate: string literals (escapes, indented
 * strings, `f'…'` format strings), `+` and `/`, `if … == … { } else { }`, variables and
 * parameters, and the pure built-in functions (path and string functions, `quote`, `os()`, the
 * justfile's directories). What just learns only when it runs (a backtick, `shell()`,
 * `env_var()`, the user's directories, hashes, time) becomes a hole; a backtick or `shell()` is
 * also reported as a command that runs. Tokens come from the collector's lexer (just-lex.ts).
 */
import { posix } from 'node:path'
import { stringLength, tokenize, type Token } from '../../../collectors/just/lex.js'
import { concat, hole, known, knownText, MAX_DEPTH, type Value } from './text-body.js'

type Expr =
  | { k: 'str'; v: string }
  | { k: 'bt'; cmd: string }
  | { k: 'xstr'; v: string }
  | { k: 'fmt'; v: string }
  | { k: 'var'; name: string }
  | { k: 'call'; name: string; args: Expr[] }
  | { k: 'cat'; a: Expr; b: Expr }
  | { k: 'join'; a?: Expr; b: Expr }
  | { k: 'if'; l: Expr; op: string; r: Expr; then: Expr; else: Expr }
  | { k: 'bad'; why: string }

/** What an expression may read: variables, the justfile's paths, the system, and a sink for commands it runs. */
export interface JustEnv {
  /** A variable's or parameter's value; undefined when none of that name is defined. */
  variable(name: string): Value | undefined
  /** Absolute paths: the root justfile, the current source file, and where just was started. */
  readonly justfile: string
  readonly sourceFile: string
  readonly invocationDir: string
  /** just's names for the system the scan runs on (`linux`, `macos`, `windows`; `x86_64`, `aarch64`). */
  readonly os: string
  readonly arch: string
  /** A backtick or `shell()` runs `command` while the expression is evaluated. */
  ran(command: Value, what: string): void
}

class ExprSyntax extends Error {}

/** Parses tokens `toks[from..to)` of `text` into one expression. */
export function parseExpr(toks: readonly Token[], text: string, from = 0, to = toks.length): Expr {
  const p = new Parser(toks.slice(from, to), text)
  try {
    const e = p.expression()
    if (p.k < p.toks.length) throw new ExprSyntax(`unexpected ${JSON.stringify(p.toks[p.k]!.v)}`)
    return e
  } catch (error) {
    return { k: 'bad', why: error instanceof ExprSyntax ? error.message : String(error) }
  }
}

/** Parses the source text of one expression (an interpolation's inside). */
export function parseExprText(source: string): Expr {
  let toks: Token[]
  try {
    toks = tokenize(source)
  } catch (error) {
    return { k: 'bad', why: String(error) }
  }
  return parseExpr(toks, source)
}

class Parser {
  k = 0
  constructor(readonly toks: readonly Token[], readonly text: string) {}

  peek(v?: string): Token | undefined {
    const t = this.toks[this.k]
    return v === undefined || (t && t.v === v && t.t !== 'str') ? t : undefined
  }

  take(v: string): void {
    const t = this.toks[this.k]
    if (!t || t.v !== v || t.t === 'str') throw new ExprSyntax(`expected ${v}, found ${t ? JSON.stringify(t.v) : 'the end'}`)
    this.k++
  }

  expression(depth = 0): Expr {
    if (depth > 64) throw new ExprSyntax('the expression nests too deeply')
    const t = this.peek()
    if (t?.t === 'name' && t.v === 'if') return this.conditional(depth)
    if (t?.t === 'op' && t.v === '/') {
      this.k++
      return { k: 'join', b: this.expression(depth + 1) }
    }
    const a = this.value(depth)
    const op = this.peek()
    if (op?.t === 'op' && op.v === '+') {
      this.k++
      return { k: 'cat', a, b: this.expression(depth + 1) }
    }
    if (op?.t === 'op' && op.v === '/') {
      this.k++
      return { k: 'join', a, b: this.expression(depth + 1) }
    }
    if (op?.t === 'op' && (op.v === '&&' || op.v === '||')) throw new ExprSyntax(`the ${op.v} operator is not read`)
    return a
  }

  conditional(depth: number): Expr {
    this.k++
    const l = this.expression(depth + 1)
    const op = this.peek()
    if (!op || op.t !== 'op' || !['==', '!=', '=~'].includes(op.v)) throw new ExprSyntax('expected ==, != or =~ in the condition')
    this.k++
    const r = this.expression(depth + 1)
    this.take('{')
    const then = this.expression(depth + 1)
    this.take('}')
    const e = this.peek()
    if (!e || e.t !== 'name' || e.v !== 'else') throw new ExprSyntax('expected else')
    this.k++
    let otherwise: Expr
    if (this.peek()?.t === 'name' && this.peek()!.v === 'if') otherwise = this.conditional(depth + 1)
    else {
      this.take('{')
      otherwise = this.expression(depth + 1)
      this.take('}')
    }
    return { k: 'if', l, op: op.v, r, then, else: otherwise }
  }

  value(depth: number): Expr {
    const t = this.toks[this.k]
    if (!t) throw new ExprSyntax('expected a value, found the end')
    this.k++
    if (t.t === 'str') return stringExpr(t, this.text)
    if (t.t === 'bt') return { k: 'bt', cmd: backtickCommand(t.v) }
    if (t.t === 'name') {
      if (this.peek('(')) {
        this.k++
        const args: Expr[] = []
        while (!this.peek(')')) {
          args.push(this.expression(depth + 1))
          if (this.peek(',')) this.k++
          else break
        }
        this.take(')')
        return { k: 'call', name: t.v, args }
      }
      return { k: 'var', name: t.v }
    }
    if (t.t === 'op' && t.v === '(') {
      const e = this.expression(depth + 1)
      this.take(')')
      return e
    }
    throw new ExprSyntax(`expected a value, found ${JSON.stringify(t.v)}`)
  }
}

/** The command of a backtick token (`` `cmd` `` or an indented ```` ```cmd``` ````). */
function backtickCommand(raw: string): string {
  return raw.startsWith('```') ? unindent(raw.slice(3, -3)) : raw.slice(1, -1)
}

/** A string token as an expression: its kind (x'…', f'…', raw, cooked, indented) from the text. */
function stringExpr(t: Token, text: string): Expr {
  const prefix = text[t.at] === 'x' || text[t.at] === 'f' ? text[t.at] : ''
  const q = text[t.at + prefix.length]!
  const indented = text.startsWith(q.repeat(3), t.at + prefix.length)
  let v = indented ? unindent(t.v) : t.v
  if (q === '"') v = cook(v)
  if (prefix === 'x') return { k: 'xstr', v }
  if (prefix === 'f') return { k: 'fmt', v }
  return { k: 'str', v }
}

/** A double-quoted string's escapes, as just reads them. */
function cook(raw: string): string {
  return raw.replace(/\\(u\{([0-9a-fA-F]{1,6})\}|\r?\n[ \t]*|.)/gs, (whole, esc: string, hex?: string) => {
    if (hex !== undefined) {
      const code = parseInt(hex, 16)
      return code <= 0x10ffff ? String.fromCodePoint(code) : whole
    }
    switch (esc) {
      case 'n': return '\n'
      case 'r': return '\r'
      case 't': return '\t'
      case '"': return '"'
      case '\\': return '\\'
      default: return esc.startsWith('\n') || esc.startsWith('\r') ? '' : whole
    }
  })
}

/** An indented string: the first line break dropped, the common indentation removed. */
export function unindent(text: string): string {
  const lines = text.split('\n')
  if (lines.length > 1 && lines[0]!.trim() === '') lines.shift()
  const indents = lines.filter((l) => l.trim() !== '').map((l) => /^[ \t]*/.exec(l)![0])
  let common = indents[0] ?? ''
  for (const i of indents) while (!i.startsWith(common)) common = common.slice(0, -1)
  return lines.map((l) => (l.trim() === '' ? '' : l.slice(common.length))).join('\n')
}

/** Evaluates an expression; never throws. */
export function evaluate(e: Expr, env: JustEnv, depth = 0): Value {
  if (depth > MAX_DEPTH * 4) return hole('UNKNOWN', 'the expression nests too deeply to read')
  switch (e.k) {
    case 'str':
      return known(e.v)
    case 'bad':
      return hole('UNKNOWN', `just's expression is not read here (${e.why})`)
    case 'bt': {
      env.ran(known(e.cmd), 'a backtick')
      return hole('UNKNOWN', `just runs the backtick \`${e.cmd}\` to get this value`, `\`${e.cmd}\``)
    }
    case 'xstr':
      return /[$~]/.test(e.v) ? hole('UNKNOWN', `just expands the environment in x'${e.v}' when it runs`) : known(e.v)
    case 'fmt':
      return interpolate(e.v, env, depth + 1)
    case 'var': {
      const v = env.variable(e.name)
      return v ?? hole(e.name, `\`${e.name}\` is not defined in the justfile`)
    }
    case 'cat':
      return concat(evaluate(e.a, env, depth + 1), evaluate(e.b, env, depth + 1))
    case 'join': {
      const b = evaluate(e.b, env, depth + 1)
      return e.a === undefined ? concat(known('/'), b) : concat(evaluate(e.a, env, depth + 1), known('/'), b)
    }
    case 'if':
      return conditional(e, env, depth)
    case 'call':
      return call(e.name, e.args.map((a) => evaluate(a, env, depth + 1)), env)
  }
}

function conditional(e: Extract<Expr, { k: 'if' }>, env: JustEnv, depth: number): Value {
  const l = knownText(evaluate(e.l, env, depth + 1))
  const r = knownText(evaluate(e.r, env, depth + 1))
  if (l === undefined || r === undefined || e.op === '=~') {
    // Either branch may run: both are evaluated, so that their backticks are reported too.
    const a = evaluate(e.then, env, depth + 1)
    const b = evaluate(e.else, env, depth + 1)
    const source = `either ${JSON.stringify(render2(a))} or ${JSON.stringify(render2(b))}`
    return hole('UNKNOWN', 'just chooses this value by a condition known only when it runs', source)
  }
  return evaluate((e.op === '==') === (l === r) ? e.then : e.else, env, depth + 1)
}

function render2(v: Value): string {
  return v.map((p) => (typeof p === 'string' ? p : p.source ?? `\${${p.hole}}`)).join('')
}

/**
 * A body line's `{{ … }}` interpolations evaluated (`{{{{` is a literal `{{`); text outside them
 * is kept as written.
 */
export function interpolate(line: string, env: JustEnv, depth = 0): Value {
  const parts: Value[] = []
  let i = 0
  while (i < line.length) {
    const open = line.indexOf('{{', i)
    if (open === -1) break
    if (line.startsWith('{{{{', open)) {
      parts.push(known(line.slice(i, open) + '{{'))
      i = open + 4
      continue
    }
    const close = interpolationEnd(line, open + 2)
    if (close === -1) break
    parts.push(known(line.slice(i, open)))
    parts.push(evaluate(parseExprText(line.slice(open + 2, close)), env, depth + 1))
    i = close + 2
  }
  parts.push(known(line.slice(i)))
  return concat(...parts)
}

/** Index of the `}}` that closes an interpolation opened before `from`, skipping strings; -1 if none. */
function interpolationEnd(line: string, from: number): number {
  let i = from
  while (i < line.length) {
    const c = line[i]!
    if (c === '"' || c === "'" || c === '`') {
      const len = stringLength(line, i)
      if (len < 0) return -1
      i += len
      continue
    }
    if (line.startsWith('}}', i)) return i
    i++
  }
  return -1
}

/** The built-in functions that need no run-time value, over known arguments. */
const PURE: Record<string, (a: string[], env: JustEnv) => string | undefined> = {
  quote: ([s]) => `'${s!.replace(/'/g, `'\\''`)}'`,
  uppercase: ([s]) => s!.toUpperCase(),
  lowercase: ([s]) => s!.toLowerCase(),
  trim: ([s]) => s!.trim(),
  trim_start: ([s]) => s!.trimStart(),
  trim_end: ([s]) => s!.trimEnd(),
  trim_end_match: ([s, m]) => (m && s!.endsWith(m) ? s!.slice(0, -m.length) : s),
  trim_start_match: ([s, m]) => (m && s!.startsWith(m) ? s!.slice(m.length) : s),
  replace: ([s, from, to]) => (from === '' ? undefined : s!.split(from!).join(to)),
  append: ([suffix, s]) => s!.split(/\s+/).filter(Boolean).map((w) => w + suffix).join(' '),
  prepend: ([prefix, s]) => s!.split(/\s+/).filter(Boolean).map((w) => prefix + w).join(' '),
  join: (parts) => parts.reduce((acc, p) => (p.startsWith('/') || acc === '' ? p : acc.endsWith('/') ? acc + p : `${acc}/${p}`), ''),
  clean: ([p]) => posix.normalize(p!).replace(/(.)\/$/, '$1'),
  parent_directory: ([p]) => (p!.includes('/') ? posix.dirname(p!) : undefined),
  file_name: ([p]) => posix.basename(p!) || undefined,
  file_stem: ([p]) => {
    const b = posix.basename(p!)
    const dot = b.lastIndexOf('.')
    return dot > 0 ? b.slice(0, dot) : b
  },
  extension: ([p]) => {
    const b = posix.basename(p!)
    const dot = b.lastIndexOf('.')
    return dot > 0 ? b.slice(dot + 1) : undefined
  },
  without_extension: ([p]) => {
    const ext = posix.extname(p!)
    return ext ? p!.slice(0, -ext.length) : undefined
  },
  absolute_path: ([p], env) => (p!.startsWith('/') ? p : posix.join(env.invocationDir, p!)),
  justfile: (_, env) => env.justfile,
  justfile_directory: (_, env) => posix.dirname(env.justfile),
  source_file: (_, env) => env.sourceFile,
  source_directory: (_, env) => posix.dirname(env.sourceFile),
  invocation_directory: (_, env) => env.invocationDir,
  invocation_directory_native: (_, env) => env.invocationDir,
  os: (_, env) => env.os,
  os_family: (_, env) => (env.os === 'windows' ? 'windows' : 'unix'),
  arch: (_, env) => env.arch,
  just_executable: () => 'just',
}
/** Arity of each pure function (just refuses other counts). */
const ARITY: Record<string, [number, number]> = {
  quote: [1, 1], uppercase: [1, 1], lowercase: [1, 1], trim: [1, 1], trim_start: [1, 1], trim_end: [1, 1],
  trim_end_match: [2, 2], trim_start_match: [2, 2], replace: [3, 3], append: [2, 2], prepend: [2, 2], join: [1, 64],
  clean: [1, 1], parent_directory: [1, 1], file_name: [1, 1], file_stem: [1, 1], extension: [1, 1], without_extension: [1, 1],
  absolute_path: [1, 1],
}

function call(name: string, args: Value[], env: JustEnv): Value {
  if (name === 'env_var' || name === 'env' || name === 'env_var_or_default') {
    const key = knownText(args[0] ?? known('')) ?? 'UNKNOWN'
    return hole(key, `just reads the environment variable ${key} when it runs`)
  }
  if (name === 'shell') {
    const command = args[0] ?? known('')
    env.ran(command, 'shell()')
    return hole('UNKNOWN', 'just runs shell() to get this value', `shell(${JSON.stringify(knownText(command) ?? '…')})`)
  }
  const fn = PURE[name]
  const arity = ARITY[name] ?? [0, 0]
  if (!fn || args.length < arity[0] || args.length > arity[1]) return hole('UNKNOWN', `just computes ${name}() when it runs`)
  const texts = args.map(knownText)
  if (texts.some((t) => t === undefined)) return hole('UNKNOWN', `${name}() of a value known only when just runs`)
  const result = fn(texts as string[], env)
  return result === undefined ? hole('UNKNOWN', `just computes ${name}() of these arguments when it runs`) : known(result)
}

export type { Expr }
