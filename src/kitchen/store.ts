/**
 * The kitchen on disk: the only module that knows the layout, forwards (paths, writes) and backwards
 * (`taskOfRunFile`). One writer per file; every file read is checked before a field is used.
 *
 *   <root>/config.json                 the person (read only here)
 *   <root>/pass.lock                   the lease holder: Lease
 *   <root>/projects/<name>.json        the owner, once: ProjectSpec
 *   <root>/tasks/<id>/task.json        the owner, once: TaskSpec (tmp + rename; mkdir of <id> is the exclusive step)
 *   <root>/tasks/<id>/log.jsonl        the owner, append: LogEvent lines
 *   <root>/tasks/<id>/runs/<n>.prompt.md  the owner: the launch intent of run n
 *   <root>/tasks/<id>/runs/<n>.jsonl   the cook's stdout; the owner only creates it empty (O_EXCL: the claim)
 *   <root>/tasks/<id>/runs/<n>.err     the cook's stderr, opened for append
 *   <root>/tasks/<id>/session/         the cook's agent session, shared by all runs
 *   <root>/tasks/<id>/inbox/*.msg      the owner, tmp + rename; inbox/handled/ holds delivered ones
 *   <root>/worktrees/<id>/             git, then the cook
 *
 * Calls are synchronous: the files are small and local, and a tick makes thousands of stat calls whose
 * round trip through the thread pool would cost more than the calls. Writes are atomic (tmp + rename),
 * not durable (no fsync).
 */
import { randomBytes } from 'node:crypto'
import {
  appendFileSync, closeSync, fstatSync, linkSync, mkdirSync, openSync, readdirSync, readFileSync, readSync,
  realpathSync, renameSync, statSync, unlinkSync, utimesSync, writeFileSync, type Stats,
} from 'node:fs'
import { basename, dirname, isAbsolute, join, sep } from 'node:path'
import { normalizeKitchenConfig, type NormalizedConfig } from './config.js'
import {
  INBOX_NAME, KitchenError, inboxName, isProjectName, isTaskId, lease as leaseParser, parseLogLine,
  parseProject, parseRunLine, parseTask, parseTaskId, runNo, taskId,
  type KitchenConfig, type Lease, type LogEvent, type Millis, type PendingMessage, type ProjectName,
  type ProjectSpec, type RunNo, type TaskId, type TaskSpec,
} from './domain.js'
import { check } from './check.js'
import { LineReader } from './line-reader.js'
import { EMPTY_RUN_FOLD, foldRunLines, type RunFold } from './run-fold.js'

/** One run of a task as the snapshot sees it. */
export interface RunRecord {
  readonly n: RunNo
  /** `runs/<n>.prompt.md` exists. */
  readonly hasPrompt: boolean
  /** `runs/<n>.jsonl` exists: the run was claimed. */
  readonly claimed: boolean
  /** Bytes in the run file. */
  readonly size: number
  /** The run file's mtime: for an empty claim, when it was claimed. */
  readonly mtimeMs: Millis
  /** Bytes in `runs/<n>.err`. */
  readonly errSize: number
  /** The end of the err file (up to 2 KiB), read only when it grew. */
  readonly errTail: string
  readonly fold: RunFold
}

/** A task as read from disk, before anything is derived. */
export interface TaskRecord {
  readonly id: TaskId
  readonly spec: TaskSpec
  readonly log: readonly LogEvent[]
  /** Runs with a prompt or a run file, ascending. */
  readonly runs: readonly RunRecord[]
  /** Messages waiting in the inbox, oldest first. */
  readonly inbox: readonly PendingMessage[]
  /** Only known for closed tasks: the worktree is still on disk. */
  readonly worktreeExists: boolean
  /** Log and run lines skipped because they did not parse. */
  readonly badLines: number
}

export interface BrokenTask {
  readonly id: string
  readonly reason: string
}

export interface KitchenSnapshot {
  readonly at: Millis
  readonly config: KitchenConfig
  /** Lines for the person: config problems and skipped project files. Stable text while they last. */
  readonly errors: readonly string[]
  readonly projects: readonly ProjectSpec[]
  /** Every task whose task.json parses, closed ones included, in id order. */
  readonly tasks: readonly TaskRecord[]
  readonly broken: readonly BrokenTask[]
  readonly badLines: number
}

export interface InboxMessage extends PendingMessage {
  text: string
}

/** A directory is trusted unchanged by its mtime only when it was last seen this long after that mtime. */
const RACY_MS = 2_000
/** A task directory without task.json younger than this is being created, not broken. */
const CREATING_MS = 10_000
const ERR_TAIL = 2_048

interface DirSig { mtimeMs: number; ino: number; seenAt: number }
interface FileSig { mtimeMs: number; ino: number; size: number }

class RunCache {
  readonly path: string
  readonly errPath: string
  hasPrompt = false
  claimed = false
  size = 0
  mtimeMs = 0
  errSize = 0
  errTail = ''
  fold: RunFold = EMPTY_RUN_FOLD
  reader = new LineReader()
  /** A newer run exists and this one had its final read. */
  frozen = false
  record?: RunRecord
  constructor(readonly n: RunNo, runsDir: string) {
    this.path = join(runsDir, `${n}.jsonl`)
    this.errPath = join(runsDir, `${n}.err`)
  }

  resetClaim(): void {
    this.fold = EMPTY_RUN_FOLD
    this.reader = new LineReader()
    this.size = 0
    this.mtimeMs = 0
    this.errSize = 0
    this.errTail = ''
    this.frozen = false
  }
}

class TaskCache {
  /** Paths, joined once: the tick would otherwise join them thousands of times. */
  readonly dir: string
  readonly runsPath: string
  readonly inboxPath: string
  spec?: TaskSpec
  specSig?: FileSig
  broken?: string
  log: LogEvent[] = []
  logBad = 0
  logReader = new LineReader()
  closed = false
  worktreeGone = false
  runsDir?: DirSig
  runs = new Map<number, RunCache>()
  inboxDir?: DirSig
  inbox: PendingMessage[] = []
  taskDirSig?: DirSig
  record?: TaskRecord
  constructor(readonly id: string, tasksDir: string) {
    this.dir = join(tasksDir, id)
    this.runsPath = join(this.dir, 'runs')
    this.inboxPath = join(this.dir, 'inbox')
  }

  /** The last run is claimed and has not settled: its cook may be writing, or moving messages. */
  active(): boolean {
    let last: RunCache | undefined
    for (const r of this.runs.values()) if (!last || r.n > last.n) last = r
    return last !== undefined && last.claimed && last.fold.settledAt === undefined
  }
}

function stat(path: string): Stats | undefined {
  return statSync(path, { throwIfNoEntry: false })
}

function errno(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code
}

let tmpSeq = 0
function tmpName(dir: string, base: string): string {
  return join(dir, `.${base}.${process.pid}.${++tmpSeq}.${randomBytes(4).toString('hex')}.tmp`)
}

/** Writes `text` to `path` through a temp file in the same directory and a rename. */
function writeAtomic(path: string, text: string): void {
  const tmp = tmpName(dirname(path), basename(path))
  writeFileSync(tmp, text, { mode: 0o644, flag: 'wx' })
  try {
    renameSync(tmp, path)
  } catch (error) {
    try { unlinkSync(tmp) } catch { /* already gone */ }
    throw error
  }
}

/** Creates `path` with `text` only if it does not exist; complete or absent, never half-written. */
function createExclusive(path: string, text: string): boolean {
  const tmp = tmpName(dirname(path), basename(path))
  writeFileSync(tmp, text, { mode: 0o644, flag: 'wx' })
  try {
    linkSync(tmp, path)
    return true
  } catch (error) {
    if (errno(error) === 'EEXIST') return false
    throw error
  } finally {
    unlinkSync(tmp)
  }
}

function readJson(path: string): { ok: true; value: unknown } | { ok: false; reason: string; missing?: boolean } {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    if (errno(error) === 'ENOENT') return { ok: false, reason: `${basename(path)} is missing`, missing: true }
    return { ok: false, reason: `${basename(path)} cannot be read: ${(error as Error).message}` }
  }
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch (error) {
    return { ok: false, reason: `${basename(path)} is not valid JSON: ${(error as Error).message}` }
  }
}

export class Store {
  /** The kitchen root as given, and as the kernel reports it (symlinks resolved). */
  readonly root: string
  readonly realRoot: string
  private readonly realTasks: string
  private readonly tasks = new Map<string, TaskCache>()
  private tasksDir?: DirSig
  private taskNames: string[] = []
  private configSig?: FileSig
  private configCache: NormalizedConfig = normalizeKitchenConfig(undefined)
  private projectsDir?: DirSig
  private projectCache = new Map<string, { sig: FileSig; spec?: ProjectSpec; error?: string }>()

  private constructor(root: string) {
    this.root = root
    this.realRoot = realpathSync.native(root)
    this.realTasks = join(this.realRoot, 'tasks')
  }

  /** Opens the kitchen at `root`, creating its directories when they are missing. */
  static open(root: string): Store {
    for (const dir of ['projects', 'tasks', 'worktrees']) mkdirSync(join(root, dir), { recursive: true })
    return new Store(root)
  }

  /** The kitchen of a cook's task directory: two levels up (`<root>/tasks/<id>`). */
  static kitchenOfTaskDir(taskDir: string): string {
    return dirname(dirname(taskDir))
  }

  // ---------------------------------------------------------------- paths

  get configFile(): string { return join(this.root, 'config.json') }
  get leaseFile(): string { return join(this.root, 'pass.lock') }
  projectFile(name: ProjectName): string { return join(this.root, 'projects', `${name}.json`) }
  taskDir(id: TaskId): string { return join(this.root, 'tasks', id) }
  taskFile(id: TaskId): string { return join(this.taskDir(id), 'task.json') }
  logFile(id: TaskId): string { return join(this.taskDir(id), 'log.jsonl') }
  promptFile(id: TaskId, run: RunNo): string { return join(this.taskDir(id), 'runs', `${run}.prompt.md`) }
  runFile(id: TaskId, run: RunNo): string { return join(this.taskDir(id), 'runs', `${run}.jsonl`) }
  errFile(id: TaskId, run: RunNo): string { return join(this.taskDir(id), 'runs', `${run}.err`) }
  sessionDir(id: TaskId): string { return join(this.taskDir(id), 'session') }
  inboxDir(id: TaskId): string { return join(this.taskDir(id), 'inbox') }
  worktree(id: TaskId): string { return join(this.root, 'worktrees', id) }

  /**
   * The task and run of a run file, or undefined for every path that is not `<n>.jsonl` under this
   * kitchen's real `tasks/<id>/runs/`: relative paths, `..` segments, other files, another kitchen,
   * a task directory that is a symlink to elsewhere, a file that does not exist.
   */
  taskOfRunFile(path: string): { task: TaskId; run: RunNo } | undefined {
    if (!isAbsolute(path) || path.split(/[\\/]/).includes('..')) return undefined
    let real: string
    try {
      real = realpathSync.native(path)
    } catch {
      return undefined
    }
    if (!real.startsWith(this.realTasks + sep)) return undefined
    const parts = real.slice(this.realTasks.length + 1).split(sep)
    if (parts.length !== 3 || parts[1] !== 'runs') return undefined
    const m = /^([1-9][0-9]{0,8})\.jsonl$/.exec(parts[2]!)
    if (!m || !isTaskId(parts[0])) return undefined
    return { task: parts[0], run: Number(m[1]) as RunNo }
  }

  // ---------------------------------------------------------------- config and lease

  /** Reads config.json now. A missing file is the defaults; a bad one the defaults plus error lines. */
  loadConfig(): NormalizedConfig {
    const r = readJson(this.configFile)
    if (r.ok) return normalizeKitchenConfig(r.value)
    if (r.missing) return normalizeKitchenConfig(undefined)
    return { config: normalizeKitchenConfig(undefined).config, errors: [`${r.reason}; the kitchen uses the default config until this is fixed`] }
  }

  readLease(): { kind: 'none' } | { kind: 'lease'; lease: Lease } | { kind: 'broken'; reason: string } {
    const r = readJson(this.leaseFile)
    if (!r.ok) return r.missing ? { kind: 'none' } : { kind: 'broken', reason: r.reason }
    const c = check(leaseParser, r.value)
    return c.ok ? { kind: 'lease', lease: c.value } : { kind: 'broken', reason: `pass.lock: ${c.reason}` }
  }

  /** Takes a free lease; false when a lease file exists. */
  createLease(lease: Lease): boolean {
    return createExclusive(this.leaseFile, JSON.stringify(lease) + '\n')
  }

  /** Replaces the lease (takeover, or a stale holder). */
  replaceLease(lease: Lease): void {
    writeAtomic(this.leaseFile, JSON.stringify(lease) + '\n')
  }

  // ---------------------------------------------------------------- projects

  addProject(spec: ProjectSpec): void {
    if (!isProjectName(spec.name)) throw new KitchenError('KITCHEN_BAD_INPUT', `"${spec.name}" is not a project name: use letters, digits, ".", "_" and "-", starting with a letter or digit`)
    if (!createExclusive(this.projectFile(spec.name), JSON.stringify(spec, null, 2) + '\n')) {
      throw new KitchenError('KITCHEN_PROJECT_EXISTS', `a project named "${spec.name}" is already registered; pick another name with "name"`)
    }
  }

  readProject(name: ProjectName): ProjectSpec | undefined {
    if (!isProjectName(name)) return undefined
    const r = readJson(this.projectFile(name))
    if (!r.ok) return undefined
    const p = parseProject(r.value)
    return p.ok && p.value.name === name ? p.value : undefined
  }

  // ---------------------------------------------------------------- tasks

  /**
   * Allocates the next id `<project>-<n>` and writes task.json. The `mkdir` of the task directory is
   * the exclusive step: two owners racing for the same number get one each.
   */
  createTask(project: ProjectName, build: (id: TaskId) => TaskSpec): TaskSpec {
    if (!isProjectName(project)) throw new KitchenError('KITCHEN_BAD_INPUT', `"${project}" is not a project name`)
    let n = 1
    for (const name of readdirSync(join(this.root, 'tasks'))) {
      const p = parseTaskId(name)
      if (p && p.project === project && p.n >= n) n = p.n + 1
    }
    for (let tries = 0; ; n++, tries++) {
      const id = taskId(project, n)
      try {
        mkdirSync(this.taskDir(id))
      } catch (error) {
        if (errno(error) === 'EEXIST' && tries < 10_000) continue
        throw error
      }
      for (const sub of ['runs', 'session', 'inbox', join('inbox', 'handled')]) mkdirSync(join(this.taskDir(id), sub))
      const spec = build(id)
      if (spec.id !== id || spec.project !== project) throw new KitchenError('KITCHEN_BAD_INPUT', `task spec must keep the allocated id ${id}`)
      writeAtomic(this.taskFile(id), JSON.stringify(spec, null, 2) + '\n')
      return spec
    }
  }

  /** Reads one task.json: the spec, or the reason it is broken. Unknown ids throw. */
  readTask(id: TaskId): { ok: true; value: TaskSpec } | { ok: false; reason: string } {
    const r = readJson(this.taskFile(id))
    if (!r.ok) {
      if (r.missing && !stat(this.taskDir(id))) throw new KitchenError('KITCHEN_UNKNOWN_TASK', `there is no task ${id}; chef_board lists the tasks`)
      return r
    }
    const t = parseTask(r.value)
    return t.ok ? t : { ok: false, reason: `task.json: ${t.reason}` }
  }

  appendLog(id: TaskId, event: LogEvent): void {
    appendFileSync(this.logFile(id), JSON.stringify(event) + '\n', { mode: 0o644 })
    this.touch(id)
  }

  writePrompt(id: TaskId, run: RunNo, text: string): void {
    writeAtomic(this.promptFile(id, run), text)
    this.touch(id)
  }

  /**
   * Marks the task changed for every snapshot reader: an append or a write in a subdirectory does not
   * change the task directory's mtime by itself. Each write method here calls it after writing.
   */
  touch(id: TaskId): void {
    const t = new Date()
    try {
      utimesSync(this.taskDir(id), t, t)
    } catch (error) {
      if (errno(error) !== 'ENOENT') throw error
    }
  }

  readPrompt(id: TaskId, run: RunNo): string | undefined {
    try {
      return readFileSync(this.promptFile(id, run), 'utf8')
    } catch (error) {
      if (errno(error) === 'ENOENT') return undefined
      throw error
    }
  }

  /**
   * The launch claim: creates `runs/<n>.jsonl` empty with O_EXCL and returns its descriptor, to be the
   * cook's stdout. Another launch that claimed first makes this throw KITCHEN_CLAIM_TAKEN.
   */
  claimRun(id: TaskId, run: RunNo): number {
    try {
      const fd = openSync(this.runFile(id, run), 'wx', 0o644)
      this.touch(id)
      return fd
    } catch (error) {
      if (errno(error) === 'EEXIST') throw new KitchenError('KITCHEN_CLAIM_TAKEN', `run ${run} of ${id} was claimed by another launch`, { cause: error })
      throw error
    }
  }

  /** Opens `runs/<n>.err` for append (a relaunch of the same run keeps the earlier output). */
  openErr(id: TaskId, run: RunNo): number {
    return openSync(this.errFile(id, run), 'a', 0o644)
  }

  /** Bytes in the run file, or undefined when it does not exist. */
  runFileSize(id: TaskId, run: RunNo): number | undefined {
    return stat(this.runFile(id, run))?.size
  }

  /** Removes an empty claim so the same run can launch again. False when the file has output or is gone. */
  reclaimRun(id: TaskId, run: RunNo): boolean {
    const path = this.runFile(id, run)
    if (stat(path)?.size !== 0) return false
    try {
      unlinkSync(path)
      this.touch(id)
      return true
    } catch (error) {
      if (errno(error) === 'ENOENT') return false
      throw error
    }
  }

  errTail(id: TaskId, run: RunNo, bytes = ERR_TAIL): string {
    return readTail(this.errFile(id, run), bytes)
  }

  /** Every line of a run file, parsed; bad lines counted. For results and transcripts, not the tick. */
  readRunLines(id: TaskId, run: RunNo): { lines: ReturnType<typeof parseRunLine>[]; bad: number } {
    const reader = new LineReader()
    const raw = reader.read(this.runFile(id, run)).lines
    const lines = raw.map(parseRunLine)
    return { lines: lines.filter((l) => l !== undefined), bad: lines.filter((l) => l === undefined).length }
  }

  // ---------------------------------------------------------------- inbox

  /** Drops a message into the inbox (tmp + rename), named by its time. Returns the file name. */
  writeMessage(id: TaskId, text: string, at: Millis): string {
    const name = inboxName(at, `${process.pid.toString(36)}${(++tmpSeq).toString(36)}${randomBytes(3).toString('hex')}`)
    const dir = this.inboxDir(id)
    const tmp = tmpName(dir, 'msg')
    writeFileSync(tmp, text, { mode: 0o644, flag: 'wx' })
    renameSync(tmp, join(dir, name))
    this.touch(id)
    return name
  }

  /** The pending messages with their text, oldest first. A message moved meanwhile is left out. */
  readInbox(id: TaskId): InboxMessage[] {
    const out: InboxMessage[] = []
    for (const m of listInbox(this.inboxDir(id))) {
      try {
        out.push({ ...m, text: readFileSync(join(this.inboxDir(id), m.name), 'utf8') })
      } catch (error) {
        if (errno(error) !== 'ENOENT') throw error
      }
    }
    return out
  }

  /** Moves a message to `inbox/handled/`. False when it was already moved (the cook took it). */
  handleMessage(id: TaskId, name: string): boolean {
    if (!INBOX_NAME.test(name)) throw new KitchenError('KITCHEN_BAD_INPUT', `"${name}" is not an inbox message name`)
    try {
      renameSync(join(this.inboxDir(id), name), join(this.inboxDir(id), 'handled', name))
      this.touch(id)
      return true
    } catch (error) {
      if (errno(error) === 'ENOENT') return false
      throw error
    }
  }

  // ---------------------------------------------------------------- snapshot

  /**
   * Reads the kitchen for a tick, each file in isolation: a broken task.json lists the task as broken
   * with the reason, a bad config.json gives the defaults plus error lines, a bad project file is
   * skipped with an error line, bad log and run lines are skipped and counted. Incremental: a file is
   * read again only when it grew or changed, and a task record that did not change is the same object.
   */
  snapshot(now: Millis = Date.now()): KitchenSnapshot {
    const errors: string[] = []
    const config = this.snapConfig()
    errors.push(...config.errors)
    const projects = this.snapProjects(errors)
    const tasks: TaskRecord[] = []
    const broken: BrokenTask[] = []
    let badLines = 0
    for (const name of this.snapTaskNames()) {
      let cache = this.tasks.get(name)
      if (!cache) this.tasks.set(name, (cache = new TaskCache(name, join(this.root, 'tasks'))))
      const rec = this.snapTask(cache)
      if (rec === undefined) continue
      if ('reason' in rec) broken.push(rec)
      else {
        tasks.push(rec)
        badLines += rec.badLines
      }
    }
    return { at: now, config: config.config, errors, projects, tasks, broken, badLines }
  }

  /** Cache checks use the real clock whatever `now` a caller passes: they compare with file mtimes. */
  private changedDir(path: string, sig: DirSig | undefined): DirSig | undefined | 'gone' {
    const now = Date.now()
    const st = stat(path)
    if (!st) return 'gone'
    if (sig && st.mtimeMs === sig.mtimeMs && st.ino === sig.ino && sig.seenAt - sig.mtimeMs > RACY_MS) return undefined
    return { mtimeMs: st.mtimeMs, ino: st.ino, seenAt: now }
  }

  private snapConfig(): NormalizedConfig {
    const st = stat(this.configFile)
    const sig = st && { mtimeMs: st.mtimeMs, ino: st.ino, size: st.size }
    if (sameFile(sig, this.configSig) && !racy(sig)) return this.configCache
    this.configSig = sig
    this.configCache = this.loadConfig()
    return this.configCache
  }

  private snapProjects(errors: string[]): ProjectSpec[] {
    const dir = join(this.root, 'projects')
    const changed = this.changedDir(dir, this.projectsDir)
    if (changed === 'gone') return []
    if (changed) {
      this.projectsDir = changed
      const names = new Set(readdirSync(dir).filter((n) => n.endsWith('.json') && !n.startsWith('.')))
      for (const n of this.projectCache.keys()) if (!names.has(n)) this.projectCache.delete(n)
      for (const n of names) if (!this.projectCache.has(n)) this.projectCache.set(n, { sig: { mtimeMs: -1, ino: -1, size: -1 } })
    }
    const out: ProjectSpec[] = []
    for (const [file, entry] of this.projectCache) {
      const st = stat(join(dir, file))
      if (!st) continue
      const sig = { mtimeMs: st.mtimeMs, ino: st.ino, size: st.size }
      if (!sameFile(sig, entry.sig) || racy(sig)) {
        entry.sig = sig
        delete entry.spec
        delete entry.error
        const r = readJson(join(dir, file))
        const p = r.ok ? parseProject(r.value) : r
        if (!p.ok) entry.error = `projects/${file} is skipped: ${p.reason}`
        else if (`${p.value.name}.json` !== file) entry.error = `projects/${file} is skipped: its name "${p.value.name}" does not match the file name`
        else entry.spec = p.value
      }
      if (entry.error) errors.push(entry.error)
      if (entry.spec) out.push(entry.spec)
    }
    return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  }

  private snapTaskNames(): string[] {
    const dir = join(this.root, 'tasks')
    const changed = this.changedDir(dir, this.tasksDir)
    if (changed === 'gone') return []
    if (changed) {
      this.tasksDir = changed
      const names = readdirSync(dir).filter((n) => !n.startsWith('.'))
      names.sort(byTaskId)
      this.taskNames = names
      const keep = new Set(names)
      for (const n of this.tasks.keys()) if (!keep.has(n)) this.tasks.delete(n)
    }
    return this.taskNames
  }

  private snapTask(c: TaskCache): TaskRecord | BrokenTask | undefined {
    const dir = c.dir
    let dirty = false
    if (!c.spec) {
      if (!isTaskId(c.id)) return { id: c.id, reason: 'the directory name is not a task id like "api-7"' }
      const st = stat(join(dir, 'task.json'))
      const sig = st && { mtimeMs: st.mtimeMs, ino: st.ino, size: st.size }
      if (!st) {
        const d = stat(dir)
        if (!d || !d.isDirectory()) return { id: c.id, reason: 'not a task directory' }
        if (Date.now() - d.mtimeMs < CREATING_MS) return undefined
        return { id: c.id, reason: 'task.json is missing (the dispatch stopped before writing it)' }
      }
      if (!sameFile(sig, c.specSig) || racy(sig) || c.broken === undefined) {
        c.specSig = sig
        const r = readJson(join(dir, 'task.json'))
        const t = r.ok ? parseTask(r.value) : r
        if (!t.ok) c.broken = r.ok ? `task.json: ${t.reason}` : t.reason
        else if (t.value.id !== c.id) c.broken = `task.json names the task "${t.value.id}", not "${c.id}"`
        else {
          c.spec = t.value
          delete c.broken
          dirty = true
        }
      }
      if (!c.spec) return { id: c.id, reason: c.broken! }
    }
    const id = c.spec.id
    // Every owner write in a task touches the task directory (see `touch`), so a task whose directory
    // did not change and whose last run is not in flight has nothing new: one stat per quiet task.
    const td = this.changedDir(dir, c.taskDirSig)
    if (td === 'gone') return undefined
    if (td) c.taskDirSig = td
    const active = c.active()
    if (!td && c.record && !active && (!c.closed || c.worktreeGone)) return c.record

    if (td) {
      const log = c.logReader.read(join(dir, 'log.jsonl'))
      if (log.reset) {
        c.log = []
        c.logBad = 0
        c.closed = false
      }
      if (log.lines.length > 0 || log.reset) {
        dirty = true
        c.log = [...c.log]
        for (const text of log.lines) {
          const e = parseLogLine(text)
          if (!e) c.logBad++
          else {
            c.log.push(e)
            if (e.type === 'closed') c.closed = true
          }
        }
      }
    }

    if (c.closed) {
      if (!c.worktreeGone && !stat(this.worktree(id))) {
        c.worktreeGone = true
        dirty = true
      }
    } else {
      if (this.snapRuns(c, td !== undefined)) dirty = true
      // The cook moves pending messages to handled/ while its run is in flight; only the owner adds.
      const inbox = td || (active && c.inbox.length > 0) ? this.changedDir(c.inboxPath, c.inboxDir) : undefined
      if (inbox) {
        c.inboxDir = inbox === 'gone' ? undefined : inbox
        const list = inbox === 'gone' ? [] : listInbox(c.inboxPath)
        if (list.length !== c.inbox.length || list.some((m, i) => m.name !== c.inbox[i]!.name)) {
          c.inbox = list
          dirty = true
        }
      }
    }

    if (!dirty && c.record) return c.record
    const runs: RunRecord[] = []
    let bad = c.logBad
    for (const r of [...c.runs.values()].sort((a, b) => a.n - b.n)) {
      r.record ??= { n: r.n, hasPrompt: r.hasPrompt, claimed: r.claimed, size: r.size, mtimeMs: r.mtimeMs, errSize: r.errSize, errTail: r.errTail, fold: r.fold }
      runs.push(r.record)
      bad += r.fold.bad
    }
    c.record = {
      id, spec: c.spec, log: c.log, runs, inbox: c.inbox,
      worktreeExists: c.closed ? !c.worktreeGone : true, badLines: bad,
    }
    return c.record
  }

  /** Updates the runs of a task; true when anything changed. */
  private snapRuns(c: TaskCache, scan: boolean): boolean {
    const dir = c.runsPath
    let dirty = false
    const changed = scan ? this.changedDir(dir, c.runsDir) : undefined
    if (changed) {
      c.runsDir = changed === 'gone' ? undefined : changed
      const seen = new Map<number, { prompt: boolean; run: boolean }>()
      for (const name of changed === 'gone' ? [] : readdirSync(dir)) {
        const m = /^([1-9][0-9]{0,8})\.(prompt\.md|jsonl)$/.exec(name)
        if (!m) continue
        const n = Number(m[1])
        const e = seen.get(n) ?? { prompt: false, run: false }
        if (m[2] === 'jsonl') e.run = true
        else e.prompt = true
        seen.set(n, e)
      }
      for (const n of c.runs.keys()) {
        if (!seen.has(n)) {
          c.runs.delete(n)
          dirty = true
        }
      }
      for (const [n, e] of seen) {
        let r = c.runs.get(n)
        if (!r) {
          r = new RunCache(runNo(n), dir)
          c.runs.set(n, r)
          dirty = true
        }
        if (r.hasPrompt !== e.prompt || r.claimed !== e.run) {
          r.hasPrompt = e.prompt
          // The claim was removed (reclaimed): a new claim of the same run starts from nothing.
          if (r.claimed && !e.run) r.resetClaim()
          r.claimed = e.run
          delete r.record
          dirty = true
        }
      }
    }
    let last = 0
    for (const n of c.runs.keys()) if (n > last) last = n
    for (const r of c.runs.values()) {
      if (r.frozen || !r.claimed) continue
      if (this.pollRun(r)) {
        delete r.record
        dirty = true
      }
      // A settled run has said everything; a newer run was claimed only after this run's cook was
      // gone. Either way this was the final read.
      if (r.n < last || r.fold.settledAt !== undefined) r.frozen = true
    }
    return dirty
  }

  private pollRun(r: RunCache): boolean {
    const path = r.path
    const st = stat(path)
    if (!st) return false
    let changed = false
    if (st.size !== r.size || st.mtimeMs !== r.mtimeMs) {
      const got = r.reader.read(path)
      if (got.reset) r.fold = EMPTY_RUN_FOLD
      r.fold = foldRunLines(r.fold, got.lines.map(parseRunLine))
      r.size = st.size
      r.mtimeMs = st.mtimeMs
      changed = true
    }
    // The err file matters until the run settles: launch failures and crashes quote its tail.
    if (r.fold.settledAt === undefined) {
      const errPath = r.errPath
      const es = stat(errPath)?.size ?? 0
      if (es !== r.errSize) {
        r.errSize = es
        r.errTail = es === 0 ? '' : readTail(errPath, ERR_TAIL)
        changed = true
      }
    }
    return changed
  }
}

function sameFile(a: FileSig | undefined, b: FileSig | undefined): boolean {
  if (!a || !b) return a === b
  return a.mtimeMs === b.mtimeMs && a.ino === b.ino && a.size === b.size
}

/** A file changed within the mtime granularity of the last look could change again unseen. */
function racy(sig: FileSig | undefined): boolean {
  return sig !== undefined && Date.now() - sig.mtimeMs < RACY_MS
}

function byTaskId(a: string, b: string): number {
  const pa = parseTaskId(a)
  const pb = parseTaskId(b)
  if (pa && pb) return pa.project === pb.project ? pa.n - pb.n : pa.project < pb.project ? -1 : 1
  return a < b ? -1 : a > b ? 1 : 0
}

function listInbox(dir: string): PendingMessage[] {
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch (error) {
    if (errno(error) === 'ENOENT') return []
    throw error
  }
  const out: PendingMessage[] = []
  for (const name of names) {
    const m = INBOX_NAME.exec(name)
    if (m) out.push({ name, at: Number(m[1]) })
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
}

function readTail(path: string, bytes: number): string {
  let fd: number
  try {
    fd = openSync(path, 'r')
  } catch (error) {
    if (errno(error) === 'ENOENT') return ''
    throw error
  }
  try {
    const size = fstatSync(fd).size
    const len = Math.min(size, bytes)
    const buf = Buffer.alloc(len)
    readSync(fd, buf, 0, len, size - len)
    // Drop a partial first character left by the cut.
    let start = 0
    while (start < len && start < 4 && (buf[start]! & 0xc0) === 0x80) start++
    return buf.toString('utf8', start).trim()
  } finally {
    closeSync(fd)
  }
}
