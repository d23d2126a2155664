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
import {
  closeSync, constants, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, realpathSync, renameSync,
  unlinkSync, utimesSync, writeFileSync, writeSync,
} from 'node:fs'
import { basename, dirname, isAbsolute, join, sep } from 'node:path'
import { check } from '../check.js'
import {
  INBOX_NAME, KitchenError, inboxName, isProjectName, isTaskId, lease as leaseParser, parseProject,
  parseRunLine, parseTask, parseTaskId, sameHolder, taskId,
  type HolderAlive, type KitchenSnapshot, type Lease, type LogEvent, type Millis, type PendingMessage,
  type ProjectName, type ProjectSpec, type RunNo, type TaskId, type TaskSpec,
} from '../domain.js'

import { normalizeKitchenConfig, type NormalizedConfig } from './config.js'
import { LineReader, createExclusive, errno, listInbox, readJson, readTail, stat, tmpName, uniqueTag, writeAtomic } from './files.js'
import { ERR_TAIL, SnapshotReader, type SnapshotLayout } from './snapshot.js'

export { normalizeKitchenConfig, defaultKitchenConfig, DEFAULT_KITCHEN_CONFIG, type NormalizedConfig } from './config.js'
export { LineReader } from './files.js'
export { foldRunLine, foldRunLines, EMPTY_RUN_FOLD } from './snapshot.js'

/** The result of taking the lease. */
export type Acquire = { kind: 'owner'; lease: Lease } | { kind: 'held'; holder: Lease }

export interface InboxMessage extends PendingMessage {
  text: string
}

export class Store implements SnapshotLayout {
  /** The kitchen root as given, and as the kernel reports it (symlinks resolved). */
  readonly root: string
  readonly realRoot: string
  private readonly realTasks: string
  private readonly realWorktrees: string
  private reader?: SnapshotReader

  private constructor(root: string) {
    this.root = root
    this.realRoot = realpathSync.native(root)
    this.realTasks = join(this.realRoot, 'tasks')
    this.realWorktrees = join(this.realRoot, 'worktrees')
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
  get projectsDir(): string { return join(this.root, 'projects') }
  get tasksDir(): string { return join(this.root, 'tasks') }
  projectFile(name: ProjectName): string { return join(this.projectsDir, `${name}.json`) }
  /** The project a file name in `projects/` is for, or undefined for any other file. */
  projectOfFile(file: string): string | undefined {
    return file.endsWith('.json') && !file.startsWith('.') ? file.slice(0, -'.json'.length) : undefined
  }
  /** Every task path starts here: an id that is not a task id (`..`, a slash) names no path at all. */
  taskDir(id: TaskId): string { return join(this.tasksDir, checkedId(id)) }
  runsDir(id: TaskId): string { return join(this.taskDir(id), 'runs') }
  taskFile(id: TaskId): string { return join(this.taskDir(id), 'task.json') }
  logFile(id: TaskId): string { return join(this.taskDir(id), 'log.jsonl') }
  promptFile(id: TaskId, run: RunNo): string { return join(this.runsDir(id), `${run}.prompt.md`) }
  runFile(id: TaskId, run: RunNo): string { return join(this.runsDir(id), `${run}.jsonl`) }
  errFile(id: TaskId, run: RunNo): string { return join(this.runsDir(id), `${run}.err`) }
  /** What a file name in `runs/` is: the prompt or the run file of run `n`; undefined for others. */
  runEntry(file: string): { n: number; kind: 'prompt' | 'run' } | undefined {
    const m = /^([1-9][0-9]{0,8})\.(prompt\.md|jsonl)$/.exec(file)
    return m ? { n: Number(m[1]), kind: m[2] === 'jsonl' ? 'run' : 'prompt' } : undefined
  }
  sessionDir(id: TaskId): string { return join(this.taskDir(id), 'session') }
  inboxDir(id: TaskId): string { return join(this.taskDir(id), 'inbox') }
  handledDir(id: TaskId): string { return join(this.inboxDir(id), 'handled') }
  worktree(id: TaskId): string { return join(this.root, 'worktrees', checkedId(id)) }

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

  /** The lease as it is on disk, or undefined when there is none or it does not parse. */
  currentLease(): Lease | undefined {
    const r = this.readLease()
    return r.kind === 'lease' ? r.lease : undefined
  }

  /** Takes a free lease; false when a lease file exists. */
  createLease(lease: Lease): boolean {
    return createExclusive(this.leaseFile, JSON.stringify(lease) + '\n')
  }

  /** Replaces the lease (takeover, or a stale holder). */
  replaceLease(lease: Lease): void {
    writeAtomic(this.leaseFile, JSON.stringify(lease) + '\n')
  }

  /**
   * Take the lease when it is free, stale, unreadable, or when `takeover` says so. A free lease is
   * created exclusively; a stale one is replaced by tmp plus rename and read back, so of two sessions
   * that replace it at once only the one whose write stayed becomes the owner. The lease decides who
   * writes and who is woken; the O_EXCL run claim, not the lease, is the hard guard against a double launch.
   */
  async acquireLease(mine: Lease, alive: HolderAlive, takeover = false): Promise<Acquire> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const r = this.readLease()
      if (r.kind === 'lease' && sameHolder(r.lease, mine)) return { kind: 'owner', lease: r.lease }
      if (r.kind === 'none') {
        if (this.createLease(mine)) return { kind: 'owner', lease: mine }
        continue
      }
      if (r.kind === 'lease' && !takeover && (await alive(r.lease))) return { kind: 'held', holder: r.lease }
      this.replaceLease(mine)
      const after = this.currentLease()
      if (sameHolder(after, mine)) return { kind: 'owner', lease: mine }
      if (after) return { kind: 'held', holder: after }
    }
    const holder = this.currentLease()
    return holder ? { kind: 'held', holder } : { kind: 'held', holder: mine }
  }

  /** Give the lease up when `mine` still holds it. */
  releaseLease(mine: Lease): void {
    if (!sameHolder(this.currentLease(), mine)) return
    try {
      unlinkSync(this.leaseFile)
    } catch {
      // already gone
    }
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
    for (const name of readdirSync(this.tasksDir)) {
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
    this.ownDir(id)
    const fd = openNoFollow(id, this.logFile(id), constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT)
    try {
      writeSync(fd, JSON.stringify(event) + '\n')
    } finally {
      closeSync(fd)
    }
    this.touch(id)
  }

  writePrompt(id: TaskId, run: RunNo, text: string): void {
    this.ownDir(id, 'runs')
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
    this.ownDir(id, 'runs')
    try {
      return readNoFollow(id, this.promptFile(id, run))
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
    this.ownDir(id, 'runs')
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
    this.ownDir(id, 'runs')
    return openNoFollow(id, this.errFile(id, run), constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT)
  }

  /** Bytes in the run file, or undefined when it does not exist. */
  runFileSize(id: TaskId, run: RunNo): number | undefined {
    return stat(this.runFile(id, run))?.size
  }

  /** Removes an empty claim so the same run can launch again. False when the file has output or is gone. */
  reclaimRun(id: TaskId, run: RunNo): boolean {
    this.ownDir(id, 'runs')
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
    const name = inboxName(at, uniqueTag())
    const dir = this.ownDir(id, 'inbox')
    const tmp = tmpName(dir, 'msg')
    writeFileSync(tmp, text, { mode: 0o644, flag: 'wx' })
    renameSync(tmp, join(dir, name))
    this.touch(id)
    return name
  }

  /** The pending messages with their text, oldest first. A message moved meanwhile is left out. */
  readInbox(id: TaskId): InboxMessage[] {
    const out: InboxMessage[] = []
    const dir = this.ownDir(id, 'inbox')
    for (const m of listInbox(dir)) {
      try {
        out.push({ ...m, text: readNoFollow(id, join(dir, m.name)) })
      } catch (error) {
        if (errno(error) !== 'ENOENT') throw error
      }
    }
    return out
  }

  /** Moves a message to `inbox/handled/`. False when it was already moved (the cook took it). */
  handleMessage(id: TaskId, name: string): boolean {
    if (!INBOX_NAME.test(name)) throw new KitchenError('KITCHEN_BAD_INPUT', `"${name}" is not an inbox message name`)
    const dir = this.ownDir(id, 'inbox')
    this.ownDir(id, 'inbox', 'handled')
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

function readNoFollow(id: string, path: string): string {
  const fd = openNoFollow(id, path, constants.O_RDONLY)
  try {
    return readFileSync(fd, 'utf8')
  } finally {
    closeSync(fd)
  }
}
