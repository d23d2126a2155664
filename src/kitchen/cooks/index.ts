/**
 * Cook processes: the launch argv from the command template, the spawn, the cook identity by fd 1,
 * the liveness map, process-group signals, and the process facts behind them (liveness, `/proc/<pid>/stat`,
 * the path of fd 1, and who holds the lease); Linux reads /proc, elsewhere `ps` and `lsof -F`.
 *
 * A cook is identified by its stdout, never by argv or environment: the process whose fd 1 is a run
 * file `<kitchen>/tasks/<id>/runs/<n>.jsonl` cooks run n of that task. The launcher passes the O_EXCL
 * claim as fd 1, so the kernel sets the identity before the cook program runs.
 */
import { spawn } from 'node:child_process'
import { readdirSync, readFileSync, readlinkSync } from 'node:fs'
import { readFile, readlink } from 'node:fs/promises'
import { loadExeca } from '../../base/lazy.js'
import type { HolderAlive, Identity, LiveCook, RunNo, TaskId } from '../domain.js'

export type { LiveCook }
export { CookTrees, kitchenKey, COOK_MARKER_ENV, type TreeTarget } from './tree.js'

// ---------------------------------------------------------------- command template

/**
 * The cook command template (config `cookCommand`). Each element is copied with its placeholders
 * replaced:
 *
 * | placeholder    | value                                           | when unset         |
 * |----------------|-------------------------------------------------|--------------------|
 * | `{promptFile}` | absolute path of `runs/<n>.prompt.md` (required) | -                  |
 * | `{sessionDir}` | `tasks/<id>/session`                            | -                  |
 * | `{sessionId}`  | the task's session id                           | -                  |
 * | `{worktree}`   | the task's worktree (also the cwd)              | -                  |
 * | `{taskDir}`    | `tasks/<id>`                                    | -                  |
 * | `{run}`        | the run number                                  | -                  |
 * | `{model}`      | `provider/id` of the run's candidate            | element dropped    |
 * | `{thinking}`   | the candidate's thinking level                  | element dropped    |
 * | `{rulebook}`   | the project's rulebook (a name or `none`)       | element dropped    |
 * | `{cookArgs}`   | whole element only: expands to config `cookArgs` | appended at the end when absent |
 *
 * `{model}`, `{thinking}` and `{rulebook}` must share their element with the flag (`--model={model}`): a value in
 * an element of its own would leave its flag dangling when unset, and a model starting with a dash
 * could be read as a flag. With the `=` form a model is never a flag.
 */
export const DEFAULT_COOK_COMMAND: readonly string[] = [
  'dsh',
  '--profile',
  'cook',
  '--session-dir={sessionDir}',
  '--session-id={sessionId}',
  '--model={model}',
  '--thinking={thinking}',
  '--rulebook={rulebook}',
  '{cookArgs}',
  '--prompt-file={promptFile}',
]

export interface LaunchValues {
  promptFile: string
  sessionDir: string
  sessionId: string
  worktree: string
  taskDir: string
  run: number
  model?: string
  thinking?: string
  rulebook?: string
}

const REQUIRED = ['promptFile', 'sessionDir', 'sessionId', 'worktree', 'taskDir', 'run'] as const
const OPTIONAL = ['model', 'thinking', 'rulebook'] as const
const NAMES = new Set<string>([...REQUIRED, ...OPTIONAL, 'cookArgs'])
const PLACEHOLDER = /\{([A-Za-z]+)\}/g

/** The problems of a command template, each naming the fix; empty when it is usable. */
export function checkCookCommand(template: readonly string[]): string[] {
  const problems: string[] = []
  if (template.length === 0) problems.push('cookCommand is empty; give the program and its arguments, e.g. ["dsh", "--profile", "cook", "--prompt-file={promptFile}"]')
  else if (/\{[A-Za-z]+\}/.test(template[0]!)) problems.push('cookCommand[0] must be the program, not a placeholder')
  let prompt = false
  template.forEach((el, i) => {
    for (const m of el.matchAll(PLACEHOLDER)) {
      const name = m[1]!
      if (!NAMES.has(name)) problems.push(`cookCommand[${i}] has the unknown placeholder {${name}}; the placeholders are ${[...NAMES].map((n) => `{${n}}`).join(', ')}`)
      if (name === 'promptFile') prompt = true
      if (name === 'cookArgs' && el !== '{cookArgs}') problems.push(`cookCommand[${i}]: {cookArgs} must be an element of its own`)
      if ((OPTIONAL as readonly string[]).includes(name) && el === `{${name}}`) {
        problems.push(`cookCommand[${i}]: {${name}} must share its element with the flag, e.g. "--${name}={${name}}", so an unset value drops the flag too and a value is never read as a flag`)
      }
    }
  })
  if (template.length > 0 && !prompt) problems.push('cookCommand never passes {promptFile}; add e.g. "--prompt-file={promptFile}"')
  return problems
}

export class CookCommandError extends Error {
  readonly code = 'KITCHEN_COOK_COMMAND'
  override name = 'CookCommandError'
}

/** The launch argv: the template with its placeholders replaced, then `cookArgs` unless placed. */
export function cookArgv(template: readonly string[], values: LaunchValues, cookArgs: readonly string[] = []): string[] {
  const problems = checkCookCommand(template)
  if (problems.length > 0) throw new CookCommandError(problems.join('; '))
  const lookup: Record<string, string | undefined> = { ...values, run: String(values.run) }
  const out: string[] = []
  let placedArgs = false
  for (const el of template) {
    if (el === '{cookArgs}') {
      out.push(...cookArgs)
      placedArgs = true
      continue
    }
    let drop = false
    const text = el.replace(PLACEHOLDER, (_, name: string) => {
      const v = lookup[name]
      if (v === undefined || v === '') drop = true
      return v ?? ''
    })
    if (!drop) out.push(text)
  }
  if (!placedArgs) out.push(...cookArgs)
  return out
}

// ---------------------------------------------------------------- spawn

export interface SpawnRequest {
  argv: readonly string[]
  cwd: string
  /** The claimed run file, open for writing: the cook's fd 1 and its identity. */
  stdoutFd: number
  /** The err file, open for append. */
  stderrFd: number
  env: Record<string, string>
}

export interface CookExit {
  code: number | null
  signal: NodeJS.Signals | null
}

export type SpawnResult =
  | { ok: true; pid: number; exited: Promise<CookExit>; unref(): void }
  | { ok: false; reason: string }

/**
 * Spawn a cook detached in its own process group, stdin ignored, so it outlives the owner and one
 * group signal reaches it and the children that share its group.
 */
export function spawnCook(req: SpawnRequest): Promise<SpawnResult> {
  return new Promise((resolve) => {
    let child
    try {
      child = spawn(req.argv[0]!, req.argv.slice(1), {
        cwd: req.cwd,
        detached: true,
        stdio: ['ignore', req.stdoutFd, req.stderrFd],
        env: { ...process.env, ...req.env },
      })
    } catch (error) {
      resolve({ ok: false, reason: `spawn ${req.argv[0]} failed: ${(error as Error).message}` })
      return
    }
    const exited = new Promise<CookExit>((res) => child.once('exit', (code, signal) => res({ code, signal })))
    exited.catch(() => {})
    child.once('error', (error) => resolve({ ok: false, reason: `spawn ${req.argv[0]} in ${req.cwd} failed: ${error.message}` }))
    // The child stays referenced, so the owner sees its exit; `unref` lets an owner that ends leave it running.
    child.once('spawn', () => resolve({ ok: true, pid: child.pid!, exited, unref: () => child.unref() }))
  })
}

// ---------------------------------------------------------------- process facts

const LINUX = process.platform === 'linux'

/** `kill(pid, 0)`: the cheap liveness check for the hot path. EPERM means alive but not ours. */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

export interface ProcStat {
  ppid: number
  /** The process group (Linux): a cook is spawned detached, so it leads its own group. */
  pgid?: number
  /** Start time in clock ticks since boot (Linux), or the `ps` start text elsewhere. */
  start: string
  zombie: boolean
}

/** Fields of `/proc/<pid>/stat` after the command name, which may itself hold spaces and parens. */
export function parseProcStat(text: string): ProcStat | undefined {
  const close = text.lastIndexOf(')')
  if (close < 0) return undefined
  const f = text.slice(close + 2).split(' ')
  // f[0] is field 3 (state), f[1] field 4 (ppid), f[2] field 5 (pgrp), f[19] field 22 (starttime)
  if (f.length < 20) return undefined
  return { ppid: Number(f[1]), pgid: Number(f[2]), start: f[19]!, zombie: f[0] === 'Z' || f[0] === 'X' }
}

export async function procStat(pid: number): Promise<ProcStat | undefined> {
  if (LINUX) {
    try {
      return parseProcStat(await readFile(`/proc/${pid}/stat`, 'utf8'))
    } catch {
      return undefined
    }
  }
  const r = await (await loadExeca()).execa('ps', ['-o', 'ppid=,lstart=', '-p', String(pid)], { reject: false })
  const m = /^\s*(\d+)\s+(.+?)\s*$/.exec(String(r.stdout))
  return m ? { ppid: Number(m[1]), start: m[2]!, zombie: false } : undefined
}

/** One record of `lsof -F pRn` output: the process, its parent, and the name of fd 1. */
export interface LsofRecord {
  pid: number
  ppid?: number
  /** Linux only (from /proc/<pid>/stat). */
  pgid?: number
  name?: string
}

/** Parse `lsof -F pRn` (fields one per line, each led by its tag letter; `f` lines are file sets). */
export function parseLsof(text: string): LsofRecord[] {
  const out: LsofRecord[] = []
  let cur: LsofRecord | undefined
  for (const line of text.split('\n')) {
    if (line.length === 0) continue
    const tag = line[0]
    const value = line.slice(1)
    if (tag === 'p') {
      cur = { pid: Number(value) }
      out.push(cur)
    } else if (!cur) continue
    else if (tag === 'R') cur.ppid = Number(value)
    else if (tag === 'n' && cur.name === undefined) cur.name = value
  }
  return out
}

/** The path that fd 1 of `pid` points at, or undefined (gone, not ours, not a file). */
export async function stdoutPath(pid: number): Promise<string | undefined> {
  if (LINUX) {
    try {
      return await readlink(`/proc/${pid}/fd/1`)
    } catch {
      return undefined
    }
  }
  const r = await (await loadExeca()).execa('lsof', ['-w', '-a', '-p', String(pid), '-d', '1', '-F', 'pRn'], { reject: false })
  return parseLsof(String(r.stdout)).find((x) => x.pid === pid)?.name
}

/**
 * Every process with its parent and the path of its fd 1. On Linux the /proc walk is synchronous:
 * a hundred readlinks cost well under a millisecond, far less than as many promises.
 */
export async function listStdouts(): Promise<LsofRecord[]> {
  if (!LINUX) {
    const r = await (await loadExeca()).execa('lsof', ['-w', '-d', '1', '-F', 'pRn'], { reject: false })
    return parseLsof(String(r.stdout))
  }
  const out: LsofRecord[] = []
  let names: string[]
  try {
    names = readdirSync('/proc')
  } catch {
    return out
  }
  for (const n of names) {
    if (n.charCodeAt(0) < 48 || n.charCodeAt(0) > 57) continue
    let name: string
    try {
      name = readlinkSync(`/proc/${n}/fd/1`)
    } catch {
      continue // gone, or not ours to read
    }
    if (!name.startsWith('/') || !name.endsWith('.jsonl')) continue
    let st: ProcStat | undefined
    try {
      st = parseProcStat(readFileSync(`/proc/${n}/stat`, 'utf8'))
    } catch {
      continue
    }
    if (st && !st.zombie) out.push({ pid: Number(n), ppid: st.ppid, ...(st.pgid !== undefined ? { pgid: st.pgid } : {}), name })
  }
  return out
}


// ---------------------------------------------------------------- who holds the lease

/** Is the process that holds a lease still that process: alive, not a zombie, same start time. */
export const holderAlive: HolderAlive = async (h) => {
  if (!pidAlive(h.pid)) return false
  const st = await procStat(h.pid)
  return st !== undefined && !st.zombie && st.start === h.pidStart
}

/** Who this process is: the pid and its start time, as the lease records them. */
export async function selfIdentity(): Promise<Identity> {
  const st = await procStat(process.pid)
  return { pid: process.pid, pidStart: st?.start ?? 'unknown' }
}

// ---------------------------------------------------------------- identity and liveness

/** Where a run file belongs: `taskOfRunFile` of the store, closed over this kitchen's real tasks dir. */
export type RunFileOwner = (path: string) => { task: TaskId; run: RunNo } | undefined

/**
 * Scan every process once for cooks of this kitchen (activation, and an unknown unsettled run).
 * A process whose parent also writes a run file is that cook's child sharing its stdout, not a cook.
 * Where the process group is known (Linux), a process that does not lead its group is not a cook
 * either: every cook is spawned detached, and this also covers a child whose cook just died.
 */
export async function scanCooks(owner: RunFileOwner): Promise<LiveCook[]> {
  const all = await listStdouts()
  const writers = new Set<number>()
  const found: (LiveCook & { ppid?: number })[] = []
  for (const rec of all) {
    if (!rec.name) continue
    const hit = owner(rec.name)
    if (!hit) continue
    writers.add(rec.pid)
    if (rec.pgid !== undefined && rec.pgid !== rec.pid) continue
    found.push({ ...hit, pid: rec.pid, ppid: rec.ppid })
  }
  const cooks = found.filter((c) => c.ppid === undefined || !writers.has(c.ppid))
  return Promise.all(cooks.map(async ({ ppid: _p, ...c }) => ({ ...c, start: (await procStat(c.pid))?.start })))
}

/**
 * The owner's in-memory map from task to its cook's pid. No pid is stored on disk: the map is filled
 * by launches and by scans, and every check confirms the identity by fd 1 and the start time.
 */
export class CookMap {
  private readonly cooks = new Map<string, LiveCook>()

  constructor(private readonly owner: RunFileOwner) {}

  record(cook: LiveCook): void {
    this.cooks.set(cook.task, cook)
  }

  forget(task: string): void {
    this.cooks.delete(task)
  }

  get(task: string): LiveCook | undefined {
    return this.cooks.get(task)
  }

  entries(): LiveCook[] {
    return [...this.cooks.values()]
  }

  /** Adopt every cook a scan finds (a newer run of a task replaces an older entry). */
  async adoptScan(): Promise<LiveCook[]> {
    const found = await scanCooks(this.owner)
    for (const c of found) {
      const known = this.cooks.get(c.task)
      if (!known || known.run <= c.run || !(await this.confirm(known))) this.cooks.set(c.task, c)
    }
    return found
  }

  /** Is the recorded cook still that process: alive, fd 1 on its run file, same start time. */
  async confirm(cook: LiveCook): Promise<boolean> {
    if (!pidAlive(cook.pid)) return false
    const path = await stdoutPath(cook.pid)
    const hit = path ? this.owner(path) : undefined
    if (!hit || hit.task !== cook.task || hit.run !== cook.run) return false
    const st = await procStat(cook.pid)
    if (!st || st.zombie) return false
    if (cook.start !== undefined && st.start !== cook.start) return false
    return true
  }

  /** Check every known pid; drop the dead. Returns the live cooks by task. */
  async live(): Promise<Map<string, LiveCook>> {
    const out = new Map<string, LiveCook>()
    await Promise.all(
      this.entries().map(async (c) => {
        if (await this.confirm(c)) out.set(c.task, c)
        else if (this.cooks.get(c.task) === c) this.cooks.delete(c.task)
      }),
    )
    return out
  }
}

/** Signal the cook's process group, after confirming its identity. Returns whether it was sent. */
export async function signalCook(map: CookMap, cook: LiveCook, signal: 'SIGTERM' | 'SIGKILL'): Promise<boolean> {
  if (!(await map.confirm(cook))) return false
  try {
    process.kill(-cook.pid, signal)
    return true
  } catch {
    try {
      process.kill(cook.pid, signal)
      return true
    } catch {
      return false
    }
  }
}
