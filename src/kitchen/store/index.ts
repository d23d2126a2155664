/**
 * The kitchen on disk: the only module that knows the layout, forwards (paths, writes) and backwards
 * (`taskOfRunFile`). One writer per file; every file read is checked before a field is used.
 *
 *   <root>/config.json                 the person, when no host gives the config (read only here)
 *   <root>/lease/<g>.json              the lease holder of generation g: Lease; the highest g is the lease
 *   <root>/projects/<name>.json        the owner, once: ProjectSpec
 *   <root>/tasks/<id>/task.json        the owner, once: TaskSpec (built in tasks/.new-<tag>/, renamed onto the
 *                                      empty tasks/<id> whose mkdir is the exclusive step)
 *   <root>/tasks/<id>/log.jsonl        the owner, append: LogEvent lines
 *   <root>/tasks/<id>/review.index     the owner: a private git index to compare the clone with its branch
 *   <root>/tasks/<id>/runs/<n>.prompt.md  the owner: the launch intent of run n
 *   <root>/tasks/<id>/runs/<n>.jsonl   the cook's stdout; the owner only creates it empty (O_EXCL: the claim)
 *   <root>/tasks/<id>/runs/<n>.err     the cook's stderr, opened for append
 *   <root>/tasks/<id>/session/         the cook's agent session, shared by all runs
 *   <root>/tasks/<id>/inbox/*.msg      the owner, tmp + rename; inbox/handled/ holds delivered ones
 *   <root>/worktrees/<id>/             the cook's clone: its own repository (objects borrowed read-only
 *                                      from the project), the one place the cook writes
 *   <root>/scratch/<tag>/              the owner: a base branch's tree checked out for a while (verify), a merge's work clone
 *   <root>/merge/<id>.jsonl            the owner: the merge queue's entry of a task (created exclusively, appended);
 *                                      reported ones moved to merge/ended/<id>.<tag>.jsonl
 *
 * Calls are synchronous: the files are small and local, and a tick makes thousands of stat calls whose
 * round trip through the thread pool would cost more than the calls. Writes are atomic (tmp + rename),
 * not durable (no fsync).
 */
import {
  closeSync, constants, lstatSync, mkdirSync, openSync, readdirSync, realpathSync, renameSync, rmdirSync, rmSync,
  unlinkSync, utimesSync, writeFileSync, writeSync,
} from 'node:fs'
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path'
import { check } from '../check.js'
import {
  INBOX_NAME, KitchenError, MAX_MESSAGE_CHARS, inboxName, isProjectName, isTaskId, lease as leaseParser, parseProject,
  parseRunLine, parseTask, parseTaskId, sameHolder, taskId,
  type HolderAlive, type KitchenSnapshot, type Lease, type LogEvent, type Millis, type PendingMessage,
  type ProjectName, type ProjectSpec, type RunLine, type RunNo, type TaskId, type TaskSpec,
} from '../domain.js'

import { normalizeKitchenConfig, type NormalizedConfig } from './config.js'
import { FileProblem, LineReader, createExclusive, errno, isCut, listInbox, readBounded, readJson, readTail, stat, tmpName, uniqueTag, writeAtomic } from './files.js'
import { ERR_TAIL, SnapshotReader, type SnapshotLayout } from './snapshot.js'

export { normalizeKitchenConfig, defaultKitchenConfig, DEFAULT_KITCHEN_CONFIG, type NormalizedConfig } from './config.js'
export { LineReader, isCut, FileProblem, MAX_LINE_BYTES, readBounded, type CutLine, type ReadLine } from './files.js'
export { foldRunLine, foldRunLines, EMPTY_RUN_FOLD } from './snapshot.js'

/**
 * The result of taking the lease: the owner, held by a live holder, or `unwritable` when the kitchen
 * can't be written at all (a read-only disk): then the session reads, and nobody writes from here.
 */
export type Acquire =
  | { kind: 'owner'; lease: Lease }
  | { kind: 'held'; holder: Lease }
  | { kind: 'unwritable'; holder?: Lease; reason: string }

/** A write the store is about to make, named for a test that makes it fail (a full or read-only disk). */
export type StoreWrite = 'lease' | 'task' | 'log' | 'prompt' | 'message' | 'project' | 'claim' | 'merge'

export interface StoreOptions {
  /**
   * The kitchen's config from its host (the harness row), raw: when given, config.json is never
   * read. A file any process in the kitchen directory could write never decides how the kitchen runs.
   */
  config?: () => unknown
  /** Throws to make a named write fail as the disk would (tests). */
  writeFault?: (what: StoreWrite, path: string) => void
}

/**
 * Errors that mean the kitchen directory cannot be written now: a read-only or full disk. Taking the
 * lease then opens read-only; a read-only session tries again at each tick, so a disk that frees up
 * gets its owner back.
 */
const UNWRITABLE = new Set(['EROFS', 'EACCES', 'EPERM', 'ENOSPC', 'EDQUOT'])

/** What a dispatch asks the store to create: one task per item, built once its id is allocated. */
export interface NewTask {
  project: ProjectName
  build: (id: TaskId) => TaskSpec
}

/** A batch that could not be created whole: what exists after the rollback, and why it failed. */
export class CreateTasksError extends Error {
  override name = 'CreateTasksError'
  constructor(readonly created: TaskSpec[], readonly failedAt: number, cause: unknown) {
    super((cause as Error)?.message ?? String(cause), { cause })
  }
}

export interface InboxMessage extends PendingMessage {
  text: string
}

// ---------------------------------------------------------------- the layout of one task directory

/*
 * The paths inside one task directory, from that directory alone: the cook runner and `watch` are
 * given a task directory and no store (the cook moves inbox messages, watch only reads), and the
 * Store builds its own task paths with these, so the layout is written down once.
 */

const RUNS = 'runs'
const SESSION = 'session'
const INBOX = 'inbox'
const HANDLED = 'handled'

export function taskFileIn(taskDir: string): string { return join(taskDir, 'task.json') }
export function logFileIn(taskDir: string): string { return join(taskDir, 'log.jsonl') }
export function runsDirIn(taskDir: string): string { return join(taskDir, RUNS) }
export function runFileIn(taskDir: string, run: number): string { return join(taskDir, RUNS, `${run}.jsonl`) }
export function promptFileIn(taskDir: string, run: number): string { return join(taskDir, RUNS, `${run}.prompt.md`) }
export function errFileIn(taskDir: string, run: number): string { return join(taskDir, RUNS, `${run}.err`) }
export function sessionDirIn(taskDir: string): string { return join(taskDir, SESSION) }
export function inboxDirIn(taskDir: string): string { return join(taskDir, INBOX) }
export function handledDirIn(taskDir: string): string { return join(taskDir, INBOX, HANDLED) }
export function reviewIndexIn(taskDir: string): string { return join(taskDir, 'review.index') }

/** A project's file in the kitchen at `root`; a name that is not a project name names no path (it throws). */
export function projectFileIn(root: string, name: string): string {
  if (!isProjectName(name)) throw new KitchenError('KITCHEN_BAD_INPUT', `"${name}" is not a project name`)
  return projectPath(root, name)
}

/** The file a name in `projects/` maps to, unchecked: the snapshot also reads files named otherwise, to report them. */
function projectPath(root: string, name: string): string {
  return join(root, 'projects', `${name}.json`)
}

/** The kitchen of a task directory: two levels up (`<root>/tasks/<id>`). */
export function kitchenOfTaskDir(taskDir: string): string {
  return dirname(dirname(taskDir))
}

/** What a file name in `runs/` is: the prompt or the run file of run `n`; undefined for others. */
export function runEntry(file: string): { n: number; kind: 'prompt' | 'run' } | undefined {
  const m = /^([1-9][0-9]{0,8})\.(prompt\.md|jsonl)$/.exec(file)
  return m ? { n: Number(m[1]), kind: m[2] === 'jsonl' ? 'run' : 'prompt' } : undefined
}

/** The runs of a task directory that have a run file, ascending; none when `runs/` can't be listed. */
export function runNumbersIn(taskDir: string): number[] {
  let names: string[]
  try {
    names = readdirSync(runsDirIn(taskDir))
  } catch {
    return []
  }
  const out: number[] = []
  for (const name of names) {
    const e = runEntry(name)
    if (e?.kind === 'run') out.push(e.n)
  }
  return out.sort((a, b) => a - b)
}

/** Whether `dir` looks like a task directory: it has task.json or runs/ (neither followed if a link). */
export function isTaskDirIn(dir: string): boolean {
  return lstatSync(taskFileIn(dir), { throwIfNoEntry: false }) !== undefined || lstatSync(runsDirIn(dir), { throwIfNoEntry: false }) !== undefined
}

export class Store implements SnapshotLayout {
  /** The kitchen root as given, and as the kernel reports it (symlinks resolved). */
  readonly root: string
  readonly realRoot: string
  private readonly realTasks: string
  private readonly realWorktrees: string
  private reader?: SnapshotReader
  private readonly options: StoreOptions
  /** Why the kitchen's directories could not be made (a read-only disk); undefined when they are there. */
  readonly unwritable: string | undefined

  private constructor(root: string, options: StoreOptions, unwritable: string | undefined) {
    this.root = root
    this.options = options
    this.unwritable = unwritable
    this.realRoot = realpathSync.native(root)
    this.realTasks = join(this.realRoot, 'tasks')
    this.realWorktrees = join(this.realRoot, 'worktrees')
  }

  /**
   * Opens the kitchen at `root`, creating its directories when they are missing. On a disk that
   * can't be written the kitchen still opens, to be read: what is missing reads as empty.
   */
  static open(root: string, options: StoreOptions = {}): Store {
    let unwritable: string | undefined
    for (const dir of ['projects', 'tasks', 'worktrees', 'lease']) {
      try {
        mkdirSync(join(root, dir), { recursive: true })
      } catch (error) {
        if (!UNWRITABLE.has(errno(error) ?? '')) throw error
        unwritable ??= `${join(root, dir)} can't be made: ${(error as Error).message}`
      }
    }
    return new Store(root, options, unwritable)
  }

  /** A named write is about to happen: the test hook may fail it. */
  private w(what: StoreWrite, path: string): void {
    this.options.writeFault?.(what, path)
  }

  /** The kitchen of a cook's task directory: two levels up (`<root>/tasks/<id>`). */
  static kitchenOfTaskDir(taskDir: string): string {
    return kitchenOfTaskDir(taskDir)
  }

  // ---------------------------------------------------------------- paths

  get configFile(): string { return join(this.root, 'config.json') }
  get leaseDir(): string { return join(this.root, 'lease') }
  /** The file of lease generation `g`. */
  leaseFile(g: number): string { return join(this.leaseDir, `${g}.json`) }
  get projectsDir(): string { return join(this.root, 'projects') }
  get tasksDir(): string { return join(this.root, 'tasks') }
  projectFile(name: ProjectName): string { return projectPath(this.root, name) }
  /** The project a file name in `projects/` is for, or undefined for any other file. */
  projectOfFile(file: string): string | undefined {
    return file.endsWith('.json') && !file.startsWith('.') ? file.slice(0, -'.json'.length) : undefined
  }
  /** Every task path starts here: an id that is not a task id (`..`, a slash) names no path at all. */
  taskDir(id: TaskId): string { return join(this.tasksDir, checkedId(id)) }
  runsDir(id: TaskId): string { return runsDirIn(this.taskDir(id)) }
  taskFile(id: TaskId): string { return taskFileIn(this.taskDir(id)) }
  logFile(id: TaskId): string { return logFileIn(this.taskDir(id)) }
  promptFile(id: TaskId, run: RunNo): string { return promptFileIn(this.taskDir(id), run) }
  runFile(id: TaskId, run: RunNo): string { return runFileIn(this.taskDir(id), run) }
  errFile(id: TaskId, run: RunNo): string { return errFileIn(this.taskDir(id), run) }
  /** What a file name in `runs/` is: the prompt or the run file of run `n`; undefined for others. */
  runEntry(file: string): { n: number; kind: 'prompt' | 'run' } | undefined {
    return runEntry(file)
  }
  sessionDir(id: TaskId): string { return sessionDirIn(this.taskDir(id)) }
  inboxDir(id: TaskId): string { return inboxDirIn(this.taskDir(id)) }
  handledDir(id: TaskId): string { return handledDirIn(this.taskDir(id)) }
  /** The private index the kitchen compares a task's clone with (never the clone's own index). */
  reviewIndex(id: TaskId): string { return reviewIndexIn(this.taskDir(id)) }
  /** The task's clone: `worktrees/<id>` (the name is older than the clones). */
  worktree(id: TaskId): string { return join(this.root, 'worktrees', checkedId(id)) }
  get scratchRoot(): string { return join(this.root, 'scratch') }

  /** A fresh directory of the owner's for a while (a base tree to read); the caller removes it. */
  scratchDir(): string {
    mkdirSync(this.scratchRoot, { recursive: true })
    const dir = join(this.scratchRoot, uniqueTag())
    mkdirSync(dir)
    return dir
  }

  /** Removes a scratch directory (only one under scratch/). */
  removeScratch(dir: string): void {
    const rel = relative(this.scratchRoot, dir)
    if (rel === '' || rel.startsWith('..') || isAbsolute(rel) || rel.includes(sep)) return
    rmSync(dir, { recursive: true, force: true })
  }

  /** Leftovers of an owner that stopped midway: scratch trees and half-made tasks. */
  sweep(now: Millis = Date.now()): void {
    try {
      rmSync(this.scratchRoot, { recursive: true, force: true })
    } catch {
      // another owner's verify may be reading it; the next sweep takes it
    }
    try {
      for (const name of readdirSync(join(this.root, 'worktrees'))) {
        // a clone that was being built when its owner stopped
        const path = join(this.root, 'worktrees', name)
        if (name.startsWith('.new-') && now - (lstatSync(path, { throwIfNoEntry: false })?.mtimeMs ?? now) >= CREATING_MS) {
          rmSync(path, { recursive: true, force: true })
        }
      }
    } catch {
      // no worktrees/ yet
    }
    let names: string[]
    try {
      names = readdirSync(this.tasksDir)
    } catch {
      return
    }
    for (const name of names) {
      const path = join(this.tasksDir, name)
      const st = lstatSync(path, { throwIfNoEntry: false })
      if (!st?.isDirectory() || now - st.mtimeMs < CREATING_MS) continue
      // a batch's staging directory, or an id reserved by a dispatch that stopped before its rename
      if (name.startsWith('.new-')) rmSync(path, { recursive: true, force: true })
      else if (isTaskId(name)) {
        try {
          rmdirSync(path) // only an empty reservation; a task directory is never empty
        } catch {
          // not empty: a task
        }
      }
    }
  }

  /**
   * Why `path` cannot be the worktree of `id`, or undefined: a task's worktree is this kitchen's
   * `worktrees/<id>` and nothing else (not another task's, not outside the kitchen), whatever
   * task.json says. The parent is compared as a realpath, so a kitchen opened through a symlink agrees.
   */
  worktreeProblem(id: TaskId, path: string): string | undefined {
    const problem = `worktree ${path} is not this kitchen's worktrees/${id}`
    if (!isAbsolute(path) || path.split(/[\\/]/).includes('..') || basename(path) !== id) return problem
    try {
      return realpathSync.native(dirname(path)) === this.realWorktrees ? undefined : problem
    } catch {
      return problem
    }
  }

  /**
   * The worktree of a task, checked before git is asked to create, inspect or remove it: the stored
   * path must be `worktrees/<id>` and must not be a symlink (which could lead to another task's
   * worktree). Throws KITCHEN_BROKEN_TASK saying what is wrong.
   */
  checkedWorktree(spec: Pick<TaskSpec, 'id' | 'worktree'>): string {
    const problem = this.worktreeProblem(spec.id, spec.worktree)
    if (problem) throw brokenTask(spec.id, problem)
    if (lstatSync(spec.worktree, { throwIfNoEntry: false })?.isSymbolicLink()) {
      throw brokenTask(spec.id, `worktrees/${spec.id} is a symlink; the kitchen does not follow it. Remove the link`)
    }
    return spec.worktree
  }

  /**
   * A directory of a task (`sub` below `tasks/<id>`), checked before a write or a read that could
   * leave the kitchen: its realpath must be exactly that place, so no symlink on the way (the task
   * directory, `inbox`, `inbox/handled`, `runs`) is followed. A missing directory is returned as it is:
   * the write then fails on its own.
   */
  private ownDir(id: TaskId, ...sub: string[]): string {
    const path = join(this.taskDir(id), ...sub)
    let real: string
    try {
      real = realpathSync.native(path)
    } catch (error) {
      if (errno(error) === 'ENOENT') return path
      throw error
    }
    if (real !== join(this.realTasks, id, ...sub)) {
      throw brokenTask(id, `tasks/${[id, ...sub].join('/')} is a symlink or leads outside the task; the kitchen does not follow it. Replace it with a directory`)
    }
    return path
  }

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
    if (parts.length !== 3 || parts[1] !== RUNS) return undefined
    const entry = runEntry(parts[2]!)
    if (entry?.kind !== 'run' || !isTaskId(parts[0])) return undefined
    return { task: parts[0], run: entry.n as RunNo }
  }

  // ---------------------------------------------------------------- config and lease

  /**
   * The kitchen config now: the host's when it gives one (config.json is then never read), else
   * config.json. A missing file is the defaults; a bad one the defaults plus error lines.
   */
  loadConfig(): NormalizedConfig {
    if (this.options.config) return normalizeKitchenConfig(this.options.config(), 'the kitchen config', true)
    const r = readJson(this.configFile)
    if (r.ok) return normalizeKitchenConfig(r.value)
    if (r.missing) return normalizeKitchenConfig(undefined)
    return { config: normalizeKitchenConfig(undefined).config, errors: [`${r.reason}; the kitchen uses the default config until this is fixed`] }
  }

  /** Whether the config comes from the host (not from a file). */
  get hostConfig(): boolean {
    return this.options.config !== undefined
  }

  /** Lease generations on disk, highest first. */
  private leaseGenerations(): number[] {
    let names: string[]
    try {
      names = readdirSync(this.leaseDir)
    } catch (error) {
      if (errno(error) === 'ENOENT') return []
      throw error
    }
    return names.map((n) => /^([1-9][0-9]{0,15})\.json$/.exec(n)?.[1]).filter((g): g is string => g !== undefined).map(Number).sort((a, b) => b - a)
  }

  /**
   * The lease: the highest generation on disk. `none` when there is no lease file at all (nobody
   * holds it: the next session to ask creates it), `broken` when that file does not parse.
   */
  readLease(): { kind: 'none'; gen: 0 } | { kind: 'lease'; lease: Lease; gen: number } | { kind: 'broken'; reason: string; gen: number } {
    const gen = this.leaseGenerations()[0]
    if (gen === undefined) return { kind: 'none', gen: 0 }
    const r = readJson(this.leaseFile(gen))
    if (!r.ok) return r.missing ? this.readLease() : { kind: 'broken', reason: `lease/${gen}.json: ${r.reason}`, gen }
    const c = check(leaseParser, r.value)
    return c.ok ? { kind: 'lease', lease: c.value, gen } : { kind: 'broken', reason: `lease/${gen}.json: ${c.reason}`, gen }
  }

  /** The lease as it is on disk, or undefined when there is none or it does not parse. */
  currentLease(): Lease | undefined {
    const r = this.readLease()
    return r.kind === 'lease' ? r.lease : undefined
  }

  /** Creates lease generation `gen` exclusively; false when another session created it first. */
  createLease(lease: Lease, gen = this.readLease().gen + 1): boolean {
    const file = this.leaseFile(gen)
    this.w('lease', file)
    mkdirSync(this.leaseDir, { recursive: true })
    return createExclusive(file, JSON.stringify(lease) + '\n')
  }

  /**
   * Take the lease when it is free, stale, unreadable, or when `takeover` says so. Every change of
   * holder creates the next generation's file exclusively (O_EXCL through a link), so of two
   * sessions that find the same stale lease at the same moment exactly one creates it and becomes
   * the owner; the other reads it back and is read-only. A missing lease is free for everyone: the
   * first to ask creates it. A kitchen that can't be written answers `unwritable`: read-only, and no
   * write is tried again by this call. The lease decides who writes and who is woken; the O_EXCL
   * run claim, not the lease, is the hard guard against a double launch.
   */
  async acquireLease(mine: Lease, alive: HolderAlive, takeover = false): Promise<Acquire> {
    if (this.unwritable) return { kind: 'unwritable', ...holderOf(this.currentLease()), reason: this.unwritable }
    // A chef of the kitchen's older layout may still run: while it lives, it holds the kitchen.
    const legacy = readJson(join(this.root, 'pass.lock'))
    if (legacy.ok) {
      const old = check(leaseParser, legacy.value)
      if (old.ok && !takeover && !sameHolder(old.value, mine) && (await alive(old.value))) return { kind: 'held', holder: old.value }
    }
    let forced = takeover
    for (let attempt = 0; attempt < 8; attempt++) {
      const r = this.readLease()
      if (r.kind === 'lease' && sameHolder(r.lease, mine)) return { kind: 'owner', lease: r.lease }
      if (r.kind === 'lease' && !forced && (await alive(r.lease))) return { kind: 'held', holder: r.lease }
      let made: boolean
      try {
        made = this.createLease(mine, r.gen + 1)
      } catch (error) {
        if (!UNWRITABLE.has(errno(error) ?? '')) throw error
        return { kind: 'unwritable', ...holderOf(r.kind === 'lease' ? r.lease : undefined), reason: `the kitchen can't be written: ${(error as Error).message}` }
      }
      if (made) {
        this.dropLeasesBelow(r.gen + 1)
        try { unlinkSync(join(this.root, 'pass.lock')) } catch { /* none, or not ours to remove */ }
        return { kind: 'owner', lease: mine }
      }
      // Another session took generation g+1 at the same moment. A takeover takes it from them too,
      // once: two deliberate takeovers end with the later one, never with both.
      if (forced && attempt > 0) forced = false
    }
    const holder = this.currentLease()
    return holder ? { kind: 'held', holder } : { kind: 'held', holder: mine }
  }

  /** Older generations, once a newer one exists: nobody reads them again. */
  private dropLeasesBelow(gen: number): void {
    for (const g of this.leaseGenerations()) {
      if (g >= gen) continue
      try {
        unlinkSync(this.leaseFile(g))
      } catch {
        // already gone
      }
    }
  }

  /** Give the lease up when `mine` still holds it. */
  releaseLease(mine: Lease): void {
    const r = this.readLease()
    if (r.kind !== 'lease' || !sameHolder(r.lease, mine)) return
    try {
      unlinkSync(this.leaseFile(r.gen))
    } catch {
      // already gone
    }
  }

  // ---------------------------------------------------------------- projects

  addProject(spec: ProjectSpec): void {
    if (!isProjectName(spec.name)) throw new KitchenError('KITCHEN_BAD_INPUT', `"${spec.name}" is not a project name: use letters, digits, ".", "_" and "-", starting with a letter or digit`)
    this.w('project', this.projectFile(spec.name))
    if (!createExclusive(this.projectFile(spec.name), JSON.stringify(spec, null, 2) + '\n')) {
      throw new KitchenError('KITCHEN_PROJECT_EXISTS', `a project named "${spec.name}" is already registered; pick another name with "name"`)
    }
  }

  readProject(name: ProjectName): ProjectSpec | undefined {
    if (!isProjectName(name)) return undefined
    const r = readJson(this.projectFile(name))
    if (!r.ok) return undefined
    const p = parseProject(r.value)
    return p.ok && p.value.name === name && isAbsolute(p.value.path) ? p.value : undefined
  }

  // ---------------------------------------------------------------- tasks

  /**
   * Creates every task of a batch, or none. Each task is built whole in a staging directory
   * (`tasks/.new-<tag>`, which no reader lists), its id reserved by the `mkdir` of `tasks/<id>`
   * (the exclusive step: two owners racing for a number get one each), and then renamed onto that
   * empty reservation, so a reader sees a task complete or not at all. When any write fails (a full
   * disk), the tasks of this batch made so far are removed again and CreateTasksError says which, if
   * any, could not be (its `created`): nothing is left half-made or unlisted.
   */
  createTasks(items: readonly NewTask[]): TaskSpec[] {
    const done: { spec: TaskSpec; dir: string }[] = []
    for (const [i, item] of items.entries()) {
      try {
        done.push(this.createOne(item))
      } catch (error) {
        const left: TaskSpec[] = []
        for (const d of done.reverse()) {
          try {
            rmSync(d.dir, { recursive: true, force: true })
          } catch {
            left.unshift(d.spec)
          }
        }
        throw new CreateTasksError(left, i, error)
      }
    }
    return done.map((d) => d.spec)
  }

  /** One task of `createTasks` (see there). */
  createTask(project: ProjectName, build: (id: TaskId) => TaskSpec): TaskSpec {
    const r = this.createTasks([{ project, build }])
    return r[0]!
  }

  private createOne(item: NewTask): { spec: TaskSpec; dir: string } {
    const { project, build } = item
    if (!isProjectName(project)) throw new KitchenError('KITCHEN_BAD_INPUT', `"${project}" is not a project name`)
    const staging = join(this.tasksDir, `.new-${uniqueTag()}`)
    let reserved: string | undefined
    try {
      this.w('task', staging)
      mkdirSync(staging)
      for (const sub of [RUNS, SESSION, INBOX, join(INBOX, HANDLED)]) mkdirSync(join(staging, sub))
      let n = 1
      for (const name of readdirSync(this.tasksDir)) {
        const p = parseTaskId(name)
        if (p && p.project === project && p.n >= n) n = p.n + 1
      }
      let id: TaskId
      for (let tries = 0; ; n++, tries++) {
        id = taskId(project, n)
        try {
          mkdirSync(this.taskDir(id))
          reserved = this.taskDir(id)
          break
        } catch (error) {
          if (errno(error) === 'EEXIST' && tries < 10_000) continue
          throw error
        }
      }
      const spec = build(id)
      if (spec.id !== id || spec.project !== project) throw new KitchenError('KITCHEN_BAD_INPUT', `task spec must keep the allocated id ${id}`)
      const file = taskFileIn(staging)
      this.w('task', file)
      writeFileSync(file, JSON.stringify(spec, null, 2) + '\n', { mode: 0o644, flag: 'wx' })
      // rename(2) replaces the empty reservation atomically: the task appears whole.
      renameSync(staging, reserved)
      return { spec, dir: reserved }
    } catch (error) {
      rmSync(staging, { recursive: true, force: true })
      if (reserved) {
        try {
          rmdirSync(reserved)
        } catch {
          // renamed into place already: the caller's rollback removes it
        }
      }
      throw error
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
    this.ownDir(id)
    this.w('log', this.logFile(id))
    const fd = openNoFollow(id, this.logFile(id), constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT)
    try {
      writeSync(fd, JSON.stringify(event) + '\n')
    } finally {
      closeSync(fd)
    }
    this.touch(id)
  }

  writePrompt(id: TaskId, run: RunNo, text: string): void {
    this.ownDir(id, RUNS)
    this.w('prompt', this.promptFile(id, run))
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
      if (lstatSync(this.taskDir(id)).isSymbolicLink()) return
      utimesSync(this.taskDir(id), t, t)
    } catch (error) {
      if (errno(error) !== 'ENOENT') throw error
    }
  }

  readPrompt(id: TaskId, run: RunNo): string | undefined {
    this.ownDir(id, RUNS)
    try {
      return readNoFollow(id, this.promptFile(id, run), PROMPT_BYTES)
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
    this.ownDir(id, RUNS)
    this.w('claim', this.runFile(id, run))
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
    this.ownDir(id, RUNS)
    return openNoFollow(id, this.errFile(id, run), constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT)
  }

  /** Bytes in the run file, or undefined when it does not exist. */
  runFileSize(id: TaskId, run: RunNo): number | undefined {
    return stat(this.runFile(id, run))?.size
  }

  /** Size and mtime of the run file (not followed), or undefined. */
  runFileStat(id: TaskId, run: RunNo): { size: number; mtimeMs: Millis } | undefined {
    const st = lstatSync(this.runFile(id, run), { throwIfNoEntry: false })
    return st ? { size: st.size, mtimeMs: st.mtimeMs } : undefined
  }

  /**
   * A run file the log does not claim, moved out of the way (to `<n>.jsonl.unclaimed-<tag>`, which no
   * reader takes for a run) so the kitchen's own claim of that number can be made. Kept, not
   * deleted: it is evidence of who wrote into the kitchen.
   */
  moveAsideRun(id: TaskId, run: RunNo): boolean {
    this.ownDir(id, RUNS)
    const path = this.runFile(id, run)
    try {
      renameSync(path, `${path}.unclaimed-${uniqueTag()}`)
      this.touch(id)
      return true
    } catch (error) {
      if (errno(error) === 'ENOENT') return false
      throw error
    }
  }

  /** Removes an empty claim so the same run can launch again. False when the file has output or is gone. */
  reclaimRun(id: TaskId, run: RunNo): boolean {
    this.ownDir(id, RUNS)
    const path = this.runFile(id, run)
    const st = lstatSync(path, { throwIfNoEntry: false })
    if (!st || !st.isFile() || st.size !== 0) return false
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

  /**
   * Every line of a run file, parsed; bad and cut lines counted. For results and transcripts, not the
   * tick; at most `maxLines` lines are kept (the newest), so a huge run costs bounded memory.
   */
  readRunLines(id: TaskId, run: RunNo, maxLines = 10_000): { lines: RunLine[]; bad: number } {
    const reader = new LineReader()
    const lines: RunLine[] = []
    let bad = 0
    for (;;) {
      const got = reader.read(this.runFile(id, run))
      for (const raw of got.lines) {
        const line = isCut(raw) ? undefined : parseRunLine(raw)
        if (!line) bad++
        else {
          lines.push(line)
          if (lines.length > maxLines) lines.shift()
        }
      }
      if (!got.more) break
    }
    return { lines, bad }
  }

  // ---------------------------------------------------------------- inbox

  /** Drops a message into the inbox (tmp + rename), named by its time. Returns the file name. */
  writeMessage(id: TaskId, text: string, at: Millis): string {
    const name = inboxName(at, uniqueTag())
    const dir = this.ownDir(id, INBOX)
    const tmp = tmpName(dir, 'msg')
    this.w('message', tmp)
    try {
      writeFileSync(tmp, text, { mode: 0o644, flag: 'wx' })
      renameSync(tmp, join(dir, name))
    } catch (error) {
      try { unlinkSync(tmp) } catch { /* never made */ }
      throw error
    }
    this.touch(id)
    return name
  }

  /** The pending messages with their text, oldest first. A message moved meanwhile is left out. */
  readInbox(id: TaskId): InboxMessage[] {
    const out: InboxMessage[] = []
    const dir = this.ownDir(id, INBOX)
    for (const m of listInbox(dir)) {
      try {
        out.push({ ...m, text: readNoFollow(id, join(dir, m.name), MESSAGE_BYTES) })
      } catch (error) {
        if (errno(error) !== 'ENOENT') throw error
      }
    }
    return out
  }

  /** Moves a message to `inbox/handled/`. False when it was already moved (the cook took it). */
  handleMessage(id: TaskId, name: string): boolean {
    if (!INBOX_NAME.test(name)) throw new KitchenError('KITCHEN_BAD_INPUT', `"${name}" is not an inbox message name`)
    const dir = this.ownDir(id, INBOX)
    this.ownDir(id, INBOX, HANDLED)
    try {
      renameSync(join(dir, name), join(this.handledDir(id), name))
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
   * skipped with an error line, bad log and run lines are skipped and counted. Incremental (see
   * snapshot.ts): a file is read again only when it grew or changed, and a task record that did not
   * change is the same object as in the last snapshot.
   */
  snapshot(now: Millis = Date.now()): KitchenSnapshot {
    this.reader ??= new SnapshotReader(this)
    return this.reader.read(now)
  }

  // ---------------------------------------------------------------- the merge queue's entries

  /** The merge queue's directory: one entry per queued task, `merge/<id>.jsonl`; reported ones under `merge/ended/`. */
  get mergeDir(): string { return join(this.root, 'merge') }
  mergeEntryFile(id: string): string { return join(this.mergeDir, `${checkedId(id)}.jsonl`) }

  /** A directory of the merge queue's, made when missing, checked: its realpath is exactly this kitchen's, no symlink on the way. */
  private ownMerge(...sub: string[]): string {
    const path = join(this.mergeDir, ...sub)
    mkdirSync(path, { recursive: true })
    if (realpathSync.native(path) !== join(this.realRoot, 'merge', ...sub)) {
      throw new KitchenError('KITCHEN_IO', `${path} is a symlink or leads outside the kitchen; the kitchen does not follow it. Replace it with a directory`)
    }
    return path
  }

  /** Creates a task's entry with its first line, exclusively: false when the task has an entry already. */
  createMergeEntry(id: string, line: string): boolean {
    this.ownMerge()
    const file = this.mergeEntryFile(id)
    this.w('merge', file)
    return createExclusive(file, `${line}\n`)
  }

  /** Appends a line to a task's entry (which must exist; a symlink in its place is refused). */
  appendMergeEntry(id: string, line: string): void {
    this.ownMerge()
    const file = this.mergeEntryFile(id)
    this.w('merge', file)
    const fd = openSync(file, constants.O_WRONLY | constants.O_APPEND | constants.O_NOFOLLOW)
    try {
      writeSync(fd, `${line}\n`)
    } finally {
      closeSync(fd)
    }
  }

  /** Every entry with its complete lines, bounded; a file that is not a task's regular entry file is not read. */
  readMergeEntries(): { task: string; lines: string[] }[] {
    let names: string[]
    try {
      if (!lstatSync(this.mergeDir).isDirectory()) return []
      names = readdirSync(this.mergeDir)
    } catch {
      return []
    }
    const out: { task: string; lines: string[] }[] = []
    for (const name of names.sort()) {
      const task = /^(.+)\.jsonl$/.exec(name)?.[1]
      if (!task || !isTaskId(task)) continue
      let text: string
      try {
        text = readBounded(join(this.mergeDir, name), MERGE_ENTRY_BYTES)
      } catch {
        continue // not a regular file, or too big: not an entry the queue wrote
      }
      const lines = text.split('\n')
      lines.pop() // the part after the last newline: empty, or a line still being written
      out.push({ task, lines: lines.filter((l) => l.trim() !== '') })
    }
    return out
  }

  /** Sets a reported entry aside (under merge/ended/, kept), so the task can be queued again. */
  endMergeEntry(id: string): void {
    const dir = this.ownMerge('ended')
    this.w('merge', this.mergeEntryFile(id))
    try {
      renameSync(this.mergeEntryFile(id), join(dir, `${checkedId(id)}.${uniqueTag()}.jsonl`))
    } catch (error) {
      if (errno(error) !== 'ENOENT') throw error
    }
  }
}

/** An entry holds a few steps and a test's kept lines. */
const MERGE_ENTRY_BYTES = 512 * 1024

/** A task directory without task.json younger than this is being created, not broken. */
export const CREATING_MS = 10_000
/** A prompt holds a brief and messages, each capped; an inbox message is capped at dispatch. */
export const MESSAGE_BYTES = MAX_MESSAGE_CHARS * 4 + 1024
const PROMPT_BYTES = 8 * 1024 * 1024

function holderOf(lease: Lease | undefined): { holder?: Lease } {
  return lease ? { holder: lease } : {}
}

function checkedId(id: string): string {
  if (!isTaskId(id)) throw new KitchenError('KITCHEN_BAD_INPUT', `"${id}" is not a task id like "api-7"; the board lists the tasks`)
  return id
}

function brokenTask(id: string, reason: string): KitchenError {
  return new KitchenError('KITCHEN_BROKEN_TASK', `task ${id} is broken: ${reason}`)
}

/** Opens a task file without following a symlink in its place (O_NOFOLLOW: a link is ELOOP). */
function openNoFollow(id: string, path: string, flags: number): number {
  try {
    return openSync(path, flags | constants.O_NOFOLLOW, 0o644)
  } catch (error) {
    if (errno(error) === 'ELOOP') throw brokenTask(id, `${basename(path)} is a symlink; the kitchen does not follow it. Replace it with a file`)
    throw error
  }
}

/** A task file's text: a regular file only (no symlink, no FIFO), at most `max` bytes. */
function readNoFollow(id: string, path: string, max: number): string {
  try {
    return readBounded(path, max)
  } catch (error) {
    if (error instanceof FileProblem) throw brokenTask(id, `${error.message}. Replace it with the kitchen's own file`)
    throw error
  }
}
