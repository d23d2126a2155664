/**
 * Cook processes: the launch argv from the command template, the spawn, the cook identity by fd 1,
 * the liveness map, and process-group signals. The process facts it reads are in `process.ts`.
 *
 * A cook is identified by its stdout, never by argv or environment: the process whose fd 1 is a run
 * file `<kitchen>/tasks/<id>/runs/<n>.jsonl` cooks run n of that task. The launcher passes the O_EXCL
 * claim as fd 1, so the kernel sets the identity before the cook program runs.
 */
import { spawn } from 'node:child_process'
import type { LiveCook, RunNo, TaskId } from '../domain.js'
import { listStdouts, pidAlive, procStat, stdoutPath } from './process.js'

export {
  holderAlive, listStdouts, parseLsof, parseProcStat, pidAlive, procStat, selfIdentity, stdoutPath,
  type LsofRecord, type ProcStat,
} from './process.js'
export type { LiveCook }

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
 * | `{cookArgs}`   | whole element only: expands to config `cookArgs` | appended at the end when absent |
 *
 * `{model}` and `{thinking}` must share their element with the flag (`--model={model}`): a value in
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
}

const REQUIRED = ['promptFile', 'sessionDir', 'sessionId', 'worktree', 'taskDir', 'run'] as const
const OPTIONAL = ['model', 'thinking'] as const
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
      if ((name === 'model' || name === 'thinking') && el === `{${name}}`) {
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
