/**
 * The destructive gate: whether a call runs only with a person's yes. Every surface asks here
 * (dsh tools and dispatcher, dsh's bash, MCP, curated runs, `command-scout run`).
 *
 *   judgeRecipeCall(recipe, words, ctx)  a discovered command with the call's extra words
 *   judgeCommand(text, ctx)              a command line of its own (dsh's bash)
 *   callWords(args)                      a call's `args`, as words (a list, or a string split as a shell would)
 *   commandWithWords(recipe, words)      the command line with the words quoted
 *
 * A recipe's body (bodies/: what its runner would run, read statically) and every line of it
 * are parsed (shell.ts) and judged by the rule table (rules.ts) with the repository's own idea of
 * build output (paths.ts). A line that calls another recipe (`npm run b`, `make -C lib clean`,
 * `just b`) is judged by that recipe's body too; a small shell script a line runs is read. What
 * can't be read statically asks when its text holds a destructive word, and runs otherwise.
 */
import { lstatSync, openSync, readSync, closeSync, realpathSync, fstatSync, constants } from 'node:fs'
import { isAbsolute, join, relative, resolve, sep } from 'node:path'
import { parse as parseWords } from 'shell-quote'
import { shellWord as quoteWord } from '../../base/quote.js'
import type { Recipe } from '../recipe.js'
import type { RecipeBook } from '../recipe-book.js'
import { BODY_READERS } from './bodies/index.js'
import { argumentFindings } from './args.js'
import { PathJudge } from './paths.js'
import { DESTRUCTIVE_WORDS, judgeSimple, nameSays, runsPipedInput, unwrap, type RuleContext } from './rules.js'
import { parseShell, plainWords, type ShellWord } from './shell.js'
import type { BodyContext, Finding, UnknownPart, Verdict } from './types.js'

export type { BodyLine, Finding, RecipeBody, UnknownPart, Verdict } from './types.js'

export interface GateContext {
  /** Absolute path of the scan root. */
  readonly root: string
  /** The book, so that a body calling another recipe (`npm run b`, `make b`, `just b`) is followed. */
  readonly book?: RecipeBook
  /**
   * What several judgements of one book may share (parsed manifests, git's tracked files), from
   * `sharedReading()`: for judging a whole book at once while its files don't change. A call about
   * to run is judged without it, on the files as they are.
   */
  readonly shared?: SharedReading
}

/**
 * Path facts one set of judgements shares (git's tracked files, the .gitignore rules). Parsed
 * manifests are not shared: what a makefile means depends on the goals (MAKECMDGOALS), and keeping
 * every goal's reading costs more than reading again.
 */
export interface SharedReading {
  readonly paths: Map<string, PathJudge>
  /** Shell texts parsed by these judgements so far: the work they did, for a caller that bounds it. */
  lines: number
}

export function sharedReading(): SharedReading {
  return { paths: new Map(), lines: 0 }
}

/** A call's `args` that can't be taken as words: says why, for the model or the person. */
export class ArgsError extends Error {
  override name = 'ArgsError'
}

/** How deep calls, nested shells and scripts are followed before the rest counts as unknown. */
const MAX_DEPTH = 12
/** Script files a line runs are read up to this size. */
const MAX_SCRIPT_BYTES = 256 * 1024
/** Manifests and other files a body reader reads, at most. */
const MAX_READ_BYTES = 1024 * 1024
/** Findings kept per judgement (the first decides; the rest are counted). */
const MAX_FINDINGS = 20

/**
 * Sources whose runner appends a call's arguments to the script's own command line (`npm run x -- a b`),
 * and whose reader leaves that to the judge; the others' readers put the words where their runner does.
 */
const APPENDS_ARGS = new Set(['scripts', 'deno', 'composer', 'nx'])

/** A call's `args` as words: a list of strings as they are, a string split as a shell would (and refused when it holds more than words). */
export function callWords(args: unknown): string[] {
  if (args === undefined || args === null) return []
  if (Array.isArray(args)) {
    const bad = args.findIndex((w) => typeof w !== 'string')
    if (bad !== -1) throw new ArgsError(`args must be a list of strings (item ${bad} is ${args[bad] === null ? 'null' : typeof args[bad]})`)
    return [...args] as string[]
  }
  if (typeof args !== 'string') throw new ArgsError(`args must be a list of words, e.g. ["--watch"] (got ${typeof args})`)
  if (args.trim() === '') return []
  const split = plainWords(args)
  if ('problem' in split) {
    throw new ArgsError(`args ${JSON.stringify(truncate(args, 80))} can't be used: ${split.problem}. Arguments are passed to the command as words, each quoted, never as shell text: pass them as a list, e.g. ["--watch", "VAR=1"]`)
  }
  return split.words
}

/** The command line a call runs: the recipe's command, npm's `--` where it needs one, each word quoted. */
export function commandWithWords(recipe: Pick<Recipe, 'command' | 'argsSeparator'>, words: readonly string[]): string {
  if (words.length === 0) return recipe.command
  const quoted = words.map(quoteWord).join(' ')
  return recipe.argsSeparator ? `${recipe.command} ${recipe.argsSeparator} ${quoted}` : `${recipe.command} ${quoted}`
}

/** Whether a discovered command, called with these extra words, needs a person's yes, and why. */
export function judgeRecipeCall(recipe: Recipe, words: readonly string[], ctx: GateContext): Verdict {
  const judgement = new Judgement(ctx)
  judgement.add(argumentFindings(recipe, words, ctx.root))
  judgement.recipe(recipe, words, [])
  return judgement.verdict()
}

/** Whether a command line of its own (dsh's `bash`) needs a person's yes, and why. */
export function judgeCommand(text: string, ctx: GateContext & { cwd?: string }): Verdict {
  const judgement = new Judgement(ctx)
  judgement.line(text, relCwd(ctx.root, ctx.cwd), [], undefined, undefined, 0)
  return judgement.verdict()
}

function relCwd(root: string, cwd: string | undefined): string {
  if (!cwd) return '.'
  const rel = relative(root, resolve(root, cwd))
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? '.' : rel.split(sep).join('/')
}

/** One judgement's state: findings, the recipes already followed, and one memo for the readers. */
class Judgement {
  readonly paths: PathJudge
  readonly findings: Finding[] = []
  readonly #visited = new Set<string>()
  readonly #body: BodyContext
  readonly #calls: CallIndex | undefined

  constructor(readonly ctx: GateContext) {
    const shared = ctx.shared
    const known = shared?.paths.get(ctx.root)
    this.paths = known ?? new PathJudge(ctx.root)
    if (shared && !known) shared.paths.set(ctx.root, this.paths)
    // Each file is read once per judgement: a makefile read for every goal, a package.json for every script.
    const files = new Map<string, string | undefined>()
    const read = (abs: string): string | undefined => {
      if (files.has(abs)) return files.get(abs)
      const text = readInside(ctx.root, abs, MAX_READ_BYTES)
      files.set(abs, text)
      return text
    }
    this.#body = { root: ctx.root, read, memo: new Map() }
    this.#calls = ctx.book ? callIndex(ctx.book, ctx.root) : undefined
  }

  readonly #seen = new Set<string>()

  add(findings: readonly Finding[]): void {
    for (const f of findings) {
      // The same line reached twice (a reader that follows `npm run b` itself, then the judge through the book) counts once.
      const key = `${f.command}\0${f.reason}`
      if (this.#seen.has(key) || this.findings.length >= MAX_FINDINGS) continue
      this.#seen.add(key)
      this.findings.push(f)
    }
  }

  /** A recipe's body, or its command line when its source has no reader. */
  recipe(recipe: Recipe, words: readonly string[], via: readonly string[], depth = 0): void {
    const key = `${recipe.id}\0${words.join('\0')}`
    if (this.#visited.has(key)) return
    this.#visited.add(key)
    const call = commandWithWords(recipe, words)
    const reader = BODY_READERS[recipe.source]
    if (!reader) return this.line(call, recipe.cwd, via, recipe.file, recipe.line, depth, recipe)
    let body
    try {
      body = reader(recipe, this.#body, words)
    } catch (error) {
      // A reader never throws on bad input; if one does, what it would have read is unknown.
      body = { lines: [], unknown: [{ text: call, file: recipe.file, why: `its body could not be read (${(error as Error)?.message ?? error})`, via: [] }] }
    }
    const appended = words.length > 0 && APPENDS_ARGS.has(recipe.source) ? ` ${words.map(quoteWord).join(' ')}` : ''
    const chain = [...via, call]
    for (const line of body.lines) {
      const lineVia = [...via, ...(line.via.length ? line.via : [call])]
      this.line(line.text + appended, line.cwd, lineVia, line.file, line.line, depth + 1, recipe)
    }
    for (const part of body.unknown) this.unknown({ ...part, via: part.via.length ? [...via, ...part.via] : chain })
    // A body the reader found nothing in is still the command line: judge that (a runner's own subcommand, say).
    if (body.lines.length === 0 && body.unknown.length === 0) this.line(call, recipe.cwd, via, recipe.file, recipe.line, depth + 1, recipe)
  }

  /** One line of shell text: each simple command by the rules, calls followed, scripts read. */
  /** `self`: the recipe whose body this is, when it is one. */
  line(text: string, cwd: string, via: readonly string[], file: string | undefined, lineNo: number | undefined, depth: number, self?: Recipe): void {
    if (depth > MAX_DEPTH) return this.unknown({ text, file: file ?? '', ...(lineNo ? { line: lineNo } : {}), why: 'it is nested too deeply to follow', via })
    if (this.ctx.shared) this.ctx.shared.lines++
    const parsed = parseShell(text)
    if (parsed.broken) this.unknown({ text, file: file ?? '', ...(lineNo ? { line: lineNo } : {}), why: 'it is not shell text the parser can read whole', via })
    for (const command of parsed.commands) {
      const here = command.cd ? joinCwd(cwd, command.cd) : cwd
      const rule: RuleContext = {
        paths: this.paths,
        cwd: here,
        nested: (inner, how) => this.line(inner, here, [...via, `${truncate(command.text, 60)} (${how})`], file, lineNo, depth + 1),
      }
      for (const hit of judgeSimple(command, rule)) {
        this.add([{ command: hit.command, reason: hit.reason, kind: hit.kind, ...(file ? { file } : {}), ...(lineNo ? { line: lineNo } : {}), via }])
      }
      const { words } = unwrap(command.words, rule)
      if (words.length === 0) continue
      if (runsPipedInput(words, command)) {
        this.unknown({ text, file: file ?? '', ...(lineNo ? { line: lineNo } : {}), why: `\`${words[0]!.value}\` runs what the command before it prints`, via })
        continue
      }
      if (words[0]!.dynamic) {
        this.unknown({ text: command.text, file: file ?? '', ...(lineNo ? { line: lineNo } : {}), why: `the command \`${words[0]!.text}\` is known only when it runs`, via })
        continue
      }
      this.#follow(words, here, [...via], command.text, depth, self)
    }
  }

  /** A line that calls a discovered recipe or a script file: judge what that runs too. */
  #follow(words: readonly ShellWord[], cwd: string, via: readonly string[], text: string, depth: number, self?: Recipe): void {
    const values = words.map((w) => w.value)
    const target = this.#calls?.find(values, cwd)
    // A reader follows its own runner's calls (a sub-make, `npm run b`): only calls into another runner are followed here.
    const readerFollowed = target && self && target.recipe.source === self.source && BODY_READERS[self.source] !== undefined
    if (target && target.recipe !== self && !readerFollowed) return this.recipe(target.recipe, target.rest, [...via, truncate(text, 80)], depth + 1)
    if (target) return
    const call = canonicalCall(values, cwd)
    const pm = values[0]!.replace(/^.*\//, '')
    if (call && ['pnpm', 'pn', 'yarn', 'bun'].includes(pm) && values[1] !== 'run') {
      // `pnpm netlify deploy --prod`: no script of that name here, so the package manager runs the binary.
      const rest = values.slice(1)
      return this.line(rest.map(quoteWord).join(' '), cwd, [...via, truncate(text, 80)], undefined, undefined, depth + 1)
    }
    if (call) {
      // A task of a runner the book doesn't hold (another directory, a runner not scanned): only its name can be read.
      const task = call.key.split(' ').pop()!
      const says = self ? undefined : nameSays(task)
      if (says) this.add([{ command: truncate(text, 120), reason: `runs the task \`${task}\`, whose body the gate can't read, and its name says it ${says}`, kind: 'unknown', via }])
      return
    }
    const script = scriptOf(words)
    if (script) this.#script(script, cwd, [...via, truncate(text, 80)], depth)
  }

  #script(script: ShellWord & { interpreter?: string }, cwd: string, via: readonly string[], depth: number): void {
    if (script.dynamic) return
    const abs = resolve(this.ctx.root, cwd, script.value)
    const text = readInside(this.ctx.root, abs, MAX_SCRIPT_BYTES)
    const firstLine = text?.slice(0, 200).split('\n')[0] ?? ''
    const shell = text !== undefined && !text.includes('\0') && !(firstLine.startsWith('#!') && !/\b(sh|bash|zsh|dash|ksh|ash)\b/.test(firstLine)) && !script.interpreter
    if (!shell) {
      // A script the gate can't read as shell (missing, too large, another language): its name is all there is.
      const says = nameSays(script.value.replace(/^.*\//, ''))
      if (says) this.add([{ command: script.value, reason: `runs the script ${script.value}, whose name says it ${says}`, kind: 'unknown', via }])
      return
    }
    const rel = relative(this.ctx.root, abs).split(sep).join('/')
    this.line(text!, cwd, via, rel, undefined, depth + 1)
  }

  unknown(part: UnknownPart): void {
    const m = DESTRUCTIVE_WORDS.exec(part.text)
    if (!m && !part.always) return
    this.add([{
      command: truncate(part.text.trim(), 120),
      reason: m ? `can't be read before it runs (${part.why}) and holds \`${m[2]}\`` : `can't be read before it runs, so it can't be known to be safe (${part.why})`,
      kind: 'unknown',
      ...(part.file ? { file: part.file } : {}),
      ...(part.line ? { line: part.line } : {}),
      via: part.via,
    }])
  }

  verdict(): Verdict {
    if (this.findings.length === 0) return { destructive: false, findings: [] }
    return { destructive: true, findings: this.findings, reason: sentence(this.findings[0]!, this.findings.length - 1) }
  }
}

/** "`rm -rf src` deletes `src`, which git tracks (Makefile:3, through make all -> make clean)". */
function sentence(f: Finding, more: number): string {
  const where = f.file && f.file !== '.' ? `${f.file}${f.line ? `:${f.line}` : ''}` : ''
  const chain = f.via && f.via.length > 1 ? `through ${f.via.map((v) => `\`${truncate(v, 60)}\``).join(' -> ')}` : ''
  const context = [where, chain].filter(Boolean).join(', ')
  return `\`${truncate(f.command.replace(/\s+/g, ' '), 100)}\` ${f.reason}${context ? ` (${context})` : ''}${more > 0 ? `; and ${more} more line${more === 1 ? '' : 's'} like it` : ''}`
}

function joinCwd(cwd: string, cd: string): string {
  const joined = join(cwd, cd).split(sep).join('/')
  return joined === '' ? '.' : joined
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`
}

/** Interpreters whose script file is named by its first operand (read for its name only: the gate reads shell, not their languages). */
const SCRIPT_INTERPRETERS = new Set(['node', 'python', 'python3', 'ruby', 'perl', 'php', 'tsx', 'ts-node', 'bun', 'deno', 'pwsh', 'powershell', 'lua', 'Rscript'])

/** The file a line runs as a script: `./x.sh`, `scripts/reset`, `bash tools/reset`, `source env.sh`, `node scripts/deploy.mjs`. */
function scriptOf(words: readonly ShellWord[]): (ShellWord & { interpreter?: string }) | undefined {
  const head = words[0]!
  const name = head.value.replace(/^.*\//, '')
  if (['sh', 'bash', 'zsh', 'dash', 'ksh', 'source', '.'].includes(name)) {
    const file = words.slice(1).find((w) => !w.value.startsWith('-'))
    return file && !words.some((w) => /^-[a-z]*c$/.test(w.value)) ? file : undefined
  }
  if (SCRIPT_INTERPRETERS.has(name)) {
    const file = words.slice(1).find((w) => !w.value.startsWith('-') && w.value !== 'run')
    return file && /[./]/.test(file.value) && !words.some((w) => ['-e', '-c', '-p', '--eval', '-r', 'eval'].includes(w.value))
      ? { ...file, interpreter: name }
      : undefined
  }
  return head.value.includes('/') ? head : undefined
}

/**
 * Reads a regular file inside the root, at most `max` bytes, without following a link out of
 * the root (the real path must stay inside); undefined otherwise.
 */
export function readInside(root: string, abs: string, max: number): string | undefined {
  let real: string
  let realRoot: string
  try {
    real = realpathSync(abs)
    realRoot = realRootOf(root)
  } catch {
    return undefined
  }
  const rel = relative(realRoot, real)
  if (rel.startsWith('..') || isAbsolute(rel)) return undefined
  let fd: number | undefined
  try {
    if (!lstatSync(real).isFile()) return undefined
    fd = openSync(real, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0))
    const st = fstatSync(fd)
    if (!st.isFile() || st.size > max) return undefined
    const buffer = Buffer.alloc(st.size)
    let read = 0
    while (read < st.size) {
      const n = readSync(fd, buffer, read, st.size - read, read)
      if (n === 0) break
      read += n
    }
    return buffer.subarray(0, read).toString('utf8')
  } catch {
    return undefined
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}

const realRoots = new Map<string, string>()
function realRootOf(root: string): string {
  let real = realRoots.get(root)
  if (real === undefined) {
    real = realpathSync(root)
    if (realRoots.size > 64) realRoots.clear()
    realRoots.set(root, real)
  }
  return real
}

// ---------------------------------------------------------------------------------------------
// Calls from one recipe's body to another's: the runner invocations the book's recipes answer to.

interface CallIndex {
  find(words: readonly string[], cwd: string): { recipe: Recipe; rest: string[] } | undefined
}

const indexes = new WeakMap<RecipeBook, { size: number; index: CallIndex }>()

/**
 * A command line of plain words (ASCII letters, digits and `_./:@=+,%-`, one space apart), as the
 * collectors write most of them: shell-quote splits it at its spaces and nothing else (checked on
 * generated inputs, test/gate/command-words.test.mjs), so it is split without the parser, a big
 * book's every command once per book.
 */
const PLAIN_WORDS = /^[\w./:@=+,%-]+(?: [\w./:@=+,%-]+)*$/

/** The string words of `command` as shell-quote parses it (operators, globs and comments left out). */
export function commandWords(command: string): string[] {
  if (PLAIN_WORDS.test(command)) return command.split(' ')
  return parseWords(command).filter((w): w is string => typeof w === 'string')
}

function callIndex(book: RecipeBook, root: string): CallIndex {
  const known = indexes.get(book)
  if (known && known.size === book.size) return known.index
  const byKey = new Map<string, Recipe>()
  const packageDirs = new Set<string>()
  for (const recipe of book.entries()) {
    const call = canonicalCall(commandWords(recipe.command), recipe.cwd)
    if (call && !byKey.has(`${call.cwd}\0${call.key}`)) byKey.set(`${call.cwd}\0${call.key}`, recipe)
    if (recipe.source === 'scripts') packageDirs.add(recipe.cwd)
  }
  let byName: Map<string, string> | undefined
  /** A workspace named by its directory or its package name, as npm, pnpm and yarn take either. */
  const workspaceDir = (name: string, cwd: string): string | undefined => {
    const asPath = joinCwd(cwd, name.replace(/^\{(.*)\}$/, '$1'))
    if (packageDirs.has(asPath)) return asPath
    if (!byName) {
      byName = new Map()
      for (const dir of packageDirs) {
        const text = readInside(root, join(root, dir, 'package.json'), MAX_READ_BYTES)
        const m = text === undefined ? null : /"name"\s*:\s*"([^"]+)"/.exec(text)
        if (m && !byName.has(m[1]!)) byName.set(m[1]!, dir)
      }
    }
    return byName.get(name)
  }
  const index: CallIndex = {
    find(words, cwd) {
      const call = canonicalCall(words, cwd)
      if (!call) return undefined
      const at = call.workspace === undefined ? call.cwd : workspaceDir(call.workspace, call.cwd)
      const recipe = at === undefined ? undefined : byKey.get(`${at}\0${call.key}`)
      return recipe ? { recipe, rest: call.rest } : undefined
    },
  }
  indexes.set(book, { size: book.size, index })
  return index
}

/** A recipe call: where and what, the words after the task, and the workspace it names (`-w web`, `--filter web`) when it names one. */
interface Call {
  cwd: string
  key: string
  rest: string[]
  workspace?: string
}

/** Package-manager subcommands that are not scripts (`yarn install`, `pnpm add`). */
const PM_BUILTINS = new Set([
  'install', 'i', 'ci', 'add', 'remove', 'rm', 'uninstall', 'update', 'up', 'upgrade', 'exec', 'x', 'dlx', 'create', 'init', 'audit',
  'outdated', 'ls', 'list', 'why', 'info', 'view', 'pack', 'link', 'unlink', 'config', 'cache', 'store', 'version', 'help', 'workspace',
  'workspaces', 'publish', 'import', 'rebuild', 'prune', 'dedupe', 'patch', 'setup', 'env', 'login', 'logout', 'whoami', 'dist-tag', 'bin', 'root',
])

/**
 * A runner invocation in one spelling per recipe (`pnpm build` and `pnpm run build` alike):
 * `{ cwd, key, rest }`, `rest` the words after the task. Undefined when it is no recipe call.
 */
function canonicalCall(words: readonly string[], cwd: string): Call | undefined {
  const head = words[0]?.replace(/^.*\//, '')
  if (!head) return undefined
  const args = words.slice(1)
  const at = (dir: string | undefined) => (dir ? joinCwd(cwd, dir) : cwd)
  switch (head) {
    case 'make':
    case 'gmake': {
      let dir: string | undefined
      const goals: string[] = []
      const rest: string[] = []
      for (let i = 0; i < args.length; i++) {
        const w = args[i]!
        if (w === '-C' || w === '--directory') dir = joinCwd(dir ?? '.', args[++i] ?? '.')
        else if (w.startsWith('--directory=')) dir = joinCwd(dir ?? '.', w.slice(12))
        else if (/^-C./.test(w)) dir = joinCwd(dir ?? '.', w.slice(2))
        else if (w === '-f' || w === '--file' || w === '--makefile' || /^-f./.test(w) || /^--(file|makefile)=/.test(w)) return undefined
        else if (['-j', '-l', '-o', '-W', '-I'].includes(w)) i++
        else if (w.startsWith('-')) continue
        else if (/^[A-Za-z_][A-Za-z0-9_.]*\??:?\+?=/.test(w)) rest.push(w)
        else goals.push(w)
      }
      if (args.includes('-n') || args.includes('--dry-run') || args.includes('--just-print')) return undefined
      const goal = goals[0] ?? '.DEFAULT_GOAL'
      return { cwd: at(dir), key: goals[0] === undefined ? 'make' : `make ${goal}`, rest: [...rest, ...goals.slice(1)] }
    }
    case 'npm': {
      let dir: string | undefined
      let workspace: string | undefined
      const positional: string[] = []
      for (let i = 0; i < args.length; i++) {
        const w = args[i]!
        if (w === '--') { positional.push(...args.slice(i)); break }
        if (w === '--prefix' || w === '-C') dir = args[++i]
        else if (w === '-w' || w === '--workspace') workspace = args[++i]
        else if (w.startsWith('--workspace=')) workspace = w.slice(12)
        else if (w === '--workspaces' || w === '-ws') return undefined
        else if (w.startsWith('-')) continue
        else positional.push(w)
      }
      const [sub, name, ...rest] = positional
      const ws = workspace === undefined ? {} : { workspace }
      if (sub === 'run' || sub === 'run-script' || sub === 'rum' || sub === 'urn') {
        return name ? { cwd: at(dir), key: `run ${name}`, rest: rest.filter((w) => w !== '--'), ...ws } : undefined
      }
      if (sub && ['test', 't', 'tst', 'start', 'stop', 'restart'].includes(sub)) {
        const script = sub.startsWith('t') ? 'test' : sub
        return { cwd: at(dir), key: `run ${script}`, rest: [name, ...rest].filter((w): w is string => w !== undefined && w !== '--'), ...ws }
      }
      return undefined
    }
    case 'pnpm':
    case 'pn':
    case 'yarn':
    case 'bun': {
      let dir: string | undefined
      let workspace: string | undefined
      const positional: string[] = []
      for (let i = 0; i < args.length; i++) {
        const w = args[i]!
        if (w === '--') { positional.push(...args.slice(i)); break }
        if (w === '-C' || w === '--dir' || w === '--cwd') dir = args[++i]
        else if ((w === '--filter' || w === '-F') && head !== 'yarn') workspace = args[++i]
        else if (w.startsWith('--filter=')) workspace = w.slice(9)
        else if (w === 'workspace' && head === 'yarn' && positional.length === 0) workspace = args[++i]
        else if (w === '-r' || w === '--recursive' || w === 'workspaces') return undefined
        else if (w.startsWith('-')) continue
        else positional.push(w)
      }
      let [sub, ...rest] = positional
      if (sub === 'run') [sub, ...rest] = rest
      else if (sub && PM_BUILTINS.has(sub)) return undefined
      else if (head === 'bun' && sub && ['test', 'build', 'x', 'pm', 'upgrade', 'repl'].includes(sub)) return undefined
      if (!sub) return undefined
      return { cwd: at(dir), key: `run ${sub}`, rest: rest.filter((w) => w !== '--'), ...(workspace === undefined ? {} : { workspace }) }
    }
    default:
      return simpleRunnerCall(head, args, cwd)
  }
}

/** Runners whose task is the word after a fixed prefix: `just x`, `task x`, `deno task x`, `mise run x`, ... */
const TASK_PREFIXES: Readonly<Record<string, readonly (readonly string[])[]>> = {
  just: [[]], task: [[]], go: [], deno: [['task']], mise: [['run'], ['r'], []], composer: [['run-script'], ['run'], []], poe: [[]],
  pdm: [['run']], hatch: [['run']], rye: [['run']], nx: [['run']], cargo: [],
}
/** Options that take a value, for the runners above: skipped before the task. */
const TASK_VALUED: Readonly<Record<string, readonly string[]>> = {
  just: ['-f', '--justfile', '-d', '--working-directory', '--set', '--shell', '--dotenv-filename', '--dotenv-path', '--color', '--command-color'],
  task: ['-d', '--dir', '-t', '--taskfile', '-o', '--output', '-c', '--color', '--concurrency'],
  mise: ['-C', '--cd', '-E', '--env', '-j', '--jobs', '-t', '--tool'],
  composer: ['-d', '--working-dir', '--timeout'],
  poe: ['-C', '--directory', '--root', '-e', '--executor'],
}

function simpleRunnerCall(head: string, args: readonly string[], cwd: string): { cwd: string; key: string; rest: string[] } | undefined {
  const prefixes = TASK_PREFIXES[head]
  if (!prefixes || prefixes.length === 0) return undefined
  const valued = TASK_VALUED[head] ?? []
  let dir: string | undefined
  const positional: string[] = []
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!
    if (w === '--' && positional.length) { positional.push(...args.slice(i + 1)); break }
    if (w.startsWith('-')) {
      if (valued.includes(w)) {
        const value = args[++i]
        if (['-d', '--dir', '--working-directory', '-C', '--cd', '--working-dir', '--directory'].includes(w)) dir = value
        else if (['-f', '--justfile', '-t', '--taskfile'].includes(w)) return undefined
      }
      continue
    }
    positional.push(w)
  }
  for (const prefix of prefixes) {
    if (!prefix.every((p, k) => positional[k] === p)) continue
    const task = positional[prefix.length]
    if (!task) continue
    const canonical = prefixes[0]!
    return { cwd: dir ? joinCwd(cwd, dir) : cwd, key: [head, ...canonical, task].join(' '), rest: positional.slice(prefix.length + 1) }
  }
  return undefined
}

