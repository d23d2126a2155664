/**
 * The kitchen: the seven operations (add project, dispatch, board, send, stop, result, close) plus
 * `tick`, on one serialized promise chain, and the merge queue's `merge` (merge-queue.ts), which
 * runs off the chain and goes through the operations and the lease check. A mutation runs in the order lease check, read, decide,
 * write, then the tick body, so a lost lease is found before the first write and no interval tick
 * changes a task between a decision and its write. Every read checks liveness first and reads the
 * task files after it. No harness types: the shell injects the clock, the cook command and the
 * config, the model check, the wake delivery and the snapshot emitter through `KitchenDeps`.
 *
 * What the kitchen trusts: what it wrote itself, and its host. The launch command and the config
 * come from the host (`KitchenDeps`), never from a file in the kitchen directory; a project's
 * settings are what the owner recorded when it read them first (a file rewritten later is reported,
 * not used); a task's runs are the ones its log claims; a cook's branch comes back only by a
 * fast-forward fetch from its clone, checked against the tip the kitchen reported before.
 */
import { randomUUID, createHash } from 'node:crypto'
import { closeSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { realpath } from 'node:fs/promises'
import { homedir, tmpdir } from 'node:os'
import { basename, join, relative, resolve, isAbsolute } from 'node:path'
import {
  COOK_MARKER_ENV, CookMap, CookTrees, DEFAULT_COOK_COMMAND, cookArgv, holderAlive, kitchenKey, procStat, selfIdentity, signalCook, spawnCook,
  type CookExit, type TreeTarget,
} from './cooks/index.js'
import {
  boardText, closeText, closeVerdict, dispatchFailedText, dispatchText, dispatched, launchPrompt, normalizeDispatch, plan,
  projectText, restartText, resultClaim, resultFacts, rulebookFor, rulebookText, selectModels, wakeText, cooksSnapshot, leaseLostText,
  diffText, mergeReportText, mergeWakeText, overlapText, type MergeWhere,
  type Action, type CooksSnapshot, type DispatchItem, type ModelCheck, type ResultFacts,
} from './derive/index.js'
import {
  DEFAULT_BRANCH_PREFIX, KitchenError, MAX_MESSAGE_CHARS, MAX_NOTE_CHARS, MAX_VERIFIED_COMMAND_CHARS, TASK_FORMAT, isProjectName, sameHolder,
  type Dispatched, type SendResult, type Standing, type StopResult, type HolderAlive, type Identity, type KitchenConfig, type KitchenSnapshot, type Lease,
  type LiveCook, type LiveMap, type Millis, type Notice, type ProjectSpec, type RunNo, type TaskId,
  type TaskRecord, type TaskSpec, type TaskView, type WakeFacts,
} from './domain.js'
import * as git from './git.js'
import * as merging from './land.js'
import { MergeQueue, overlaps, type MergeEntry, type MergeFault, type MergePort, type MergeReview, type MergeTarget, type MergeTest } from './merge-queue.js'
import { CreateTasksError, Store, type StoreWrite } from './store/index.js'
import { Waker, type Wake } from './waker.js'

export type { Dispatched, SendResult, StopResult, Standing }

/** Named points where a test may stop the owner as if it crashed there. */
export type FaultPoint =
  | 'tick:read' | 'tick:planned' | 'tick:acted'
  | 'launch:worktree' | 'launch:prompt' | 'launch:handled' | 'launch:claimed' | 'launch:spawned'
  | 'dispatch:created' | 'send:written' | 'stop:logged' | 'stop:signalled'
  | 'close:logged' | 'close:removed' | 'notify:delivered'
  | MergeFault

export interface KitchenDeps {
  /** The cook command template (see `cookArgv`): the only source of the launch command (a function: read at each launch). */
  cookCommand?: readonly string[] | (() => readonly string[])
  /**
   * The kitchen config from the host, raw (the harness row): when given, config.json is never read,
   * and only from here come `cookArgs`. Called at each tick, so a live config applies at once.
   */
  config?: () => unknown
  /** Extra environment for every cook. */
  cookEnv?: Record<string, string>
  now?: () => Millis
  /** Whether a model can run; without it every candidate counts as available. */
  modelCheck?: ModelCheck
  /** Hand a wake to the chef: true once its session received it, false when it was dropped. */
  deliver?: (wake: Wake) => Promise<boolean>
  /** The integration snapshot, after each tick when it changed. */
  emit?: (snapshot: CooksSnapshot) => void
  /** Error lines for the person (config, broken tasks, git failures), each once while it lasts. */
  report?: (lines: string[]) => void
  sessionId?: string
  /** This process in the lease; tests give each owner its own. */
  identity?: Identity
  holderAlive?: HolderAlive
  /** Throws to simulate a crash at a named point; the instance is then dead. */
  fault?: (point: FaultPoint) => void
  /** Throws to make a named store write fail as a full or read-only disk would (tests). */
  writeFault?: (what: StoreWrite, path: string) => void
  /**
   * The project's test command line (its discovered or named one), for the facts a wake gives beside
   * a cook's claim; without it a wake names no test command.
   */
  testCommand?: (project: ProjectSpec) => string | undefined
  /**
   * The project's test command on a branch brought onto its base, confined to the merge queue's work
   * clone and gated as verify runs it (the host's); without it the kitchen merges nothing.
   */
  mergeTest?: MergeTest
  /** Whether cooks get a control group of their own where the system allows it (default true). */
  cgroups?: boolean
  /** A read-only session's interval tick took the lease: here is the owner. */
  promoted?: (kitchen: Kitchen) => void
  /** The owner lost the lease (another session took it): here is the session's reader. */
  demoted?: (reader: KitchenReader) => void
  /** Interval tick (default 1000 ms); 0 ticks only on operations and cook exits. */
  tickMs?: number
  wakeQuietMs?: number
  wakeCapMs?: number
}

export type Opened =
  | { kind: 'owner'; kitchen: Kitchen }
  /** `holder` the lease's holder; without one, `reason` says why this session can't own (a read-only disk). */
  | { kind: 'read-only'; reader: KitchenReader; holder?: Lease; reason?: string }

export interface AddProjectInput {
  path: string
  name?: string
  note?: string
  baseBranch?: string
  branchPrefix?: string
  /** The name of the project's test command (one of its discovered commands). */
  testCommand?: string
}

export interface DispatchResult {
  tasks: (Dispatched & { skipped: { model: string; reason: string }[]; again?: boolean })[]
  busy: number
  cap: number
  text: string
}

export interface CloseResult {
  task: TaskId
  worktree: git.RemoveResult | { error: string }
  branch: git.BranchDeletion | { error: string }
  /** Leftover processes of the task's runs that the close ended. */
  ended: number
  text: string
}

/** What `result` answers: the facts its text is made from, the task's state, and that text. */
export interface ResultView extends ResultFacts {
  task: TaskId
  state: TaskView['state']
  commits: string[]
  /** The branch's full commit in the project, when it has one. */
  tipCommit?: string
  /** The kitchen's own facts (the first lines of `text`). */
  facts: string
  /** The cook's words, on one line marked as its claim (the last line of `text`), when it said any. */
  said?: string
  text: string
}

/** The most open tasks whose changed files a wake or a dispatch compares. */
const OVERLAP_TASKS = 40

const crashed = () => new KitchenError('KITCHEN_IO', 'this kitchen instance stopped after a simulated crash; open the kitchen again')

/** A project's settings as the kitchen uses them, for comparing a recorded one with a file. */
function projectKey(p: ProjectSpec): string {
  return JSON.stringify([p.name, p.path, p.baseBranch, p.branchPrefix, p.testCommand ?? ''])
}

/** The facts of result and close: the branch brought back (or not), the clone, the landing. */
interface Review {
  back: git.BringBack | undefined
  /** The branch's commit in the project now. */
  tip?: string
  /** Why the branch is not (fully) back: rewritten, or git refused; undefined when it is. */
  notBack?: string
  clone: git.CloneState
  land: git.Landing
}

/** The read side both roles share: liveness, the snapshot, views, board and result. */
abstract class KitchenBase {
  readonly store: Store
  protected readonly cooks: CookMap
  protected readonly trees: CookTrees
  /** Runs with output that a scan did not find: dead for good (a claim is never reused). */
  private readonly deadRuns = new Set<string>()
  protected lastErrors = new Set<string>()
  protected lastSnapshot = ''
  protected abstract readonly role: 'owner' | 'read-only'
  /** This session's standing in the lease as of now. */
  abstract standing(): Standing
  /** Each project as this session first read or added it: what a later file says is reported, not used. */
  private readonly recorded = new Map<string, ProjectSpec>()
  private readonly drifted = new Map<string, string>()

  constructor(
    readonly root: string,
    protected readonly deps: KitchenDeps,
    readonly sessionId: string,
  ) {
    this.store = Store.open(root, { ...(deps.config ? { config: deps.config } : {}), ...(deps.writeFault ? { writeFault: deps.writeFault } : {}) })
    this.cooks = new CookMap((p) => this.store.taskOfRunFile(p))
    this.trees = new CookTrees(kitchenKey(this.store.realRoot), deps.cgroups === false ? { cgroups: false } : {})
  }

  protected now(): Millis {
    return this.deps.now?.() ?? Date.now()
  }

  /**
   * A project's settings: what this session recorded (added, or read first), never a later rewrite
   * of its file; a file that changed since is reported on the board and in the tick's errors.
   */
  protected project(name: string): ProjectSpec | undefined {
    const mine = this.recorded.get(name)
    const disk = this.store.readProject(name)
    if (!mine) {
      if (disk) this.recorded.set(name, disk)
      return disk
    }
    if (disk && projectKey(disk) !== projectKey(mine)) {
      this.drifted.set(name, `projects/${name}.json changed since this session read it; the kitchen keeps what it recorded (${mine.path}, base ${mine.baseBranch}, branches ${mine.branchPrefix}<id>${mine.testCommand ? `, test ${mine.testCommand}` : ''}) until it is opened again`)
    } else this.drifted.delete(name)
    return mine
  }

  /** A project's settings as this session uses them (see `project`), for the host's own use. */
  projectOf(name: string): ProjectSpec | undefined {
    return this.project(name)
  }

  protected record(project: ProjectSpec): void {
    this.recorded.set(project.name, project)
  }

  /** The snapshot's projects as this session uses them, and the problems of the ones that drifted. */
  protected projectsOf(snap: KitchenSnapshot): { projects: ProjectSpec[]; errors: string[] } {
    for (const p of snap.projects) this.project(p.name)
    const projects = snap.projects.map((p) => this.recorded.get(p.name) ?? p)
    return { projects, errors: [...this.drifted.values()] }
  }

  /** Liveness first, then the files; one scan when a claimed unsettled run has no known cook. */
  protected async readState(): Promise<{ snap: KitchenSnapshot; live: LiveMap }> {
    let live: LiveMap = await this.cooks.live()
    let snap = this.store.snapshot(this.now())
    if (this.unknownRuns(snap, live).length > 0) {
      await this.cooks.adoptScan()
      live = await this.cooks.live()
      snap = this.store.snapshot(this.now())
      for (const k of this.unknownRuns(snap, live)) if (!k.empty) this.deadRuns.add(k.key)
    }
    return { snap, live }
  }

  private unknownRuns(snap: KitchenSnapshot, live: LiveMap): { key: string; empty: boolean }[] {
    const out: { key: string; empty: boolean }[] = []
    for (const t of snap.tasks) {
      if (live.has(t.id) || t.log.some((e) => e.type === 'closed')) continue
      const last = t.runs.at(-1)
      if (!last?.claimed || last.fold.settledAt !== undefined) continue
      const key = `${t.id}#${last.n}`
      if (!this.deadRuns.has(key)) out.push({ key, empty: last.size === 0 })
    }
    return out
  }

  /** Every task view as of now (closed ones included). */
  async views(): Promise<{ views: TaskView[]; busy: number; cap: number; snap: KitchenSnapshot }> {
    const { snap, live } = await this.readState()
    const p = plan(snap.tasks, live, this.now(), snap.config)
    return { views: p.views, busy: p.busy, cap: p.cap, snap }
  }

  /**
   * The one read path of every operation on a task: liveness, the files, the task's record and its
   * view as of now. An unknown or broken id throws with what to do.
   */
  protected async locate(id: string): Promise<{ snap: KitchenSnapshot; live: LiveMap; rec: TaskRecord; view: TaskView }> {
    const { snap, live } = await this.readState()
    const rec = snap.tasks.find((t) => t.id === id)
    if (!rec) {
      const broken = snap.broken.find((b) => b.id === id)
      if (broken) throw new KitchenError('KITCHEN_BROKEN_TASK', `task ${id} is broken: ${broken.reason}; fix or remove tasks/${id}/task.json`)
      throw new KitchenError('KITCHEN_UNKNOWN_TASK', `there is no task ${id}; the board lists the tasks`)
    }
    const view = plan([rec], live, this.now(), snap.config).views[0]!
    return { snap, live, rec, view }
  }

  async view(id: string): Promise<TaskView> {
    return (await this.locate(id)).view
  }

  async board(): Promise<string> {
    const { views, busy, cap, snap } = await this.views()
    const rulebook = rulebookText(snap.config)
    const { projects, errors: drift } = this.projectsOf(snap)
    const errors = [...new Set([...snap.errors, ...drift, ...this.placeProblems(), ...this.lastErrors])]
    return boardText({ now: this.now(), views, busy, cap, projects, broken: snap.broken, errors, ...(rulebook ? { rulebook } : {}) })
  }

  /**
   * A kitchen under the system temp directory can be written by every cook (the harness's sandbox
   * lets tools write there), so nothing in it is safe from them: said on the board.
   */
  protected placeProblems(): string[] {
    const real = this.store.realRoot
    // What the harness's sandbox lets every tool write besides its workspace: /tmp and the temp
    // directory the cooks inherit from this process.
    for (const tmp of new Set(['/tmp', tmpdir()].map((d) => { try { return realpathSync(d) } catch { return d } }))) {
      const rel = relative(tmp, real)
      if (rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))) {
        return [`the kitchen directory ${real} is under ${tmp}, which the cooks' sandbox lets every cook write: a cook could rewrite the kitchen's files. Keep the kitchen elsewhere (the default is ~/.dsh/kitchen)`]
      }
    }
    return []
  }

  /** The review facts, reading only: the project's branch as it is, the clone as it is. */
  protected async reviewFacts(rec: TaskRecord, fetch: boolean): Promise<Review> {
    const spec = rec.spec
    const repo = this.project(spec.project)?.path
    const dir = this.store.checkedWorktree(spec)
    if (!repo) {
      return { back: undefined, clone: await git.cloneState('.', dir, undefined, '').catch(() => noClone()), land: { exists: false, ahead: 0, byBase: false } }
    }
    let back: git.BringBack | undefined
    let tip: string | undefined
    let notBack: string | undefined
    if (fetch) {
      back = await git.bringBack(repo, dir, spec.branch)
      tip = back.tip
      const reported = lastTip(rec)
      if (back.kind === 'rewritten') {
        notBack = `the clone's ${spec.branch} (${short(back.cloneTip)}) no longer contains ${short(back.tip)}, the tip the kitchen has in ${repo}: its history was rewritten; the project keeps ${short(back.tip)}`
      } else if (back.kind === 'failed') {
        notBack = `the kitchen could not bring ${spec.branch} back from the clone: ${back.reason}`
      } else if (reported && tip && reported !== tip && !(await git.isAncestor(repo, reported, tip))) {
        notBack = `${spec.branch} in ${repo} (${short(tip)}) no longer contains ${short(reported)}, the tip the kitchen reported before: its history was rewritten`
      }
    } else tip = await git.tipOf(repo, spec.branch)
    // A reader writes nothing into the kitchen: its index is a temp file of its own, gone after.
    const scratch = fetch ? undefined : mkdtempSync(join(tmpdir(), 'kitchen-review-'))
    let clone: git.CloneState
    try {
      clone = await git.cloneState(repo, dir, tip, scratch ? join(scratch, 'index') : this.store.reviewIndex(rec.id))
    } finally {
      if (scratch) rmSync(scratch, { recursive: true, force: true })
    }
    const land = await git.landing(repo, spec.branch, spec.baseBranch)
    return { back, ...(tip ? { tip } : {}), ...(notBack ? { notBack } : {}), clone, land }
  }

  /** The result of a task, read only (a read-only session): the branch as the owner last brought it back. */
  async result(id: string): Promise<ResultView> {
    const { rec, view } = await this.locate(id)
    return this.resultOf(rec, view, await this.reviewFacts(rec, false), true)
  }

  /**
   * The diff of a task's branch against its base (`git diff base...branch`): its first `max` lines and
   * how to see the rest. Read only, both roles: the clone's objects are read as data, never its config.
   */
  async diff(id: string, max?: number): Promise<string[]> {
    const { rec } = await this.locate(id)
    const { branch, baseBranch, project } = rec.spec
    const repo = this.project(project)?.path
    const at = { task: rec.id, branch, baseBranch, dir: this.root }
    if (!repo) return diffText({ ...at, repo: '', lines: [], cut: false, problem: `project ${project} is not registered` })
    const d = await merging.branchDiff(repo, this.store.checkedWorktree(rec.spec), branch, baseBranch)
    return diffText({ ...at, repo, lines: d.lines, cut: d.cut, ...(d.from ? { from: d.from } : {}), ...(d.problem ? { problem: d.problem } : {}) }, max)
  }

  protected async resultOf(rec: TaskRecord, v: TaskView, r: Review, asOfOwner: boolean): Promise<ResultView> {
    const spec = v.spec
    const repo = this.project(spec.project)?.path
    const stat = repo ? await git.diffstat(repo, spec.branch, spec.baseBranch) : ''
    const commits = repo ? await git.commitsAhead(repo, spec.branch, spec.baseBranch) : []
    const s = v.state
    const run = s.kind === 'cooking' ? s.run : s.kind === 'idle' ? s.run : undefined
    const landed = r.land.byBase ? 'base' : r.land.byRemote ? 'remote' : false
    const out: ResultView = {
      task: v.id, title: spec.title, state: s, branch: spec.branch, baseBranch: spec.baseBranch,
      ahead: r.land.ahead, commits, landed, worktree: spec.worktree, worktreeExists: r.clone.exists, dirty: r.clone.dirty,
      changes: r.clone.changes, diffstat: stat, taskDir: this.store.taskDir(v.id), facts: '', text: '',
    }
    if (r.clone.head !== undefined) out.head = r.clone.head
    if (r.tip) {
      out.tip = short(r.tip)
      out.tipCommit = r.tip
    }
    if (r.notBack) out.backProblem = r.notBack
    if (asOfOwner) out.asOfOwner = true
    if (v.model) out.model = v.model
    if (r.land.byRemote) out.remoteRef = r.land.byRemote
    if (run !== undefined) {
      out.runFile = this.store.runFile(v.id, run)
      out.errFile = this.store.errFile(v.id, run)
      const cut = rec.runs.find((x) => x.n === run)?.fold.cut
      if (cut) out.cutLines = cut
    }
    out.facts = resultFacts(out, v)
    const said = resultClaim(v)
    if (said) out.said = said
    out.text = said ? `${out.facts}\n${said}` : out.facts
    return out
  }

  protected emitSnapshot(views: readonly TaskView[], role: CooksSnapshot['role']): void {
    if (!this.deps.emit) return
    const snap = cooksSnapshot(this.sessionId, role, views, {
      taskDir: (id) => this.store.taskDir(id as TaskId),
      runFile: (id, run) => this.store.runFile(id as TaskId, run as RunNo),
    })
    const text = JSON.stringify(snap)
    if (text === this.lastSnapshot) return
    this.lastSnapshot = text
    this.deps.emit(snap)
  }

  /** The last snapshot again (a consumer that started late asks for it). */
  lastCooksSnapshot(): CooksSnapshot | undefined {
    return this.lastSnapshot ? (JSON.parse(this.lastSnapshot) as CooksSnapshot) : undefined
  }

  protected reportErrors(lines: readonly string[]): void {
    const next = new Set(lines)
    const fresh = lines.filter((l) => !this.lastErrors.has(l))
    this.lastErrors = next
    if (fresh.length > 0) this.deps.report?.(fresh)
  }
}

function noClone(): git.CloneState {
  return { exists: false, kind: 'none', dirty: false, changes: [], rebasing: false }
}

function short(commit: string): string {
  return /^[0-9a-f]{40,64}$/.test(commit) ? commit.slice(0, 10) : commit
}

/** The tip the kitchen last reported for a task (its last `fetched` event). */
function lastTip(rec: TaskRecord): string | undefined {
  for (let i = rec.log.length - 1; i >= 0; i--) {
    const e = rec.log[i]!
    if (e.type === 'fetched') return e.tip
  }
  return undefined
}

/** The control groups the task's launches recorded: of one run, or of all of them. */
function cgroupsOf(rec: TaskRecord, run?: number): string[] {
  const out: string[] = []
  for (const e of rec.log) if (e.type === 'launch' && e.cgroup && (run === undefined || e.run === run)) out.push(e.cgroup)
  return out
}

/** Open the kitchen at `root`: the owner when the lease is free or stale (or on takeover), else read-only. */
export async function openKitchen(root: string, deps: KitchenDeps = {}, options: { takeover?: boolean } = {}): Promise<Opened> {
  const sessionId = deps.sessionId ?? randomUUID()
  const d = { ...deps, sessionId }
  const store = Store.open(root, { ...(deps.writeFault ? { writeFault: deps.writeFault } : {}) })
  const me = deps.identity ?? (await selfIdentity())
  const mine: Lease = { pid: me.pid, pidStart: me.pidStart, sessionId, since: deps.now?.() ?? Date.now() }
  const got = await store.acquireLease(mine, deps.holderAlive ?? holderAlive, options.takeover ?? false)
  if (got.kind === 'owner') {
    const kitchen = new Kitchen(root, d, got.lease)
    await kitchen.activate()
    return { kind: 'owner', kitchen }
  }
  const holder = got.kind === 'held' ? got.holder : got.holder
  const reader = new KitchenReader(root, d, holder, got.kind === 'unwritable' ? got.reason : undefined)
  return { kind: 'read-only', reader, ...(holder ? { holder } : {}), ...(got.kind === 'unwritable' ? { reason: got.reason } : {}) }
}

/** A session that does not hold the lease: it reads, and promotes when the holder goes away. */
export class KitchenReader extends KitchenBase {
  protected readonly role = 'read-only' as const
  private timer: NodeJS.Timeout | undefined
  private promoted: Promise<Kitchen | undefined> | undefined

  constructor(root: string, deps: KitchenDeps, public holder: Lease | undefined, public reason?: string) {
    super(root, deps, deps.sessionId!)
    const every = deps.tickMs ?? 1000
    if (every > 0) {
      this.timer = setInterval(() => {
        this.tick().then((k) => k && this.deps.promoted?.(k), () => {})
      }, every)
      this.timer.unref()
    }
  }

  standing(): Standing {
    return { kind: 'read-only', ...(this.holder ? { holder: this.holder } : {}), ...(this.reason ? { reason: this.reason } : {}) }
  }

  /** Refresh the snapshot and try to promote. Returns the owner kitchen once promoted. */
  async tick(): Promise<Kitchen | undefined> {
    if (this.promoted) return this.promoted
    const k = await this.promote()
    if (k) return k
    const { views } = await this.views()
    this.emitSnapshot(views, 'read-only')
    return undefined
  }

  /** Take the lease when it is free or stale; the session becomes the owner. */
  promote(takeover = false): Promise<Kitchen | undefined> {
    if (this.promoted) return this.promoted
    const attempt = (async () => {
      const me = this.deps.identity ?? (await selfIdentity())
      const mine: Lease = { pid: me.pid, pidStart: me.pidStart, sessionId: this.sessionId, since: this.now() }
      const got = await this.store.acquireLease(mine, this.deps.holderAlive ?? holderAlive, takeover)
      if (got.kind !== 'owner') {
        this.holder = got.holder
        this.reason = got.kind === 'unwritable' ? got.reason : undefined
        return undefined
      }
      this.dispose()
      const k = new Kitchen(this.root, this.deps, got.lease)
      await k.activate()
      return k
    })()
    this.promoted = attempt.then((k) => {
      if (!k) this.promoted = undefined
      return k
    }, (error) => {
      this.promoted = undefined
      throw error
    })
    return this.promoted
  }

  /** Take the lease whoever holds it. An interval attempt in flight may find it held: then try again, forcing. */
  async takeover(): Promise<Kitchen> {
    for (let p = this.promoted; p; p = this.promoted) {
      const pending = await p
      if (pending) return pending
    }
    const k = await this.promote(true)
    if (!k) {
      if (this.reason) throw new KitchenError('KITCHEN_READ_ONLY', `the kitchen can't be taken over: ${this.reason}`)
      throw new KitchenError('KITCHEN_LEASE_LOST', 'the takeover did not stick: another session replaced the lease at the same moment; run /chef takeover again')
    }
    return k
  }

  dispose(): void {
    if (this.timer) clearInterval(this.timer)
    this.timer = undefined
  }
}

/** The owner: the only session that writes. */
export class Kitchen extends KitchenBase {
  protected readonly role = 'owner' as const
  private chain: Promise<unknown> = Promise.resolve()
  private tickQueued = false
  private timer: NodeJS.Timeout | undefined
  private readonly waker: Waker<Notice> | undefined
  private restartPending = true
  /**
   * The restart line, said once: composed into the first wake after this owner came back to open
   * tasks, and dropped only once a wake that carries it was delivered (`carrier`).
   */
  private restart: { text: string; carrier?: string } | undefined
  /** Each task's spec as of the last tick: where a wake's facts are read. */
  private specs = new Map<string, TaskSpec>()
  private readonly children = new Map<string, { unref(): void }>()
  private readonly sweeps = new Set<NodeJS.Timeout>()
  /** Sample task branches git accepted: a project's prefix is checked once per session. */
  private readonly validBranches = new Set<string>()
  /** A simulated crash, or a lost lease: the instance writes nothing more. */
  private dead = false
  private deathError: KitchenError | undefined
  lost = false
  /** Who took the lease when this instance lost it. */
  private lostTo: Lease | undefined
  /** The merge queue on this owner, made at first use. */
  private merges: MergeQueue | undefined
  /** Each open task's changed files by its tips: a wake asks git for the files only of a task that changed. */
  private readonly changed = new Map<string, { key: string; files: string[] }>()

  constructor(root: string, deps: KitchenDeps, public lease: Lease) {
    super(root, deps, deps.sessionId!)
    if (deps.deliver) {
      const deliver = deps.deliver
      this.waker = new Waker<Notice>({
        quietMs: deps.wakeQuietMs ?? 1500,
        capMs: deps.wakeCapMs ?? 5000,
        deliver: (w) => this.deliverWake(w, deliver),
        delivered: (runs) => this.markNotified(runs),
        compose: (batch) => this.composeWake(batch),
        onError: () => {},
      })
    }
  }

  /** Adopt the cooks of an earlier owner, then run the first tick (startup reconciliation). */
  async activate(): Promise<void> {
    this.store.sweep(Date.now())
    this.trees.tidy()
    await this.cooks.adoptScan()
    await this.tick()
    // A queue a crashed owner left goes on (or is reported where it stands).
    if (!this.dead) this.mergeQueue().resume()
    const every = this.deps.tickMs ?? 1000
    if (every > 0 && !this.dead) {
      this.timer = setInterval(() => this.kick(), every)
      this.timer.unref()
    }
  }

  // ---------------------------------------------------------------- the chain

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.chain.then(() => {
      if (this.dead) throw this.deathError ?? crashed()
      return fn()
    })
    this.chain = run.catch(() => {})
    return run
  }

  private fault(point: FaultPoint): void {
    if (!this.deps.fault) return
    try {
      this.deps.fault(point)
    } catch (error) {
      this.die()
      throw error
    }
  }

  /** Stop everything this instance does, as a crash would; its cooks keep running. */
  private die(): void {
    this.dead = true
    this.dispose()
  }

  /**
   * The lease is still this session's, checked before every write. A lease file that went away is
   * free for everyone: this session takes it again at once, as any other chef would, and only when
   * another session took it first is this one read-only from now (see `loseLease`).
   */
  private checkLease(): void {
    if (this.dead) throw this.deathError ?? crashed()
    const cur = this.store.readLease()
    if (cur.kind === 'lease' && sameHolder(cur.lease, this.lease)) return
    if (cur.kind === 'none') {
      try {
        if (this.store.createLease(this.lease, 1)) return
      } catch {
        // the disk refuses it: lost like any other
      }
      if (sameHolder(this.store.currentLease(), this.lease)) return
    }
    throw this.loseLease(this.store.currentLease())
  }

  /**
   * Another session holds the lease (or nobody could take it again): this instance writes nothing
   * more, and `demoted` hands the host a reader at once, so the host never calls itself the owner
   * after this moment. Returns the refusal to throw.
   */
  private loseLease(holder: Lease | undefined): KitchenError {
    this.lost = true
    this.lostTo = holder
    this.dead = true
    this.dispose()
    this.emitSnapshot([], 'read-only')
    this.deathError = new KitchenError('KITCHEN_LEASE_LOST', leaseLostText(holder))
    this.deps.demoted?.(new KitchenReader(this.root, this.deps, holder))
    return this.deathError
  }

  /**
   * This session's standing, read from the lease now rather than at the next write: another
   * session's lease makes this instance read-only at once (as a refused write would). A lease that
   * went away leaves the owner the owner: it takes the lease again at its next write.
   */
  standing(): Standing {
    if (!this.lost && !this.dead) {
      const cur = this.store.readLease()
      if (cur.kind === 'none' || (cur.kind === 'lease' && sameHolder(cur.lease, this.lease))) return { kind: 'owner' }
      this.loseLease(cur.kind === 'lease' ? cur.lease : undefined)
    }
    if (this.lost) return { kind: 'read-only', ...(this.lostTo ? { holder: this.lostTo } : {}) }
    return { kind: 'read-only', reason: 'this session stopped owning the kitchen' }
  }

  /** Queue one tick unless one is already waiting on the chain. */
  private kick(): void {
    if (this.tickQueued || this.dead) return
    this.tickQueued = true
    void this.serial(async () => {
      this.tickQueued = false
      this.checkLease()
      await this.tickBody()
    }).catch(() => {})
  }

  tick(): Promise<TickResult> {
    return this.serial(async () => {
      this.checkLease()
      return this.tickBody()
    })
  }

  /** Resolve when the chain is empty and no wake is being handed over (tests). */
  async idle(): Promise<void> {
    for (let i = 0; i < 100; i++) {
      const c = this.chain
      await c
      await this.waker?.settled()
      if (c === this.chain) return
    }
  }

  dispose(): void {
    if (this.timer) clearInterval(this.timer)
    this.timer = undefined
    for (const t of this.sweeps) clearTimeout(t)
    this.sweeps.clear()
    this.waker?.dispose()
    this.merges?.dispose()
    for (const c of this.children.values()) c.unref()
    this.trees.tidy()
  }

  /** Give the lease up and stop (the session leaves the kitchen; cooks keep running). */
  async shutdown(): Promise<void> {
    await this.serial(async () => {
      // Dead before the lease goes: work queued behind this (a timer, a cook's exit) must not take it again.
      this.dead = true
      this.store.releaseLease(this.lease)
      this.emitSnapshot([], 'off')
    }).catch(() => {})
    this.dead = true
    this.dispose()
  }

  /** The Pi-style drop: the chef's queue was cleared with wakes in flight. */
  wakesDropped(): void {
    this.waker?.dropped()
  }

  /** Runs `fn` on the chain after `ms`, unless the instance stopped meanwhile. */
  private later(ms: number, fn: () => Promise<void>): void {
    const t = setTimeout(() => {
      this.sweeps.delete(t)
      if (!this.dead) void this.serial(fn).catch(() => {})
    }, ms)
    t.unref()
    this.sweeps.add(t)
  }

  // ---------------------------------------------------------------- tick body

  private async tickBody(): Promise<TickResult> {
    const { snap, live } = await this.readState()
    this.fault('tick:read')
    const now = this.now()
    const config = snap.config
    const p = plan(snap.tasks, live, now, config)
    this.fault('tick:planned')
    const byId = new Map(snap.tasks.map((t) => [t.id as string, t]))
    const drift = this.projectsOf(snap).errors
    const errors: string[] = [...snap.errors, ...drift, ...this.placeProblems(), ...snap.broken.map((b) => `task ${b.id} is broken: ${b.reason}`)]
    const reclaim = new Set<string>()
    let acted = false
    const notices: Notice[] = []
    for (const a of p.actions) {
      try {
        switch (a.kind) {
          case 'reclaim':
            reclaim.add(a.task)
            break
          case 'launch': {
            const rec = byId.get(a.task)
            if (rec) await this.launch(a, rec, config, reclaim.has(a.task))
            acted = true
            break
          }
          case 'signal': {
            const c = this.cooks.get(a.task)
            if (c && c.pid === a.pid && c.run === a.run) {
              if (a.why === 'stop' && a.signal === 'SIGKILL') await this.killRun(byId.get(a.task)!, a.run, c)
              else await signalCook(this.cooks, c, a.signal)
            }
            break
          }
          case 'remove-worktree': {
            const rec = byId.get(a.task)
            if (rec) {
              const dir = this.store.checkedWorktree(rec.spec)
              await this.trees.kill({ task: rec.id, cgroups: cgroupsOf(rec), clone: await realpath(dir).catch(() => dir) })
              await git.removeClone(this.project(rec.spec.project)?.path, dir)
            }
            acted = true
            break
          }
          case 'notify':
            notices.push(a.notice)
            break
        }
      } catch (error) {
        if (this.dead) throw error
        errors.push(`${a.kind} ${a.task}: ${(error as Error).message}`)
      }
    }
    this.fault('tick:acted')
    this.reportErrors(errors)
    let views = p.views
    let busy = p.busy
    if (acted) {
      const again = await this.readState()
      const q = plan(again.snap.tasks, again.live, this.now(), again.snap.config)
      views = q.views
      busy = q.busy
    }
    // Back to open work (cooks still cooking, or runs that ended while no owner ran): the next wake,
    // whenever it comes, starts with the restart line.
    if (this.restartPending) {
      this.restartPending = false
      if (live.size > 0 || notices.length > 0) this.restart = { text: restartText(live.size, notices.length) }
    }
    this.specs = new Map(snap.tasks.map((t) => [t.id as string, t.spec]))
    this.waker?.offer(notices)
    this.emitSnapshot(views, 'owner')
    return { views, busy, cap: p.cap, errors }
  }

  /** Ends a run's whole tree: the cook, its group, its cgroup, its marked processes. */
  private async killRun(rec: TaskRecord, run: number, cook?: LiveCook): Promise<number> {
    const leader = cook && (await this.cooks.confirm(cook)) ? cook.pid : undefined
    return this.trees.kill({ task: rec.id, run, cgroups: cgroupsOf(rec, run), ...(leader !== undefined ? { leader } : {}) })
  }

  // ---------------------------------------------------------------- launch

  /**
   * Launch order, each step safe if a crash stops it halfway: the clone, the prompt (its `prompt`
   * event first), messages moved to handled/, the O_EXCL claim (after one more scan) and its
   * `launch` event, spawn. A run file the log does not claim is not a run: it is moved aside when
   * its number is needed, unless it is fresh and empty (another owner's claim in flight).
   */
  private async launch(a: Extract<Action, { kind: 'launch' }>, rec: TaskRecord, config: KitchenConfig, reclaim: boolean): Promise<void> {
    const id = a.task
    const run = a.run
    const spec = rec.spec
    const claims = spec.format === TASK_FORMAT
    // A cook no scan has seen yet must never get a sibling on its session.
    await this.cooks.adoptScan()
    if (this.cooks.get(id) && (await this.cooks.confirm(this.cooks.get(id)!))) return
    // An empty claim left by a launch that stopped before its cook wrote; one with output is a run.
    if (reclaim && !this.store.reclaimRun(id, run) && (this.store.runFileSize(id, run) ?? 0) > 0) return
    const failed = (reason: string) => {
      this.checkLease()
      this.store.appendLog(id, { type: 'launch_failed', at: this.now(), run, reason })
    }
    const project = this.project(spec.project)
    try {
      if (!project) throw new Error(`project ${spec.project} is not registered (projects/${spec.project}.json is missing or broken)`)
      await git.ensureClone(project.path, this.store.checkedWorktree(spec), spec.branch, spec.baseBranch)
    } catch (error) {
      failed(`the clone ${spec.worktree} could not be made: ${(error as Error).message}`)
      return
    }
    this.fault('launch:worktree')

    const messages = this.store.readInbox(id)
    const prompt = launchPrompt(a.prompt, spec, messages.map((m) => m.text), this.store.readPrompt(id, run), a.fallback)
    this.checkLease()
    if (claims && !rec.log.some((e) => (e.type === 'prompt' || e.type === 'launch') && e.run === run)) this.store.appendLog(id, { type: 'prompt', at: this.now(), run })
    this.store.writePrompt(id, run, prompt)
    this.fault('launch:prompt')
    for (const m of messages) this.store.handleMessage(id, m.name)
    this.fault('launch:handled')

    await this.cooks.adoptScan()
    if (this.cooks.get(id) && (await this.cooks.confirm(this.cooks.get(id)!))) return
    this.checkLease()
    const out = this.claim(id, run, claims, config)
    if (out === undefined) return
    let err: number
    let cgroup: string | undefined
    try {
      err = this.store.openErr(id, run)
      cgroup = this.trees.prepare(id, run)
      this.store.appendLog(id, { type: 'launch', at: this.now(), run, ...(cgroup ? { cgroup } : {}) })
    } catch (error) {
      // The claim is not a run without its event: take it back, so the next tick launches again.
      closeSync(out)
      this.store.reclaimRun(id, run)
      throw error
    }
    let spawned
    try {
      this.fault('launch:claimed')
      const given = this.deps.cookCommand
      const template = (typeof given === 'function' ? given() : given) ?? DEFAULT_COOK_COMMAND
      const rulebook = rulebookFor(config, { kind: 'cook', project: spec.project })
      const values = {
        promptFile: resolve(this.store.promptFile(id, run)),
        sessionDir: resolve(this.store.sessionDir(id)),
        sessionId: spec.sessionId,
        worktree: spec.worktree,
        taskDir: resolve(this.store.taskDir(id)),
        run,
        ...(a.candidate ? { model: a.candidate.model } : {}),
        ...(a.candidate?.thinking ? { thinking: a.candidate.thinking } : {}),
        ...(rulebook !== undefined ? { rulebook } : {}),
      }
      let argv: string[]
      try {
        argv = cookArgv(template, values, config.cookArgs)
      } catch (error) {
        failed((error as Error).message)
        return
      }
      if (cgroup) argv = this.trees.wrap(argv, cgroup)
      spawned = await spawnCook({
        argv, cwd: spec.worktree, stdoutFd: out, stderrFd: err,
        env: {
          ...this.deps.cookEnv,
          KITCHEN_ROLE: 'cook', KITCHEN_TASK_DIR: values.taskDir, KITCHEN_RUN: String(run),
          [COOK_MARKER_ENV]: this.trees.markerOf(id, run),
        },
      })
    } finally {
      closeSync(out)
      closeSync(err)
    }
    if (!spawned.ok) {
      failed(spawned.reason)
      return
    }
    const start = (await procStat(spawned.pid))?.start
    const cook: LiveCook = { task: id, run, pid: spawned.pid, ...(start ? { start } : {}) }
    this.cooks.record(cook)
    const key = `${id}#${run}`
    this.children.set(key, spawned)
    spawned.exited.then((exit) => {
      this.children.delete(key)
      if (cgroup) this.trees.remove([cgroup], id)
      this.onCookExit(id, run, exit)
    })
    this.fault('launch:spawned')
  }

  /**
   * The O_EXCL claim of a run file; undefined when another launch holds it. For a task whose runs
   * the log claims, a file found in the way that no `launch` event claims is moved aside first,
   * unless it is fresh and empty: that may be another owner's claim about to be logged.
   */
  private claim(id: TaskId, run: RunNo, claims: boolean, config: KitchenConfig): number | undefined {
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        return this.store.claimRun(id, run)
      } catch (error) {
        if (!(error instanceof KitchenError && error.code === 'KITCHEN_CLAIM_TAKEN')) throw error
      }
      if (!claims || attempt > 0) return undefined
      const fresh = this.store.snapshot(this.now()).tasks.find((t) => t.id === id)
      if (fresh?.log.some((e) => e.type === 'launch' && e.run === run)) return undefined
      const stray = this.store.runFileStat(id, run)
      if (!stray) continue
      if (stray.size === 0 && Date.now() - stray.mtimeMs < config.reclaimAfterMs) return undefined
      if (stray.size === 0) this.store.reclaimRun(id, run)
      else this.store.moveAsideRun(id, run)
    }
    return undefined
  }

  /** The cook exited: a launch that produced no output is a failure (failLaunchIfNoOutput). */
  private onCookExit(id: TaskId, run: RunNo, exit: CookExit): void {
    if (this.dead) return
    void this.serial(async () => {
      this.checkLease()
      if (this.store.runFileSize(id, run) === 0) {
        const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`
        this.store.appendLog(id, { type: 'launch_failed', at: this.now(), run, reason: `the cook ${how} before its first line` })
      }
      await this.tickBody()
    }).catch(() => {})
  }

  // ---------------------------------------------------------------- wakes

  /** A wake's text: each notice with the kitchen's own facts, the restart line first when it is due. */
  private async composeWake(batch: readonly Notice[]): Promise<string> {
    const notices = await Promise.all(batch.map(async (n) => {
      const seen = await this.wakeFacts(n).catch(() => undefined)
      return seen ? { ...n, seen } : n
    }))
    const r = this.restart
    const prefix = r && r.carrier === undefined ? r.text : undefined
    // Open tasks that change the same files, told before anything is merged.
    const overlap = await this.overlapLines().catch(() => [])
    const text = [wakeText(notices, prefix), ...overlap].join('\n')
    if (r && prefix) r.carrier = text
    return text
  }

  /** Hands a wake over; the restart line it carries is said once it was delivered, else it waits for the next wake. */
  private async deliverWake(w: Wake, deliver: (wake: Wake) => Promise<boolean>): Promise<boolean> {
    let ok = false
    try {
      ok = this.dead ? false : await deliver(w)
      return ok
    } finally {
      const r = this.restart
      if (r && r.carrier === w.text) {
        if (ok) this.restart = undefined
        else r.carrier = undefined
      }
    }
  }

  /**
   * What the kitchen saw of a run that says it is done, gathered for its wake (git here, never on a
   * tick): whether its branch in the clone has commits, and the project's test command.
   */
  private async wakeFacts(n: Notice): Promise<WakeFacts | undefined> {
    if (n.outcome.kind !== 'done') return undefined
    const spec = this.specs.get(n.task)
    const project = spec ? this.project(spec.project) : undefined
    if (!spec || !project) return undefined
    const commits = await git.cloneCommits(project.path, this.store.checkedWorktree(spec), spec.branch, spec.baseBranch).catch(() => undefined)
    let test: string | undefined
    try {
      test = this.deps.testCommand?.(project)
    } catch {
      test = undefined // the host could not find one: the wake names none
    }
    return { branch: spec.branch, ...(commits ? { commits } : {}), ...(test ? { test } : {}) }
  }

  private markNotified(runs: Wake['runs']): Promise<void> {
    return this.serial(async () => {
      this.checkLease()
      this.fault('notify:delivered')
      const snap = this.store.snapshot(this.now())
      for (const r of runs) {
        const rec = snap.tasks.find((t) => t.id === r.task)
        if (!rec || rec.log.some((e) => e.type === 'notified' && e.run === r.run)) continue
        this.store.appendLog(rec.id, { type: 'notified', at: this.now(), run: r.run as RunNo })
      }
    })
  }

  // ---------------------------------------------------------------- operations

  addProject(input: AddProjectInput): Promise<{ project: ProjectSpec; text: string }> {
    return this.serial(async () => {
      this.checkLease()
      const raw = input.path.startsWith('~/') || input.path === '~' ? homedir() + input.path.slice(1) : input.path
      let path: string
      try {
        path = await realpath(resolve(raw))
      } catch {
        throw new KitchenError('KITCHEN_BAD_INPUT', `path ${input.path} does not exist; give the path of a git repository`)
      }
      if (!(await git.isRepo(path))) throw new KitchenError('KITCHEN_BAD_INPUT', `${path} is not a git repository; run git init there or give another path`)
      const inKitchen = relative(this.store.realRoot, path)
      if (inKitchen === '' || (!inKitchen.startsWith('..') && !isAbsolute(inKitchen))) {
        throw new KitchenError('KITCHEN_BAD_INPUT', `${path} is inside the kitchen directory (a cook's clone, say); register the project's own repository`)
      }
      const name = input.name ?? basename(path)
      if (!isProjectName(name)) throw new KitchenError('KITCHEN_BAD_INPUT', `"${name}" is not a project name: use letters, digits, ".", "_" and "-", starting with a letter or digit; pass name`)
      if (input.note !== undefined && input.note.length > MAX_NOTE_CHARS) throw new KitchenError('KITCHEN_BAD_INPUT', `note is ${input.note.length} characters long; a note holds at most ${MAX_NOTE_CHARS}`)
      let base = input.baseBranch
      if (base === undefined) {
        base = await git.currentBranch(path)
        if (!base) throw new KitchenError('KITCHEN_BAD_BRANCH', `${path} has a detached HEAD, so there is no current branch to fork from; pass baseBranch`)
      } else if ((await git.checkBranchName(path, base)) !== base) {
        throw new KitchenError('KITCHEN_BAD_BRANCH', `base branch "${base}" is not a valid branch name (git check-ref-format --branch); pass an existing local branch`)
      }
      if (!(await git.branchCommit(path, base))) throw new KitchenError('KITCHEN_BAD_BRANCH', `base branch "${base}" does not exist in ${path}; create it or pass another baseBranch`)
      const prefix = input.branchPrefix ?? DEFAULT_BRANCH_PREFIX
      const sample = `${prefix}${name}-1`
      if ((await git.checkBranchName(path, sample)) !== sample) {
        throw new KitchenError('KITCHEN_BAD_BRANCH', `branch prefix "${prefix}" gives the invalid task branch "${sample}" (git check-ref-format --branch); use a prefix like "issue/" or "feat/"`)
      }
      const spec: ProjectSpec = {
        name,
        path,
        baseBranch: base,
        branchPrefix: prefix,
        createdAt: this.now(),
        ...(input.note ? { note: input.note } : {}),
        ...(input.testCommand?.trim() ? { testCommand: input.testCommand.trim() } : {}),
      }
      this.store.addProject(spec)
      this.record(spec)
      await this.tickBody()
      return { project: spec, text: projectText(spec) }
    })
  }

  /**
   * One task, or `tasks: [...]` whose items inherit project, rule and model. Validated as a whole
   * first; then every task is created, or none (a full disk: what was made is taken back), and the
   * answer says so. A dispatch sent again while its tasks are open finds them (each task carries
   * its dispatch's key) and creates only what is missing, so a retried call is never doubled.
   */
  dispatch(input: unknown): Promise<DispatchResult> {
    return this.serial(async () => {
      this.checkLease()
      const norm = normalizeDispatch(input)
      if (!norm.ok) throw norm.error
      const items: DispatchItem[] = norm.items
      const snap = this.store.snapshot(this.now())
      const config = snap.config
      const prepared: { item: (typeof items)[number]; project: ProjectSpec; models: ReturnType<typeof selectModels>; key: string }[] = []
      const batchKey = createHash('sha256').update(JSON.stringify(items.map((i) => [i.project, i.title, i.brief, i.model ?? null, i.rule ?? null]))).digest('hex')
      for (const [i, item] of items.entries()) {
        const where = norm.batch ? `tasks[${i}]: ` : ''
        const project = this.project(item.project)
        if (!project) {
          const names = snap.projects.map((p) => p.name)
          throw new KitchenError('KITCHEN_UNKNOWN_PROJECT', `${where}unknown project "${item.project}"; ${names.length ? `the projects are ${names.join(', ')}` : 'register one with add project first'}`)
        }
        const sample = `${project.branchPrefix}${project.name}-1`
        if (!this.validBranches.has(sample) && (await git.checkBranchName(project.path, sample)) !== sample) {
          throw new KitchenError('KITCHEN_BAD_BRANCH', `${where}project ${project.name} has the branch prefix "${project.branchPrefix}", which gives the invalid branch "${sample}"; fix branchPrefix in projects/${project.name}.json`)
        }
        let models
        try {
          models = selectModels(
            { ...(item.model !== undefined ? { model: item.model } : {}), ...(item.rule !== undefined ? { rule: item.rule } : {}) },
            config.models,
            this.deps.modelCheck,
          )
        } catch (error) {
          if (error instanceof KitchenError) throw new KitchenError(error.code, `${where}${error.message}`, { cause: error })
          throw error
        }
        this.validBranches.add(sample)
        const key = createHash('sha256').update(`${batchKey}:${i}`).digest('hex').slice(0, 32)
        prepared.push({ item, project, models, key })
      }
      // A retry of the same dispatch: its open tasks are already there.
      const open = new Map<string, TaskSpec>()
      for (const t of snap.tasks) if (t.spec.dispatch && !t.log.some((e) => e.type === 'closed')) open.set(t.spec.dispatch, t.spec)
      const fresh = prepared.filter((p) => !open.has(p.key))
      this.checkLease()
      let made: TaskSpec[]
      try {
        made = this.store.createTasks(fresh.map(({ item, project, models, key }) => ({
          project: project.name,
          build: (id: TaskId): TaskSpec => ({
            id, project: project.name, title: item.title, brief: item.brief, branch: `${project.branchPrefix}${id}`,
            worktree: resolve(this.store.worktree(id)), baseBranch: project.baseBranch, sessionId: randomUUID(),
            models: models.models, ...(models.rule ? { rule: models.rule } : {}), createdAt: this.now(), format: TASK_FORMAT, dispatch: key,
          }),
        })))
      } catch (error) {
        if (!(error instanceof CreateTasksError)) throw error
        const cause = error.cause as NodeJS.ErrnoException
        const message = cause?.message ?? String(cause)
        const reason = cause?.code && !message.startsWith(cause.code) ? `${cause.code}: ${message}` : message
        const existing = prepared.filter((p) => open.has(p.key)).map((p) => open.get(p.key)!)
        const created = [...existing, ...error.created].map((s) => ({ task: s.id, branch: s.branch }))
        if (error.created.length > 0) await this.tickBody().catch(() => {})
        throw new KitchenError('KITCHEN_DISPATCH_FAILED', dispatchFailedText(created, prepared.length, reason), { cause })
      }
      // once per task made, as a crash may come after any of them (all exist by now)
      for (let i = 0; i < made.length; i++) this.fault('dispatch:created')
      const byKey = new Map(made.map((s) => [s.dispatch!, s]))
      const t = await this.tickBody()
      const tasks = prepared.map(({ models, key }) => {
        const again = open.get(key)
        const spec = again ?? byKey.get(key)!
        return { ...dispatched(spec, t.views.find((v) => v.id === spec.id)), skipped: models.skipped, ...(again ? { again: true } : {}) }
      })
      const overlap = await this.overlapLines().catch(() => [])
      return { tasks, busy: t.busy, cap: t.cap, text: [dispatchText(tasks, t.busy, t.cap), ...overlap].join('\n') }
    })
  }

  /** Steer a cooking cook, relaunch an idle task, or wait (bounded) for a reported cook to exit. */
  send(id: string, message: string): Promise<SendResult> {
    return this.serial(async () => {
      this.checkLease()
      if (message.trim() === '') throw new KitchenError('KITCHEN_BAD_INPUT', 'message is empty; write what the cook should do')
      if (message.length > MAX_MESSAGE_CHARS) throw new KitchenError('KITCHEN_BAD_INPUT', `message is ${message.length} characters long; a message holds at most ${MAX_MESSAGE_CHARS}; put the rest in a file of the project and name it`)
      const { snap, rec, view: before } = await this.locate(id)
      if (before.state.kind === 'closed') throw new KitchenError('KITCHEN_TASK_CLOSED', `${id} is closed; dispatch a new task`)
      this.store.writeMessage(rec.id, message, this.now())
      this.fault('send:written')
      if (before.state.kind === 'cooking') {
        const run = before.state.run
        const stopping = rec.log.some((e) => e.type === 'stop' && e.run === run)
        await this.tickBody()
        return stopping ? { kind: 'after-stop', run } : { kind: 'steered', run }
      }
      const exitWait = snap.config.exitWaitMs
      const deadline = Date.now() + exitWait
      for (;;) {
        const wasLive = this.cooks.get(rec.id) !== undefined && (await this.cooks.confirm(this.cooks.get(rec.id)!))
        const t = await this.tickBody()
        const v = t.views.find((x) => x.id === rec.id)
        // gone from the views: the task broke meanwhile (a symlink planted in it); say why
        if (!v) {
          await this.locate(id)
          return { kind: 'queued' }
        }
        const s = v.state
        if (s.kind === 'cooking') return { kind: 'launched', run: s.run }
        // A run this send launched may already have ended (a quick cook on a busy machine ends before
        // the tick reads the kitchen again): it was launched all the same, or it failed to launch.
        if (s.kind === 'idle' && s.run !== undefined && s.run >= before.nextRun) {
          if (s.outcome.kind === 'failed' && s.outcome.cause === 'launch') return { kind: 'failed', reason: s.outcome.reason }
          return { kind: 'launched', run: s.run }
        }
        if (s.kind !== 'queued') return { kind: 'queued' }
        if (!wasLive) return { kind: 'queued' }
        if (Date.now() >= deadline) return { kind: 'after-exit' }
        await new Promise((r) => setTimeout(r, Math.min(100, Math.max(10, exitWait / 20))))
      }
    })
  }

  /**
   * Stop a cooking cook: SIGTERM to its whole tree (group, cgroup, marked processes), SIGKILL to the
   * cook after the grace (the tick) and to whatever of the tree is left then, daemons included. A
   * queued task is held. A task with nothing cooking gets its leftover processes ended.
   */
  stop(id: string): Promise<StopResult> {
    return this.serial(async () => {
      this.checkLease()
      const { rec, view: v, snap } = await this.locate(id)
      const s = v.state
      let result: StopResult
      if (s.kind === 'closed') throw new KitchenError('KITCHEN_TASK_CLOSED', `${id} is closed`)
      if (s.kind === 'cooking') {
        this.store.appendLog(rec.id, { type: 'stop', at: this.now(), run: s.run })
        this.fault('stop:logged')
        const c = this.cooks.get(rec.id)
        const leader = c && (await this.cooks.confirm(c)) ? c.pid : undefined
        const target: TreeTarget = { task: rec.id, run: s.run, cgroups: cgroupsOf(rec, s.run) }
        this.trees.signal({ ...target, ...(leader !== undefined ? { leader } : {}) }, 'SIGTERM')
        this.fault('stop:signalled')
        // What ignores SIGTERM and left the cook's group goes after the grace, cook alive or not.
        this.later(snap.config.killGraceMs, async () => {
          await this.trees.kill(target)
        })
        result = { kind: 'stopping', run: s.run }
      } else if (v.live) {
        // a settled cook that lingers: free the session at once; the task keeps its outcome
        const c = this.cooks.get(rec.id)
        if (c) await signalCook(this.cooks, c, 'SIGTERM')
        result = { kind: 'signalled', run: v.live.run }
      } else if (s.kind === 'queued') {
        this.store.appendLog(rec.id, { type: 'hold', at: this.now(), run: v.nextRun })
        this.fault('stop:logged')
        result = { kind: 'held', run: v.nextRun }
      } else {
        const dir = this.store.checkedWorktree(rec.spec)
        const ended = await this.trees.kill({ task: rec.id, cgroups: cgroupsOf(rec) , clone: await realpath(dir).catch(() => dir) })
        result = ended > 0 ? { kind: 'not-cooking', ended } : { kind: 'not-cooking' }
      }
      await this.tickBody()
      return result
    })
  }

  /**
   * Review a task: bring its branch back from the clone into the project (fast-forward only),
   * record the tip reported, and answer the facts. A branch whose history was rewritten since the
   * kitchen reported it is not taken: the project keeps the reported tip, and the answer says so.
   */
  override result(id: string): Promise<ResultView> {
    return this.serial(async () => {
      this.checkLease()
      const { rec, view } = await this.locate(id)
      const review = await this.reviewFacts(rec, true)
      this.recordTip(rec, review)
      return this.resultOf(rec, view, review, false)
    })
  }

  /**
   * Record that the project's test command ran on a task's work (chef_result's verify, the merge
   * queue's test): a `verified` event in its log, the command cut to its bound. Only the owner writes.
   */
  recordVerified(id: string, v: { by: 'result' | 'merge'; passed: boolean; command: string; tip?: string; exitCode?: number | null }): Promise<void> {
    return this.serial(async () => {
      this.checkLease()
      const { rec } = await this.locate(id)
      const tip = v.tip && /^[0-9a-f]{40,64}$/.test(v.tip) ? { tip: v.tip } : {}
      const exit = typeof v.exitCode === 'number' && Number.isSafeInteger(v.exitCode) && v.exitCode >= 0 ? { exitCode: v.exitCode } : {}
      const command = v.command.slice(0, MAX_VERIFIED_COMMAND_CHARS)
      this.store.appendLog(rec.id, { type: 'verified', at: this.now(), by: v.by, passed: v.passed, command, ...tip, ...exit })
    })
  }

  private recordTip(rec: TaskRecord, review: Review): void {
    if (!review.tip || review.notBack || lastTip(rec) === review.tip) return
    this.checkLease()
    this.store.appendLog(rec.id, { type: 'fetched', at: this.now(), tip: review.tip })
  }

  /**
   * The base branch's tree of a task's project, checked out into a scratch directory of the
   * kitchen's, to find the project's commands in as the base branch declares them (never as the
   * task branch does). The caller removes it with `done()`.
   */
  baseTree(id: string): Promise<{ dir: string; commit: string; done(): void }> {
    return this.serial(async () => {
      this.checkLease()
      const { rec } = await this.locate(id)
      const repo = this.project(rec.spec.project)?.path
      if (!repo) throw new KitchenError('KITCHEN_UNKNOWN_PROJECT', `project ${rec.spec.project} is not registered`)
      const commit = await git.tipOf(repo, rec.spec.baseBranch)
      if (!commit) throw new KitchenError('KITCHEN_BAD_BRANCH', `base branch ${rec.spec.baseBranch} does not exist in ${repo}`)
      const dir = this.store.scratchDir()
      try {
        await git.checkoutTree(repo, commit, dir)
      } catch (error) {
        this.store.removeScratch(dir)
        throw error
      }
      return { dir, commit, done: () => this.store.removeScratch(dir) }
    })
  }

  // ---------------------------------------------------------------- the merge queue

  /**
   * Land `tasks` one at a time (merge-queue.ts): each brought onto its base's current tip, tested with
   * the project's test command, the base fast-forwarded only when the test passed, then closed; the
   * queue stops at the first conflict or failure. Off the chain, as a test takes minutes: each of its
   * steps that reads or writes the kitchen goes through an operation or the lease check.
   */
  async merge(tasks: readonly string[], options: { signal?: AbortSignal } = {}): Promise<{ entries: MergeEntry[]; text: string }> {
    if (this.dead) throw this.deathError ?? crashed()
    const entries = await this.mergeQueue().run(tasks, options.signal)
    return { entries, text: mergeReportText(this.mergeWhere(entries)) }
  }

  /** Each entry with its task's branch and base, as task.json has them. */
  private mergeWhere(entries: readonly MergeEntry[]): { entry: MergeEntry; where?: MergeWhere }[] {
    const specs = new Map(this.store.snapshot(this.now()).tasks.map((t) => [t.id as string, t.spec]))
    return entries.map((entry) => {
      const spec = specs.get(entry.task)
      return spec ? { entry, where: { branch: spec.branch, baseBranch: spec.baseBranch } } : { entry }
    })
  }

  private mergeQueue(): MergeQueue {
    this.merges ??= new MergeQueue(this.mergePort())
    return this.merges
  }

  /** The kitchen as the merge queue sees it: the store's entries, the lease, a task's review and close, land.ts, the host's test. */
  private mergePort(): MergePort {
    const deliver = this.deps.deliver
    return {
      entries: this.store,
      git: merging,
      checkLease: () => this.checkLease(),
      fault: (point) => this.fault(point),
      now: () => this.now(),
      alive: () => !this.dead,
      target: async (id) => this.mergeTarget((await this.locate(id)).rec),
      review: (id) => this.mergeReview(id),
      scratch: () => {
        const dir = this.store.scratchDir()
        return { dir, done: () => this.store.removeScratch(dir) }
      },
      checkoutTree: async (repo, commit, dir) => {
        mkdirSync(dir)
        await git.checkoutTree(repo, commit, dir)
      },
      ...(this.deps.mergeTest ? { test: this.recordedMergeTest(this.deps.mergeTest) } : {}),
      close: async (id, landed) => (await this.close(id, { landed })).text,
      ...(deliver ? { report: (entries: readonly MergeEntry[]) => deliver({ text: mergeWakeText(this.mergeWhere(entries)), runs: [] }) } : {}),
    }
  }

  /** The host's merge test, with each run it made recorded as a `verified` event on its task. */
  private recordedMergeTest(test: MergeTest): MergeTest {
    return async (run) => {
      const v = await test(run)
      if (v.ran && v.command !== undefined && !run.signal?.aborted) {
        await this.recordVerified(run.task, {
          by: 'merge', passed: v.ok, command: v.command, ...(run.tip ? { tip: run.tip } : {}), ...(v.exitCode !== undefined ? { exitCode: v.exitCode } : {}),
        })
      }
      return v
    }
  }

  private mergeTarget(rec: TaskRecord): MergeTarget {
    if (rec.log.some((e) => e.type === 'closed')) throw new KitchenError('KITCHEN_TASK_CLOSED', `${rec.id} is closed`)
    const project = this.project(rec.spec.project)
    if (!project) throw new KitchenError('KITCHEN_UNKNOWN_PROJECT', `project ${rec.spec.project} of ${rec.id} is not registered`)
    const { branch, baseBranch } = rec.spec
    return { task: rec.id, repo: project.path, project: project.name, branch, baseBranch, ...(project.testCommand ? { testCommand: project.testCommand } : {}) }
  }

  /**
   * A task brought back and checked for landing: whatever would keep its close from following the
   * landing (close's own verdict, as if it had landed) is why it is not merged now.
   */
  private async mergeReview(id: string): Promise<MergeReview> {
    const r = await this.result(id)
    const { rec, view } = await this.locate(id)
    const target = this.mergeTarget(rec)
    const onBranch = !r.worktreeExists || r.head === r.branch
    const verdict = closeVerdict(view, {
      worktreeExists: r.worktreeExists, dirty: r.dirty, changes: r.changes ?? [], ahead: r.ahead, landed: 'base', onBranch,
      head: r.head === undefined ? 'detached' : `branch ${r.head}`, ...(r.backProblem ? { notBack: r.backProblem } : {}),
    }, false)
    const queued = view.state.kind === 'queued' ? `${id} is about to run again; merge it once its cook has reported` : undefined
    const problem = !verdict.ok ? verdict.reasons.join('; ') : queued
    return { ...target, ahead: r.ahead, ...(r.tipCommit ? { tip: r.tipCommit } : {}), ...(problem ? { problem } : {}) }
  }

  /** The open tasks that change the same files (git, never on a tick): said at dispatch and in each wake. */
  private async overlapLines(): Promise<string[]> {
    const open = this.store.snapshot(this.now()).tasks.filter((t) => !t.log.some((e) => e.type === 'closed')).slice(-OVERLAP_TASKS)
    const changes: { task: string; files: string[] }[] = []
    for (const t of open) {
      const repo = this.project(t.spec.project)?.path
      if (!repo) continue
      try {
        const clone = this.store.checkedWorktree(t.spec)
        const tips = await merging.branchTips(repo, clone, t.spec.branch, t.spec.baseBranch, true)
        const key = `${tips.tip}:${tips.baseTip}`
        let files = this.changed.get(t.id)?.key === key ? this.changed.get(t.id)!.files : undefined
        if (!files) {
          files = (await merging.changedFiles(repo, clone, t.spec.branch, t.spec.baseBranch, tips))?.files
          if (files) this.changed.set(t.id, { key, files })
        }
        if (files) changes.push({ task: t.id, files })
      } catch {
        // a broken task or a git failure: its files are not known; the others still count
      }
    }
    for (const id of this.changed.keys()) if (!open.some((t) => t.id === id)) this.changed.delete(id)
    const { pairs, more } = overlaps(changes)
    return overlapText(pairs, more)
  }

  /**
   * Close: bring the branch back, refuse unsafe closes unless discard, append `closed`, end every
   * process of the task's runs, remove the clone, delete a landed branch. `landed`: the merge queue
   * landed the branch's tip `tip` as the rebased `as`; the branch counts as landed (and is deleted)
   * while it is still that tip and the base holds `as`.
   */
  close(id: string, options: { discard?: boolean; landed?: { tip: string; as: string } } = {}): Promise<CloseResult> {
    return this.serial(async () => {
      this.checkLease()
      const discard = options.discard ?? false
      const { rec, view: v } = await this.locate(id)
      const spec = rec.spec
      const clonePath = this.store.checkedWorktree(spec)
      const repo = this.project(spec.project)?.path
      const review = await this.reviewFacts(rec, true)
      const ws = review.clone
      const land = review.land
      const onBranch = !ws.exists || (ws.head === spec.branch && !ws.rebasing)
      const head = ws.rebasing ? 'a rebase in progress' : ws.head ? `branch ${ws.head}` : 'detached'
      const byQueue = options.landed !== undefined && repo !== undefined && review.tip === options.landed.tip
        && (await git.isAncestor(repo, options.landed.as, `refs/heads/${spec.baseBranch}`))
      // A branch that is gone has nothing left to lose.
      const landed = !land.exists || land.byBase || byQueue ? 'base' : land.byRemote ? 'remote' : false
      const verdict = closeVerdict(v, {
        worktreeExists: ws.exists, dirty: ws.dirty, changes: ws.changes, ahead: land.ahead, landed, onBranch, head,
        ...(review.notBack ? { notBack: review.notBack } : {}),
      }, discard)
      if (!verdict.ok) throw new KitchenError(verdict.code, verdict.message)
      this.recordTip(rec, review)
      this.checkLease()
      this.store.appendLog(rec.id, { type: 'closed', at: this.now(), discarded: discard })
      this.fault('close:logged')
      const ended = await this.trees.kill({ task: rec.id, cgroups: cgroupsOf(rec), clone: await realpath(clonePath).catch(() => clonePath) })
      let worktree: CloseResult['worktree']
      let branch: CloseResult['branch']
      try {
        worktree = await git.removeClone(repo, clonePath)
      } catch (error) {
        worktree = { error: (error as Error).message }
      }
      this.fault('close:removed')
      if (!repo) branch = { error: `project ${spec.project} is not registered, so git was not asked` }
      else {
        try {
          branch = await git.deleteBranch(repo, spec.branch, spec.baseBranch, discard || byQueue)
        } catch (error) {
          branch = { error: (error as Error).message }
        }
      }
      this.trees.remove(cgroupsOf(rec), rec.id)
      rmSync(this.store.reviewIndex(rec.id), { force: true })
      await this.tickBody()
      const text = closeText({ task: rec.id, discarded: discard, branch: spec.branch, baseBranch: spec.baseBranch, ended }, worktree, branch)
      return { task: rec.id, worktree, branch, ended, text }
    })
  }
}

export interface TickResult {
  views: TaskView[]
  busy: number
  cap: number
  errors: string[]
}
