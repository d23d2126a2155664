/**
 * Which package.json scripts a simple command runs in its own package: `npm run x`, `npm test`,
 * `pnpm x`, `yarn x`, `bun run x`, the npm-run-all family (`run-s`, `run-p`, `npm-run-all` with
 * globs such as `build:*`), `concurrently` (its `npm:x` shortcuts and the command lines it is
 * given), and the lifecycle scripts `npm install`, `pack`, `publish` and `version` run. A call
 * into another workspace or directory (`--workspace`, `-w`, `--filter`, `-C dir`, `--prefix`,
 * `yarn workspace`) is `elsewhere`: the judge follows it through the book when it can. The words
 * come from json-shell.ts; expanding the scripts is json-package.ts'.
 */
import { posix } from 'node:path'

export type ScriptCall =
  /** One script, with its pre/post hooks. */
  | { readonly kind: 'script'; readonly name: string }
  /** Every script whose name matches, in the manifest's order, each with its hooks. */
  | { readonly kind: 'glob'; readonly pattern: string; readonly style: 'run-all' | 'wildcard' }
  /** The package's own lifecycle scripts a package-manager command runs, in this order, each bare. */
  | { readonly kind: 'lifecycle'; readonly names: readonly string[] }
  /** A command line the tool runs in a shell (a `concurrently` argument). */
  | { readonly kind: 'line'; readonly text: string }
  | { readonly kind: 'elsewhere' }
  | { readonly kind: 'unknown'; readonly why: string }

type Words = readonly (string | undefined)[]
type HasScript = (name: string) => boolean

const INSTALL = ['preinstall', 'install', 'postinstall', 'prepublish', 'preprepare', 'prepare', 'postprepare']
const PACK = ['prepack', 'prepare', 'postpack']
const PUBLISH = ['prepublishOnly', 'prepack', 'prepare', 'postpack', 'publish', 'postpublish']
const VERSION = ['preversion', 'version', 'postversion']

/** npm's commands that run scripts or lifecycle scripts (npm docs: run-script, test, start, ...). */
const RUN_ALIASES = new Set(['run', 'run-script', 'rum', 'urn'])
const NPM_COMMANDS: Readonly<Record<string, (positionals: Words) => ScriptCall[] | undefined>> = {
  run: (p) => named(p[1]), 'run-script': (p) => named(p[1]), rum: (p) => named(p[1]), urn: (p) => named(p[1]),
  test: () => [{ kind: 'script', name: 'test' }], t: () => [{ kind: 'script', name: 'test' }], tst: () => [{ kind: 'script', name: 'test' }],
  start: () => [{ kind: 'script', name: 'start' }], stop: () => [{ kind: 'script', name: 'stop' }],
  restart: () => [{ kind: 'script', name: 'restart' }, { kind: 'script', name: 'stop' }, { kind: 'script', name: 'start' }],
  install: (p) => lifecycleWithoutPackages(p, INSTALL), i: (p) => lifecycleWithoutPackages(p, INSTALL), ci: () => [{ kind: 'lifecycle', names: INSTALL }],
  pack: () => [{ kind: 'lifecycle', names: PACK }], publish: () => [{ kind: 'lifecycle', names: PUBLISH }],
  version: () => [{ kind: 'lifecycle', names: VERSION }],
}

/** Options that take the next word as their value (for the package managers' own option parsing). */
const VALUE_OPTIONS = new Set([
  '--loglevel', '--script-shell', '--userconfig', '--globalconfig', '--cache', '--registry', '--node-options', '--reporter',
  '--shell', '--elide-lines', '--env-file', '--workspace-concurrency', '--resume-from', '--max-parallel', '--npm-path', '--tag', '--otp',
])
/** Options that move the call into another package, directory or every workspace, and take a value. */
const ELSEWHERE_VALUES = new Set(['--prefix', '-C', '--dir', '--cwd', '--workspace', '--filter', '-F', '--filter-prod'])
/** The same, as flags (`-w` is npm's `--workspace <name>` and pnpm's `--workspace-root`: either way, elsewhere). */
const ELSEWHERE_FLAGS = new Set(['-w', '--workspaces', '-ws', '--include-workspace-root', '-g', '--global', '-r', '--recursive', '--workspace-root'])
/** Flags that change nothing about which script runs. */
const FLAGS = new Set([
  '-s', '--silent', '-q', '--quiet', '-d', '-dd', '-ddd', '--verbose', '--if-present', '--ignore-scripts', '--foreground-scripts',
  '--json', '--parseable', '-y', '--yes', '--stream', '--aggregate-output', '--parallel', '--sequential', '--shell-mode', '--bun',
  '--no-bail', '--report-summary', '--use-stderr', '--smol', '-b', '--offline', '--frozen-lockfile', '--color', '--no-color',
])

const PNPM_BUILTINS = new Set([
  'add', 'audit', 'bin', 'ci', 'config', 'c', 'dedupe', 'deploy', 'doctor', 'env', 'fetch', 'import', 'init', 'install-test', 'it',
  'licenses', 'link', 'ln', 'list', 'ls', 'll', 'la', 'outdated', 'patch', 'patch-commit', 'patch-remove', 'prune', 'rebuild', 'rb',
  'remove', 'rm', 'uninstall', 'un', 'uni', 'root', 'self-update', 'server', 'setup', 'store', 'unlink', 'update', 'up', 'upgrade',
  'why', 'create', 'cat-file', 'cat-index', 'find-hash', 'approve-builds', 'ignored-builds', 'help', 'owner', 'view', 'info', 'login', 'logout',
])
const YARN_BUILTINS = new Set([
  'add', 'audit', 'autoclean', 'bin', 'cache', 'check', 'config', 'create', 'dedupe', 'generate-lock-entry', 'global', 'help', 'import',
  'info', 'init', 'licenses', 'link', 'list', 'login', 'logout', 'node', 'outdated', 'owner', 'policies', 'remove', 'tag', 'team',
  'unlink', 'unplug', 'upgrade', 'upgrade-interactive', 'versions', 'why', 'dlx', 'up', 'explain', 'constraints', 'npm', 'plugin', 'set',
])
const BUN_BUILTINS = new Set([
  'test', 'repl', 'add', 'a', 'remove', 'rm', 'update', 'outdated', 'link', 'unlink', 'pm', 'build', 'init', 'create', 'c', 'upgrade',
  'audit', 'info', 'why', 'completions', 'discord', 'help', 'patch', 'patch-commit', 'feedback',
])
/** Wrappers a script call is often written behind; their own options are skipped. */
const PASS_THROUGH = new Set(['time', 'nohup', 'exec', 'command', 'nice'])
const RUN_ALL = new Set(['run-s', 'run-p', 'npm-run-all', 'npm-run-all2'])
const CONCURRENTLY = new Set(['concurrently', 'conc'])
const CONCURRENTLY_VALUES = new Set([
  '-n', '--names', '-c', '--prefix-colors', '-p', '--prefix', '-l', '--prefix-length', '-t', '--timestamp-format', '-s', '--success',
  '-m', '--max-processes', '--restart-tries', '--restart-after', '--default-input-target', '--hide', '--name-separator', '--kill-signal',
])

/**
 * The script calls of one simple command, or undefined when it calls no script of its package.
 * `has` says whether the package has a script of that name (yarn, pnpm and bun run a script by
 * its bare name only when it is not one of their commands).
 */
export function scriptCalls(words: Words, has: HasScript): ScriptCall[] | undefined {
  const rest = unwrap(words)
  if (rest === undefined || rest.length === 0) return undefined
  const program = rest[0]
  if (program === undefined) return undefined
  const args = rest.slice(1)
  switch (posix.basename(program)) {
    case 'npm': return npmCalls(args, has)
    case 'pnpm': return pnpmCalls(args, has)
    case 'yarn': return yarnCalls(args, has)
    case 'bun': return bunCalls(args, has)
    case 'npx': case 'pnpx': case 'bunx': return binCalls(skipOptions(args))
    default: return binCalls(rest)
  }
}

/** The npm-run-all family and concurrently, by their bin name. */
function binCalls(words: Words): ScriptCall[] | undefined {
  const bin = words[0] === undefined ? undefined : posix.basename(words[0])
  if (bin !== undefined && RUN_ALL.has(bin)) return runAllCalls(words.slice(1))
  if (bin !== undefined && CONCURRENTLY.has(bin)) return concurrentlyCalls(words.slice(1))
  return undefined
}

/** The words after `env A=1`, `cross-env A=1`, `time`, ...; undefined when a wrapper word expands. */
function unwrap(words: Words): Words | undefined {
  let i = 0
  for (let guard = 0; guard < 16 && i < words.length; guard++) {
    const w = words[i]
    if (w === undefined) return words.slice(i)
    const base = posix.basename(w)
    if (base === 'env' || base === 'cross-env') {
      i++
      const skipped = (w: string | undefined) => w === undefined || /^[A-Za-z_][A-Za-z0-9_]*=/.test(w) || w.startsWith('-')
      while (i < words.length && skipped(words[i])) i += words[i] === '-u' ? 2 : 1
    } else if (PASS_THROUGH.has(base)) {
      i++
      while (i < words.length && words[i]?.startsWith('-')) i += words[i] === '-n' ? 2 : 1
    } else {
      break
    }
  }
  return words.slice(i)
}

/** The words after a runner's leading options (`npx -y run-s` → `run-s ...`). */
function skipOptions(words: Words): Words {
  let i = 0
  while (i < words.length && words[i]?.startsWith('-')) i += words[i] === '-p' || words[i] === '--package' ? 2 : 1
  return words.slice(i)
}

interface Parsed {
  readonly positionals: Words
  readonly elsewhere: boolean
  /** An option this module does not know, before the first positional: which word is the script can't be told. */
  readonly unknownOption?: string
}

/**
 * A package manager's words as options and positionals (up to `--`). Only options before the
 * second positional matter: after the script name, everything is the script's.
 */
function parseOptions(words: Words): Parsed {
  const positionals: (string | undefined)[] = []
  let elsewhere = false
  let unknownOption: string | undefined
  for (let i = 0; i < words.length && positionals.length < 2; i++) {
    const w = words[i]
    if (w === '--') break
    if (w === undefined || !w.startsWith('-') || w === '-') {
      positionals.push(w)
      continue
    }
    const inline = w.includes('=')
    const name = inline ? w.slice(0, w.indexOf('=')) : w
    if (ELSEWHERE_VALUES.has(name)) {
      elsewhere = true
      if (!inline) i++
    } else if (ELSEWHERE_FLAGS.has(name)) {
      elsewhere = true
    } else if (VALUE_OPTIONS.has(name)) {
      if (!inline) i++
    } else if (!FLAGS.has(name) && !name.startsWith('--no-') && !inline) {
      unknownOption ??= w
    }
  }
  return { positionals, elsewhere, ...(unknownOption !== undefined ? { unknownOption } : {}) }
}

function anyElsewhere(words: Words): boolean {
  const end = words.indexOf('--')
  return (end === -1 ? words : words.slice(0, end)).some((w) => w !== undefined && (ELSEWHERE_FLAGS.has(w) || ELSEWHERE_VALUES.has(w.split('=')[0]!)))
}

function named(name: string | undefined): ScriptCall[] | undefined {
  if (name === undefined) return [{ kind: 'unknown', why: 'the script name is computed when the line runs' }]
  return [{ kind: 'script', name }]
}

/** `npm install` in a package runs its lifecycle scripts; `npm install pkg` installs another package. */
function lifecycleWithoutPackages(positionals: Words, names: readonly string[]): ScriptCall[] | undefined {
  return positionals.length > 1 ? undefined : [{ kind: 'lifecycle', names }]
}

/** The verdict of a parse before its command is looked at: elsewhere, or an option that hides the script. */
function preamble(p: Parsed): ScriptCall[] | undefined {
  if (p.elsewhere) return [{ kind: 'elsewhere' }]
  if (p.unknownOption === undefined) return undefined
  const why = `the option ${p.unknownOption} comes before the script name, and whether it takes the next word decides which script runs`
  return [{ kind: 'unknown', why }]
}

function npmCalls(args: Words, has: HasScript): ScriptCall[] | undefined {
  // npm reads its options anywhere before `--` (`npm run build -w a` runs in workspace a).
  const p = { ...parseOptions(args), elsewhere: anyElsewhere(args) }
  const command = p.positionals[0]
  if (command === 'exec' || command === 'x') return binCalls(skipOptions(afterCommand(args, command)))
  const handler = command !== undefined && Object.hasOwn(NPM_COMMANDS, command) ? NPM_COMMANDS[command] : undefined
  if (handler === undefined) return undefined
  if (RUN_ALIASES.has(command!) && p.positionals.length < 2) return undefined // a bare `npm run` lists the scripts
  return preamble(p) ?? handler(p.positionals)
}

function pnpmCalls(args: Words, has: HasScript): ScriptCall[] | undefined {
  const p = parseOptions(args)
  const command = p.positionals[0]
  if (command === undefined) return p.positionals.length === 0 ? undefined : [{ kind: 'unknown', why: 'the pnpm command is computed when the line runs' }]
  if (command === 'exec' || command === 'dlx') return binCalls(skipOptions(afterCommand(args, command)))
  if (command === 'run' || command === 'run-script') {
    const name = p.positionals[1]
    if (name === undefined && p.positionals.length < 2) return undefined
    if (name !== undefined && name.length > 1 && name.startsWith('/') && name.endsWith('/')) {
      return preamble(p) ?? [{ kind: 'unknown', why: `pnpm runs every script whose name matches the regular expression ${name}` }]
    }
    return preamble(p) ?? named(name)
  }
  if (command === 'test' || command === 't' || command === 'tst' || command === 'start' || command === 'stop' || command === 'restart') {
    return preamble(p) ?? NPM_COMMANDS[command]!(p.positionals)
  }
  if (command === 'install' || command === 'i') return preamble(p) ?? lifecycleWithoutPackages(p.positionals, INSTALL)
  if (command === 'pack' || command === 'publish' || command === 'version') return preamble(p) ?? NPM_COMMANDS[command]!(p.positionals)
  if (PNPM_BUILTINS.has(command)) return undefined
  // pnpm runs an unknown command as a script when there is one, else as a bin (`pnpm run-s ...`).
  if (has(command)) return preamble(p) ?? [{ kind: 'script', name: command }]
  return binCalls(afterCommand(args, command, true))
}

function yarnCalls(args: Words, has: HasScript): ScriptCall[] | undefined {
  const p = parseOptions(args)
  const command = p.positionals[0]
  if (args.length === 0) return [{ kind: 'lifecycle', names: INSTALL }] // a bare `yarn` installs
  if (p.positionals.length === 0) return undefined
  if (command === undefined) return [{ kind: 'unknown', why: 'the yarn command is computed when the line runs' }]
  if (command === 'workspace' || command === 'workspaces') return [{ kind: 'elsewhere' }]
  if (command === 'exec') return binCalls(afterCommand(args, command))
  if (command === 'run') {
    const name = p.positionals[1]
    if (name === undefined && p.positionals.length < 2) return undefined
    if (name !== undefined && !has(name)) return binCalls(afterCommand(afterCommand(args, 'run'), name, true))
    return preamble(p) ?? named(name)
  }
  if (command === 'install') return preamble(p) ?? [{ kind: 'lifecycle', names: INSTALL }]
  if (command === 'pack' || command === 'publish' || command === 'version') return preamble(p) ?? NPM_COMMANDS[command]!(p.positionals)
  if (YARN_BUILTINS.has(command)) return undefined
  if (has(command)) return preamble(p) ?? [{ kind: 'script', name: command }]
  return binCalls(afterCommand(args, command, true))
}

function bunCalls(args: Words, has: HasScript): ScriptCall[] | undefined {
  const p = parseOptions(args)
  const command = p.positionals[0]
  if (command === undefined) return p.positionals.length === 0 ? undefined : [{ kind: 'unknown', why: 'the bun command is computed when the line runs' }]
  if (command === 'x' || command === 'exec') return binCalls(skipOptions(afterCommand(args, command)))
  if (command === 'install' || command === 'i') return preamble(p) ?? lifecycleWithoutPackages(p.positionals, INSTALL)
  if (command === 'run') {
    const name = p.positionals[1]
    if (name === undefined && p.positionals.length < 2) return undefined
    if (name !== undefined && !has(name)) return binCalls(afterCommand(afterCommand(args, 'run'), name, true))
    return preamble(p) ?? named(name)
  }
  if (BUN_BUILTINS.has(command) || command.includes('/') || /\.[cm]?[jt]sx?$/.test(command)) return undefined
  if (has(command)) return preamble(p) ?? [{ kind: 'script', name: command }]
  return binCalls(afterCommand(args, command, true))
}

/** The words after the first occurrence of `command` (with it when `keep`). */
function afterCommand(words: Words, command: string, keep = false): Words {
  const i = words.indexOf(command)
  return i === -1 ? [] : words.slice(keep ? i : i + 1)
}

/** `run-s a b:*`, `run-p ...`, `npm-run-all -s a -p b c`: every pattern, in order. */
function runAllCalls(args: Words): ScriptCall[] {
  const calls: ScriptCall[] = []
  for (let i = 0; i < args.length; i++) {
    const w = args[i]
    if (w === '--') break
    if (w === undefined) {
      calls.push({ kind: 'unknown', why: 'a script pattern of npm-run-all is computed when the line runs' })
      continue
    }
    if (w.startsWith('-')) {
      if (VALUE_OPTIONS.has(w)) i++
      continue
    }
    // npm-run-all reads `"build -- --watch"` as a pattern and its arguments.
    const pattern = w.trim().split(/\s+/)[0]!
    if (pattern !== '') calls.push(/[*?[{!]/.test(pattern) ? { kind: 'glob', pattern, style: 'run-all' } : { kind: 'script', name: pattern })
  }
  return calls
}

/** `concurrently "npm:watch-*" "tsc -w"`: the npm shortcuts as scripts, the rest as command lines. */
function concurrentlyCalls(args: Words): ScriptCall[] {
  const calls: ScriptCall[] = []
  for (let i = 0; i < args.length; i++) {
    const w = args[i]
    if (w === undefined) {
      calls.push({ kind: 'unknown', why: 'a command given to concurrently is computed when the line runs' })
      continue
    }
    if (w.startsWith('-')) {
      if (CONCURRENTLY_VALUES.has(w)) i++
      continue
    }
    const shortcut = /^(?:npm|pnpm|yarn|bun|node):(\S+)/.exec(w)
    if (shortcut) {
      // `npm:lint:*(!fix)` excludes names; taking them all is the side that never misses one.
      const pattern = shortcut[1]!.replace(/\(!.*\)$/, '')
      calls.push(pattern.includes('*') ? { kind: 'glob', pattern, style: 'wildcard' } : { kind: 'script', name: pattern })
    } else {
      calls.push({ kind: 'line', text: w })
    }
  }
  return calls
}
