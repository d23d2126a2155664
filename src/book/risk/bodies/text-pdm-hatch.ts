/**
 * What pdm, hatch and rye scripts run, read as each runner runs them:
 * - pdm (`pdm run <script> <words>`, pdm's TaskRunner): the `pre_run` script, then for the script
 *   and each script a composite names: `pre_script`, `pre_<name>`, the script, `post_<name>`,
 *   `post_script`; then `post_run`. A string or `cmd` is a command line, `{args}` interpolated or
 *   the words appended; `shell` the same as a shell line; `composite` items are scripts or
 *   commands; `call` is a Python function (unknown). `working_dir` moves the lines.
 * - hatch (`hatch run [env:]<script> <words>`): the env's scripts (its template's included), a
 *   command whose first word names another script expanded into that script's commands (its
 *   words appended), `{args}` and hatch's context fields formatted, `- ` (ignore the exit code) dropped.
 * - rye (`rye run <script> <words>`): `cmd` (the words appended), `chain` (each script), `call` (unknown).
 */
import type { BodyBuilder, LineAt } from './text-body.js'
import { cwdOf, holeWord, MAX_DEPTH, MAX_LINES, shellJoin } from './text-body.js'
import { splitWords, strings, table, type Table } from './text-python.js'

interface Frame {
  readonly out: BodyBuilder
  readonly at: LineAt
}

// ---------------------------------------------------------------- pdm

export interface PdmRun extends Frame {
  readonly scripts: Table
  readonly root: string
  readonly lineOf: (name: string) => number | undefined
}

const PDM_PLACEHOLDER = /\{([^}:]+)(?::([^}]*))?\}/g

/** pdm's `interpolate`: `{args}`, `{args:default}`, `{pdm}`, `{run_cwd}`; whether `{args}` was there. */
function pdmInterpolate(text: string, args: readonly string[], root: string): { text: string; usedArgs: boolean } {
  let usedArgs = false
  const out = text.replace(PDM_PLACEHOLDER, (whole, name: string, def?: string) => {
    if (name === 'args') {
      usedArgs = true
      return args.length ? shellJoin(args) : def ?? ''
    }
    if (name === 'pdm') return 'pdm'
    if (name === 'run_cwd') return shellJoin([root])
    return whole
  })
  return { text: out, usedArgs }
}

function pdmKind(def: unknown): { kind: string; value: unknown; options: Table } | undefined {
  if (typeof def === 'string' || Array.isArray(def)) return { kind: 'cmd', value: def, options: {} }
  const t = table(def)
  const kind = ['cmd', 'shell', 'call', 'composite'].find((k) => t?.[k] !== undefined)
  return t && kind ? { kind, value: t[kind], options: t } : undefined
}

/** pdm's `run`: a script with its hooks, or a plain command. */
export function runPdm(run: PdmRun, name: string, args: readonly string[], via: readonly string[], seen: readonly string[]): void {
  const at = { ...run.at, via }
  if (!run.out.step(at)) return
  if (!(name in run.scripts)) return run.out.add(shellJoin([name, ...args]), at)
  if (seen.length >= MAX_DEPTH) return run.out.addUnknown(via[via.length - 1]!, `scripts nest more than ${MAX_DEPTH} deep; not followed`, at)
  const kind = pdmKind(run.scripts[name])
  if (kind?.kind === 'composite' && seen.includes(name)) return run.out.addUnknown(via[via.length - 1]!, `pdm script ${name} is recursive; pdm refuses it`, at)
  const hook = (n: string) => n in run.scripts && runPdmTask(run, n, [], [...via, `pdm run ${n}`], seen)
  hook('pre_script')
  hook(`pre_${name}`)
  runPdmTask(run, name, args, via, [...seen, name])
  hook(`post_${name}`)
  hook('post_script')
}

/** pdm's `run_task`: one script's body. */
export function runPdmTask(run: PdmRun, name: string, args: readonly string[], via: readonly string[], seen: readonly string[]): void {
  const k = pdmKind(run.scripts[name])
  const global = table(run.scripts._) ?? {}
  const dir = typeof k?.options.working_dir === 'string' ? k.options.working_dir : typeof global.working_dir === 'string' ? global.working_dir : undefined
  const line = run.lineOf(name)
  const at: LineAt = { ...run.at, via, ...(line !== undefined ? { line } : {}), ...(dir ? { cwd: cwdOf(run.root, '.', dir) } : {}) }
  if (!k) return run.out.addUnknown(`pdm run ${name}`, `pdm script ${name} is of no kind pdm knows`, at)
  if (k.kind === 'call') return run.out.addUnknown(String(k.value), 'a pdm call script runs a Python function, whose code the gate does not read', at)
  if (k.kind === 'cmd' || k.kind === 'shell') {
    const parts = typeof k.value === 'string' ? [k.value] : strings(k.value) ?? []
    let usedArgs = false
    const texts = parts.map((p) => {
      const r = pdmInterpolate(p, args, run.root)
      usedArgs ||= r.usedArgs
      return r.text
    })
    const line = typeof k.value === 'string' ? texts[0]! : shellJoin(texts)
    return run.out.add(usedArgs || args.length === 0 ? line.trim() : `${line.trim()} ${shellJoin(args)}`, at)
  }
  const items = (strings(k.value) ?? []).map((s) => pdmInterpolate(s, args, run.root))
  const usedArgs = items.some((i) => i.usedArgs)
  for (const item of items) {
    const words = splitWords(item.text)
    if (!words || words.length === 0) continue
    const sub = [...words.slice(1), ...(usedArgs ? [] : args)]
    runPdm(run, words[0]!, sub, words[0]! in run.scripts ? [...via, `pdm run ${words[0]}`] : via, seen)
  }
}

// ---------------------------------------------------------------- hatch

export interface HatchRun extends Frame {
  readonly envs: Table
  readonly root: string
}

/** An env's scripts, its template's first (hatch's inheritance), `extra-scripts` under `scripts`. */
export function hatchEnvScripts(envs: Table, env: string, seen: readonly string[] = []): Map<string, string[]> {
  const conf = table(envs[env])
  const template = env === 'default' ? undefined : typeof conf?.template === 'string' ? conf.template : 'default'
  const inherits = template !== undefined && template !== env && !seen.includes(template) && seen.length < MAX_DEPTH
  const known = inherits && (template === 'default' || envs[template!] !== undefined)
  const base = known ? hatchEnvScripts(envs, template!, [...seen, env]) : new Map<string, string[]>()
  const own = new Map<string, string[]>()
  for (const field of ['extra-scripts', 'scripts']) {
    for (const [name, def] of Object.entries(table(conf?.[field]) ?? {})) {
      const commands = typeof def === 'string' ? [def] : strings(def)
      if (commands) own.set(name, commands)
    }
  }
  return new Map([...base, ...own])
}

/** hatch's `parse_script_command`: the first word, the rest, and whether `- ` ignores the exit code. */
function parseScriptCommand(command: string): { first: string; rest: string; ignore: boolean } {
  let [first, rest] = split1(command)
  let ignore = false
  if (first === '-') {
    ignore = true
    ;[first, rest] = split1(rest)
  }
  return { first, rest, ignore }
}

function split1(text: string): [string, string] {
  const i = text.indexOf(' ')
  return i === -1 ? [text, ''] : [text.slice(0, i), text.slice(i + 1)]
}

/** hatch's `expand_script_commands`: other scripts named as a command's first word, expanded (each once, bounded). */
function expandScript(
  run: HatchRun,
  scripts: Map<string, string[]>,
  name: string,
  active: readonly string[],
  done = new Map<string, string[]>(),
): string[] | undefined {
  if (active.includes(name) || active.length >= MAX_DEPTH) return undefined
  if (done.has(name)) return done.get(name)
  const out: string[] = []
  done.set(name, out)
  for (const command of scripts.get(name) ?? []) {
    if (out.length > MAX_LINES) break
    const { first, rest, ignore } = parseScriptCommand(command)
    if (!scripts.has(first)) {
      out.push(command)
      continue
    }
    const inner = expandScript(run, scripts, first, [...active, name], done)
    if (!inner) {
      run.out.addUnknown(command, `hatch script ${first} expands into itself (a cycle); hatch refuses it`, run.at)
      continue
    }
    for (const c of inner) out.push(rest ? `${c} ${rest}` : ignore && !c.startsWith('- ') ? `- ${c}` : c)
  }
  return out
}

/** hatch's context formatting of one command (Python `str.format` fields). */
function hatchFormat(command: string, args: string | undefined, env: string, root: string): { text: string; holes: string[] } {
  const holes: string[] = []
  const text = command.replace(/\{\{|\}\}|\{([^{}]*)\}/g, (whole, field?: string) => {
    if (whole === '{{') return '{'
    if (whole === '}}') return '}'
    const [name, ...mods] = (field ?? '').split(':')
    const modifier = mods.join(':')
    switch (name) {
      case 'args':
        return args ?? modifier
      case 'root':
        return modifier === 'parent' ? root.replace(/\/[^/]*$/, '') : root
      case '/':
        return '/'
      case ';':
        return ':'
      case 'env_name':
        return env
      case 'env': {
        const [variable] = modifier.split(':')
        holes.push(variable || 'UNKNOWN')
        return holeWord(variable || 'UNKNOWN')
      }
      default:
        holes.push(name || 'UNKNOWN')
        return holeWord(name || 'UNKNOWN')
    }
  })
  return { text, holes }
}

/** `hatch run [env:]script words`: the script's commands expanded and formatted. */
export function runHatch(run: HatchRun, qualified: string, args: readonly string[]): void {
  const colon = qualified.indexOf(':')
  const env = colon === -1 ? 'default' : qualified.slice(0, colon)
  const name = colon === -1 ? qualified : qualified.slice(colon + 1)
  const scripts = hatchEnvScripts(run.envs, env)
  const commands = expandScript(run, scripts, name, []) ?? []
  const joined = args.length ? shellJoin(args) : undefined
  for (const command of commands) {
    const f = hatchFormat(command, joined, env, run.root)
    const text = f.text.replace(/^- /, '').trim()
    run.out.add(text, run.at)
    if (f.holes.length) run.out.addUnknown(command, f.holes.map((h) => `hatch fills {${h}} when it runs`).join('; '), run.at)
  }
}

// ---------------------------------------------------------------- rye

export interface RyeRun extends Frame {
  readonly scripts: Table
  readonly lineOf: (name: string) => number | undefined
}

/** `rye run script words`. */
export function runRye(run: RyeRun, name: string, args: readonly string[], via: readonly string[], stack: readonly string[]): void {
  const line = run.lineOf(name)
  const at = { ...run.at, via, ...(line !== undefined ? { line } : {}) }
  if (!run.out.step(at)) return
  const def = run.scripts[name]
  if (def === undefined) return run.out.add(shellJoin([name, ...args]), at)
  if (stack.includes(name) || stack.length >= MAX_DEPTH) {
    return run.out.addUnknown(via[via.length - 1]!, `rye script ${name} calls itself or nests too deep; not followed`, at)
  }
  const t = table(def)
  const cmd = typeof def === 'string' || Array.isArray(def) ? def : t?.cmd
  if (typeof cmd === 'string') return run.out.add(args.length ? `${cmd} ${shellJoin(args)}` : cmd, at)
  if (strings(cmd)) return run.out.add(shellJoin([...strings(cmd)!, ...args]), at)
  if (strings(t?.chain)) {
    for (const s of strings(t!.chain)!) runRye(run, s, [], [...via, `rye run ${s}`], [...stack, name])
    return
  }
  if (typeof t?.call === 'string') return run.out.addUnknown(t.call, 'a rye call script runs a Python function, whose code the gate does not read', at)
  run.out.addUnknown(`rye run ${name}`, `rye script ${name} is of no kind rye knows`, at)
}

