/**
 * The incremental reader behind `Store.snapshot`: reads the kitchen for a tick, each file in isolation,
 * and again only what changed.
 *
 * What it trusts: append-only files (log, run files) are read from a kept offset when they grow; a
 * directory listing is read again when the directory's mtime changes. Every owner write in a task
 * touches the task directory (`Store.touch`), so a quiet task costs one stat. A task whose last run is
 * in flight is polled: its cook appends to the run file and err file and moves inbox messages, and
 * none of that changes the task directory. An mtime within RACY_MS of the moment it was seen is not
 * trusted (filesystem timestamps are coarse), so a change in the same tick as a read is never missed.
 * Run-file lines are folded as they arrive (the fold at the end of this file), at most a budget of
 * bytes per file and tick, lines over the reader's cap cut, so a huge or hostile run file costs
 * bounded memory and time and never breaks the task. Nothing in a task is followed through a
 * symlink, and a task.json naming a branch or worktree that is not the task's own makes the task
 * broken.
 *
 * Which runs a task has: for a task of format 2, the runs its log records (a `prompt` or `launch`
 * event); a run file is that run's output only when a `launch` event claims it, and any other file
 * in runs/ is not a run (a non-empty one is listed as a problem). Older tasks count their files.
 */
import { lstatSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import {
  MAX_KEPT_CALLS, REPORT_TOOL, TASK_FORMAT, isTaskId, oneLine, parseLogLine, taskBranchProblem, parseProject, parseRunLine, parseTask, parseTaskId, runNo,
  type BrokenTask, type KitchenSnapshot, type LogEvent, type Millis, type PendingMessage, type ProjectSpec,
  type RunFold, type RunLine, type RunNo, type RunRecord, type TaskId, type TaskRecord, type TaskSpec, type ToolCallSeen,
} from '../domain.js'
import type { NormalizedConfig } from './config.js'
import { normalizeKitchenConfig } from './config.js'
import { LineReader, isCut, listInbox, readJson, readTail, stat } from './files.js'

export type { BrokenTask, KitchenSnapshot, RunRecord, TaskRecord }

/** A directory is trusted unchanged by its mtime only when it was last seen this long after that mtime. */
const RACY_MS = 2_000
/** A task directory without task.json younger than this is being created, not broken. */
const CREATING_MS = 10_000
export const ERR_TAIL = 2_048
/** The longest texts a fold keeps: a run's memory stays small however much its cook writes. */
const MAX_KEPT_TEXT = 4_000
const MAX_KEPT_ERROR = 1_000
/** What one tick reads of one run file at most: a huge file is caught up with over a few ticks. */
const RUN_READ_BUDGET = 16 * 1024 * 1024

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
  reader = new LineReader({ budget: RUN_READ_BUDGET })
  /** The reader stopped at its budget: the file has bytes it did not read yet. */
  more = false
  /** A newer run exists and this one had its final read. */
  frozen = false
  record?: RunRecord
  constructor(readonly n: RunNo, id: TaskId, layout: SnapshotLayout) {
    this.path = layout.runFile(id, n)
    this.errPath = layout.errFile(id, n)
  }

  resetClaim(): void {
    this.fold = EMPTY_RUN_FOLD
    this.reader = new LineReader({ budget: RUN_READ_BUDGET })
    this.size = 0
    this.mtimeMs = 0
    this.errSize = 0
    this.errTail = ''
    this.more = false
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
  logMore = false
  /** Format 2: the runs the log records, and those it claims (a `launch` event). */
  intents = new Set<number>()
  launched = new Set<number>()
  /** Run files no `launch` event claims that hold output: listed as problems. */
  strays: string[] = []
  closed = false
  worktreeGone = false
  runsDir?: DirSig
  runs = new Map<number, RunCache>()
  inboxDir?: DirSig
  inbox: PendingMessage[] = []
  taskDirSig?: DirSig
  record?: TaskRecord
  readonly taskFile: string
  readonly logFile: string
  /** The entries that must not be symlinks, with their names for the broken reason. */
  readonly entries: readonly [string, string][]
  /** Why the task is broken by a symlink ('' when it is not); undefined until first checked. */
  links?: string
  constructor(readonly id: string, layout: SnapshotLayout) {
    const tid = id as TaskId
    this.dir = layout.taskDir(tid)
    this.runsPath = layout.runsDir(tid)
    this.inboxPath = layout.inboxDir(tid)
    this.taskFile = layout.taskFile(tid)
    this.logFile = layout.logFile(tid)
    const rel = (path: string) => path.slice(this.dir.length + 1)
    this.entries = [this.taskFile, this.logFile, this.runsPath, this.inboxPath, layout.handledDir(tid), layout.sessionDir(tid)].map((p) => [p, rel(p)])
  }

  /** The last run is claimed and has not settled (its cook may be writing), or a run file is half read. */
  active(): boolean {
    let last: RunCache | undefined
    for (const r of this.runs.values()) {
      if (r.more && !r.frozen) return true
      if (!last || r.n > last.n) last = r
    }
    return last !== undefined && last.claimed && last.fold.settledAt === undefined
  }
}

/** Where the reader finds what it reads: the Store owns the layout, the reader names no file. */
export interface SnapshotLayout {
  readonly configFile: string
  readonly projectsDir: string
  readonly tasksDir: string
  /** The project a file in `projects/` is for, or undefined for any other file. */
  projectOfFile(file: string): string | undefined
  projectFile(name: string): string
  taskDir(id: TaskId): string
  taskFile(id: TaskId): string
  logFile(id: TaskId): string
  runsDir(id: TaskId): string
  runFile(id: TaskId, run: RunNo): string
  errFile(id: TaskId, run: RunNo): string
  inboxDir(id: TaskId): string
  handledDir(id: TaskId): string
  sessionDir(id: TaskId): string
  /** Why `path` cannot be the worktree of `id`, or undefined when it is `worktrees/<id>`. */
  worktreeProblem(id: TaskId, path: string): string | undefined
  /** What a file in `runs/` is: the prompt or the run file of run `n`; undefined for others. */
  runEntry(file: string): { n: number; kind: 'prompt' | 'run' } | undefined
  worktree(id: TaskId): string
  loadConfig(): NormalizedConfig
  /** The config comes from the host, not from configFile. */
  readonly hostConfig: boolean
}

export class SnapshotReader {
  private readonly tasks = new Map<string, TaskCache>()
  private tasksDir?: DirSig
  private taskNames: string[] = []
  private configSig?: FileSig
  private configCache: NormalizedConfig = normalizeKitchenConfig(undefined)
  private projectsDir?: DirSig
  private projectCache = new Map<string, { sig: FileSig; spec?: ProjectSpec; error?: string }>()

  constructor(private readonly layout: SnapshotLayout) {}

  /**
   * Reads the kitchen for a tick, each file in isolation: a broken task.json lists the task as broken
   * with the reason, a bad config.json gives the defaults plus error lines, a bad project file is
   * skipped with an error line, bad log and run lines are skipped and counted. Incremental: a file is
   * read again only when it grew or changed, and a task record that did not change is the same object.
   */
  read(now: Millis): KitchenSnapshot {
    const errors: string[] = []
    const config = this.snapConfig()
    errors.push(...config.errors)
    let projects: ProjectSpec[] = []
    try {
      projects = this.snapProjects(errors)
    } catch (error) {
      errors.push(`projects/ cannot be read: ${(error as Error).message}`)
    }
    const tasks: TaskRecord[] = []
    const broken: BrokenTask[] = []
    let badLines = 0
    const problems: string[] = []
    const byName = new Map(projects.map((p) => [p.name, p]))
    for (const name of this.snapTaskNames()) {
      let cache = this.tasks.get(name)
      if (!cache) {
        // only a task id names task paths; anything else in tasks/ is listed, never read
        if (!isTaskId(name)) {
          broken.push({ id: name, reason: 'the directory name is not a task id like "api-7"' })
          continue
        }
        this.tasks.set(name, (cache = new TaskCache(name, this.layout)))
      }
      let rec: TaskRecord | BrokenTask | undefined
      try {
        rec = this.snapTask(cache, byName)
      } catch (error) {
        // One unreadable task (permissions, a file where a directory belongs) never stops the tick.
        this.tasks.delete(name)
        rec = { id: name, reason: `cannot be read: ${(error as Error).message}` }
      }
      if (rec === undefined) continue
      if ('reason' in rec) broken.push(rec)
      else {
        tasks.push(rec)
        badLines += rec.badLines
        for (const p of cache.strays) problems.push(`task ${name}: ${p}`)
      }
    }
    errors.push(...problems)
    return { at: now, config: config.config, errors, projects, tasks, broken, badLines }
  }

  /** Cache checks use the real clock whatever `now` a caller passes: they compare with file mtimes. */
  private changedDir(path: string, sig: DirSig | undefined): DirSig | undefined | 'gone'
  private changedDir(path: string, sig: DirSig | undefined, noFollow: true): DirSig | undefined | 'gone' | 'link'
  private changedDir(path: string, sig: DirSig | undefined, noFollow = false): DirSig | undefined | 'gone' | 'link' {
    const now = Date.now()
    const st = noFollow ? lstatSync(path, { throwIfNoEntry: false }) : stat(path)
    if (!st) return 'gone'
    if (st.isSymbolicLink()) return 'link'
    if (sig && st.mtimeMs === sig.mtimeMs && st.ino === sig.ino && sig.seenAt - sig.mtimeMs > RACY_MS) return undefined
    return { mtimeMs: st.mtimeMs, ino: st.ino, seenAt: now }
  }

  private snapConfig(): NormalizedConfig {
    if (this.layout.hostConfig) return this.layout.loadConfig()
    const st = stat(this.layout.configFile)
    const sig = st && { mtimeMs: st.mtimeMs, ino: st.ino, size: st.size }
    if (sameFile(sig, this.configSig) && !racy(sig)) return this.configCache
    this.configSig = sig
    this.configCache = this.layout.loadConfig()
    return this.configCache
  }

  private snapProjects(errors: string[]): ProjectSpec[] {
    const dir = this.layout.projectsDir
    const changed = this.changedDir(dir, this.projectsDir)
    if (changed === 'gone') return []
    if (changed) {
      this.projectsDir = changed
      const names = new Set(readdirSync(dir).filter((n) => this.layout.projectOfFile(n) !== undefined))
      for (const n of this.projectCache.keys()) if (!names.has(n)) this.projectCache.delete(n)
      for (const n of names) if (!this.projectCache.has(n)) this.projectCache.set(n, { sig: { mtimeMs: -1, ino: -1, size: -1 } })
    }
    const out: ProjectSpec[] = []
    for (const [file, entry] of this.projectCache) {
      const st = stat(this.layout.projectFile(this.layout.projectOfFile(file)!))
      if (!st) continue
      const sig = { mtimeMs: st.mtimeMs, ino: st.ino, size: st.size }
      if (!sameFile(sig, entry.sig) || racy(sig)) {
        entry.sig = sig
        delete entry.spec
        delete entry.error
        const r = readJson(this.layout.projectFile(this.layout.projectOfFile(file)!))
        const p = r.ok ? parseProject(r.value) : r
        if (!p.ok) entry.error = `projects/${file} is skipped: ${p.reason}`
        else if (p.value.name !== this.layout.projectOfFile(file)) entry.error = `projects/${file} is skipped: its name "${p.value.name}" does not match the file name`
        else entry.spec = p.value
      }
      if (entry.error) errors.push(entry.error)
      if (entry.spec) out.push(entry.spec)
    }
    return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  }

  private snapTaskNames(): string[] {
    const dir = this.layout.tasksDir
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

  private snapTask(c: TaskCache, projects: ReadonlyMap<string, ProjectSpec>): TaskRecord | BrokenTask | undefined {
    const dir = c.dir
    let dirty = false
    // Nothing in a task is followed through a symlink: the task directory itself, its files and
    // subdirectories, and run files are checked with lstat whenever the task directory changed.
    const td = this.changedDir(dir, c.taskDirSig, true)
    if (td === 'link') {
      delete c.taskDirSig
      delete c.record
      return { id: c.id, reason: `tasks/${c.id} is a symlink; the kitchen does not follow symlinks in tasks/. Move the task directory there, or remove the link` }
    }
    if (td !== 'gone' && (td !== undefined || c.links === undefined)) c.links = this.linkIn(c)
    if (c.links) {
      delete c.record
      return { id: c.id, reason: c.links }
    }
    if (!c.spec) {
      const st = stat(c.taskFile)
      const sig = st && { mtimeMs: st.mtimeMs, ino: st.ino, size: st.size }
      if (!st) {
        const d = stat(dir)
        if (!d || !d.isDirectory()) return { id: c.id, reason: 'not a task directory' }
        if (Date.now() - d.mtimeMs < CREATING_MS) return undefined
        return { id: c.id, reason: 'task.json is missing (the dispatch stopped before writing it)' }
      }
      if (!sameFile(sig, c.specSig) || racy(sig) || c.broken === undefined) {
        c.specSig = sig
        const r = readJson(c.taskFile)
        const t = r.ok ? parseTask(r.value) : r
        if (!t.ok) c.broken = r.ok ? `task.json: ${t.reason}` : t.reason
        else if (t.value.id !== c.id) c.broken = `task.json names the task "${t.value.id}", not "${c.id}"`
        else if (this.trustProblems(t.value, projects)) c.broken = `task.json: ${this.trustProblems(t.value, projects)}; the kitchen will not touch them. Restore the task's own branch and worktree`
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
    if (td === 'gone') return undefined
    if (td) c.taskDirSig = td
    const active = c.active()
    if (!td && !c.logMore && c.record && !active && (!c.closed || c.worktreeGone)) return c.record

    let logChanged = false
    if (td || c.logMore) {
      let log
      try {
        log = c.logReader.read(c.logFile)
      } catch (error) {
        delete c.record
        this.tasks.delete(c.id)
        return { id: c.id, reason: `log.jsonl can't be read: ${(error as Error).message}` }
      }
      c.logMore = log.more
      if (log.reset) {
        c.log = []
        c.logBad = 0
        c.closed = false
        c.intents = new Set()
        c.launched = new Set()
      }
      if (log.lines.length > 0 || log.reset) {
        dirty = true
        logChanged = true
        c.log = [...c.log]
        for (const text of log.lines) {
          const e = isCut(text) ? undefined : parseLogLine(text)
          if (!e) c.logBad++
          else {
            c.log.push(e)
            if (e.type === 'closed') c.closed = true
            else if (e.type === 'prompt') c.intents.add(e.run)
            else if (e.type === 'launch') {
              c.intents.add(e.run)
              c.launched.add(e.run)
            }
          }
        }
      }
    }

    if (c.closed) {
      if (!c.worktreeGone && !stat(this.layout.worktree(id))) {
        c.worktreeGone = true
        dirty = true
      }
    } else {
      if (this.snapRuns(c, td !== undefined, logChanged)) dirty = true
      if (c.links) {
        delete c.record
        return { id: c.id, reason: c.links }
      }
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
      r.record ??= {
        n: r.n,
        hasPrompt: r.hasPrompt,
        claimed: r.claimed,
        size: r.size,
        mtimeMs: r.mtimeMs,
        errSize: r.errSize,
        errTail: r.errTail,
        fold: r.fold,
        ...(r.more ? { partial: true } : {}),
      }
      runs.push(r.record)
      bad += r.fold.bad
    }
    c.record = {
      id, spec: c.spec, log: c.log, runs, inbox: c.inbox,
      worktreeExists: c.closed ? !c.worktreeGone : true, badLines: bad,
    }
    return c.record
  }

  /**
   * What task.json names that the task may not touch: a worktree other than `worktrees/<id>`, the
   * base branch or another task's branch. Empty when it is the task's own.
   */
  private trustProblems(spec: TaskSpec, projects: ReadonlyMap<string, ProjectSpec>): string {
    const problems = [this.layout.worktreeProblem(spec.id, spec.worktree), taskBranchProblem(spec, projects.get(spec.project))]
    return problems.filter((p) => p !== undefined).join('; ')
  }

  /** The first entry of a task that is a symlink, as a broken reason; '' when there is none. */
  private linkIn(c: TaskCache): string {
    for (const [path, name] of c.entries) {
      if (lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink()) {
        return `tasks/${c.id}/${name} is a symlink; the kitchen does not follow symlinks in a task. Replace it with a real ${name.endsWith('.json') || name.endsWith('.jsonl') ? 'file' : 'directory'}`
      }
    }
    return ''
  }

  /** Updates the runs of a task; true when anything changed. */
  private snapRuns(c: TaskCache, scan: boolean, logChanged: boolean): boolean {
    const dir = c.runsPath
    let dirty = false
    const claims = c.spec?.format === TASK_FORMAT
    let changed = scan ? this.changedDir(dir, c.runsDir) : undefined
    // Format 2: a new event can make a file a run (or not) without the directory changing.
    if (!changed && claims && logChanged) changed = this.changedDir(dir, undefined)
    if (changed) {
      c.runsDir = changed === 'gone' ? undefined : changed
      const seen = new Map<number, { prompt: boolean; run: boolean }>()
      const strays: string[] = []
      for (const ent of changed === 'gone' ? [] : readdirSync(dir, { withFileTypes: true })) {
        const name = ent.name
        const entry = this.layout.runEntry(name)
        if (!entry) continue
        if (ent.isSymbolicLink()) {
          c.links = `tasks/${c.id}/runs/${name} is a symlink; the kitchen does not follow symlinks in a task. Replace it with the run's own file`
          return true
        }
        const n = entry.n
        // Format 2: only what the log records is a run; a file beside it is nobody's claim.
        if (claims && !c.intents.has(n)) {
          if (entry.kind === 'run' && (lstatSync(join(dir, name), { throwIfNoEntry: false })?.size ?? 0) > 0) strays.push(`runs/${name} was not claimed by the kitchen; it is not read`)
          continue
        }
        if (claims && entry.kind === 'run' && !c.launched.has(n)) {
          if ((lstatSync(join(dir, name), { throwIfNoEntry: false })?.size ?? 0) > 0) strays.push(`runs/${name} was not claimed by the kitchen; it is not read`)
          continue
        }
        const e = seen.get(n) ?? { prompt: false, run: false }
        if (entry.kind === 'run') e.run = true
        else e.prompt = true
        seen.set(n, e)
      }
      // A run the log records keeps its place even before (or without) its files.
      if (claims) for (const n of c.intents) if (!seen.has(n)) seen.set(n, { prompt: false, run: false })
      if (strays.join('\n') !== c.strays.join('\n')) {
        c.strays = strays
        dirty = true
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
          r = new RunCache(runNo(n), c.id as TaskId, this.layout)
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
      // gone. Either way this was the final read, once nothing is left unread.
      if (!r.more && (r.n < last || r.fold.settledAt !== undefined)) r.frozen = true
    }
    return dirty
  }

  private pollRun(r: RunCache): boolean {
    const path = r.path
    const st = lstatSync(path, { throwIfNoEntry: false })
    if (!st) return false
    let changed = false
    if (st.size !== r.size || st.mtimeMs !== r.mtimeMs || r.more) {
      try {
        const got = r.reader.read(path)
        if (got.reset) r.fold = EMPTY_RUN_FOLD
        let cut = 0
        const parsed: (RunLine | undefined)[] = []
        for (const line of got.lines) {
          if (isCut(line)) cut++
          else parsed.push(parseRunLine(line))
        }
        r.fold = foldRunLines(r.fold, parsed)
        if (cut > 0) r.fold = { ...r.fold, bad: r.fold.bad + cut, cut: (r.fold.cut ?? 0) + cut }
        r.more = got.more
      } catch (error) {
        // A run file that can't be read (a FIFO planted in its place, an I/O error): the run's own
        // problem, named; the task and the rest of the kitchen read on.
        r.fold = { ...r.fold, readError: `runs/${r.n}.jsonl can't be read: ${(error as Error).message}` }
        r.more = false
        r.frozen = true
      }
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

// ---------------------------------------------------------------- the run-file fold

/*
 * What one run did, folded line by line. Pure; the reader applies it to the lines that arrived since
 * the last tick, so a tick never re-reads a run. It lives with the store because only the incremental
 * read of a run file uses it: derive reads the folded `RunFold`, never the lines.
 */

export const EMPTY_RUN_FOLD: RunFold = Object.freeze({ lines: 0, bad: 0, prompted: false, lastText: '' })

type Mutable = { -readonly [K in keyof RunFold]: RunFold[K] }

/** Folds one parsed line (or `undefined` for a bad one). Returns a new fold; the old one is unchanged. */
export function foldRunLine(fold: RunFold, line: RunLine | undefined): RunFold {
  const next: Mutable = { ...fold }
  apply(next, line)
  return next
}

/** Folds a batch of lines into one new fold (one copy for the batch, not one per line). */
export function foldRunLines(fold: RunFold, lines: readonly (RunLine | undefined)[]): RunFold {
  if (lines.length === 0) return fold
  const next: Mutable = { ...fold }
  for (const line of lines) apply(next, line)
  return next
}

function apply(next: Mutable, line: RunLine | undefined): void {
  if (line === undefined) {
    next.bad++
    return
  }
  next.lines++
  next.lastAt = line.at
  const act = (text: string) => (next.activity = { text, since: line.at })
  switch (line.type) {
    case 'run_start':
      next.startedAt = line.at
      next.sessionId = line.sessionId
      if (next.model === undefined) next.model = line.model
      act('starting')
      break
    case 'prompted':
      next.prompted = true
      act(line.source === 'steer' ? `steered: ${oneLine(line.text, 80)}` : 'thinking')
      break
    case 'assistant':
      next.model = line.model
      if (line.text.trim() !== '') next.lastText = keep(line.text.trim(), MAX_KEPT_TEXT)
      if (line.stopReason === 'error') {
        next.providerError = keep(line.error ?? 'the model call failed with no error text', MAX_KEPT_ERROR)
        act(`provider error: ${oneLine(next.providerError, 80)}`)
      } else {
        delete next.providerError
        act(line.text.trim() !== '' && line.stopReason !== 'tool_use' ? `writing: ${oneLine(line.text, 80)}` : 'thinking')
      }
      break
    case 'tool_start':
      act(line.activity.trim() === '' ? line.tool : `${line.tool}: ${oneLine(line.activity, 120)}`)
      if (line.tool !== REPORT_TOOL) {
        startCall(next, line.callId, line.activity.trim() === '' ? line.tool : `${line.tool}: ${oneLine(line.activity, MAX_CALL_TEXT)}`)
      }
      break
    case 'tool_end':
      if (line.tool === REPORT_TOOL && line.report && !line.isError) {
        next.report = { status: line.report.status, summary: keep(line.report.summary, MAX_KEPT_TEXT) }
      } else if (line.tool !== REPORT_TOOL) endCall(next, line)
      act('thinking')
      break
    case 'settled':
      next.settledAt = line.at
      act('settled')
      break
    case 'runner_error':
      next.runnerError = keep(line.message, MAX_KEPT_ERROR)
      break
  }
}

/** Calls started and not ended that a fold remembers (a harness runs a few at once at most). */
const MAX_OPEN_CALLS = 8
/** The characters of a call's text and of its failure a fold keeps. */
const MAX_CALL_TEXT = 200

function startCall(next: Mutable, id: string, text: string): void {
  next.open = [...(next.open ?? []).filter((c) => c.id !== id).slice(-(MAX_OPEN_CALLS - 1)), { id, text }]
}

/** A call ended: it joins the kept calls (the last MAX_KEPT_CALLS), with how it failed when it did. */
function endCall(next: Mutable, line: Extract<RunLine, { type: 'tool_end' }>): void {
  const started = next.open?.find((c) => c.id === line.callId)
  if (started) next.open = next.open!.filter((c) => c !== started)
  const failed = line.isError ? oneLine(failureOf(line.tail ?? ''), MAX_CALL_TEXT) : undefined
  const call: ToolCallSeen = { text: started?.text ?? line.tool, ...(failed !== undefined ? { failed } : {}) }
  next.calls = [...(next.calls ?? []).slice(-(MAX_KEPT_CALLS - 1)), call]
  next.toolCalls = (next.toolCalls ?? 0) + 1
  if (failed !== undefined) next.failedCalls = (next.failedCalls ?? 0) + 1
}

/**
 * How a failed call ended, from its output's tail: the status lines a shell tool ends its output
 * with (`[timed out after 60000ms]`, `[killed by signal: SIGTERM]`), all of them, else the last line.
 */
function failureOf(tail: string): string {
  const lines = tail.trim().split('\n').map((l) => l.trim())
  let i = lines.length
  while (i > 0 && /^\[[^\]]*\]$/.test(lines[i - 1]!)) i--
  const markers = lines.slice(i)
  return markers.length > 0 ? markers.join('; ') : lines.at(-1) || 'it ended in an error'
}

/** A text kept by a fold, cut to `max` characters with an ellipsis. */
function keep(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`
}
