/**
 * The kitchen: the seven operations (add project, dispatch, board, send, stop, result, close) plus
 * `tick`, on one serialized promise chain. A mutation runs in the order lease check, read, decide,
 * write, then the tick body, so a lost lease is found before the first write and no interval tick
 * changes a task between a decision and its write. Every read checks liveness first and reads the
 * task files after it. No harness types: the shell injects the clock, the cook command, the model
 * check, the wake delivery and the snapshot emitter through `KitchenDeps`.
 */
import { randomUUID } from 'node:crypto'
import { closeSync } from 'node:fs'
import { realpath } from 'node:fs/promises'
import { homedir } from 'node:os'
import { basename, resolve } from 'node:path'
import {
  CookMap, DEFAULT_COOK_COMMAND, cookArgv, holderAlive, procStat, selfIdentity, signalCook, spawnCook,
  type CookExit,
} from './cooks/index.js'
import {
  boardText, closeText, closeVerdict, dispatchText, dispatched, launchPrompt, normalizeDispatch, plan,
  projectText, restartText, resultText, rulebookText, selectModels, wakeText, cooksSnapshot,
  type Action, type CooksSnapshot, type DispatchItem, type ModelCheck, type ResultFacts,
} from './derive/index.js'
import {
  DEFAULT_BRANCH_PREFIX, KitchenError, isProjectName, sameHolder,
  type Dispatched, type HolderAlive, type Identity, type KitchenConfig, type KitchenSnapshot, type Lease,
  type LiveCook, type LiveMap, type Millis, type Notice, type ProjectSpec, type RunNo, type TaskId,
  type TaskRecord, type TaskSpec, type TaskView,
} from './domain.js'
import * as git from './git.js'
import { Store } from './store/index.js'
import { Waker, type Wake } from './waker.js'

export type { Dispatched }

/** Named points where a test may stop the owner as if it crashed there. */
export type FaultPoint =
  | 'tick:read' | 'tick:planned' | 'tick:acted'
  | 'launch:worktree' | 'launch:prompt' | 'launch:handled' | 'launch:claimed' | 'launch:spawned'
  | 'dispatch:created' | 'send:written' | 'stop:logged' | 'stop:signalled'
  | 'close:logged' | 'close:removed' | 'notify:delivered'

export interface KitchenDeps {
  /** The cook command template (see `cookArgv`); config `cookCommand` wins when set. */
  cookCommand?: readonly string[]
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
  /** A read-only session's interval tick took the lease: here is the owner. */
  promoted?: (kitchen: Kitchen) => void
  /** Interval tick (default 1000 ms); 0 ticks only on operations and cook exits. */
  tickMs?: number
  wakeQuietMs?: number
  wakeCapMs?: number
}

export type Opened =
  | { kind: 'owner'; kitchen: Kitchen }
  | { kind: 'read-only'; reader: KitchenReader; holder: Lease }

export interface AddProjectInput {
  path: string
  name?: string
  note?: string
  baseBranch?: string
  branchPrefix?: string
  testCommand?: string
}

export interface DispatchResult {
  tasks: (Dispatched & { skipped: { model: string; reason: string }[] })[]
  busy: number
  cap: number
  text: string
}

export type SendResult =
  | { kind: 'steered'; run: RunNo }
  | { kind: 'after-stop'; run: RunNo }
  | { kind: 'launched'; run: RunNo }
  | { kind: 'queued' }
  | { kind: 'after-exit' }
  | { kind: 'failed'; reason: string }

export type StopResult = { kind: 'stopping'; run: RunNo } | { kind: 'held'; run: RunNo } | { kind: 'signalled'; run: RunNo } | { kind: 'not-cooking' }

export interface CloseResult {
  task: TaskId
  worktree: git.RemoveResult | { error: string }
  branch: git.BranchDeletion | { error: string }
  text: string
}

/** What `result` answers: the facts its text is made from, the task's state, and that text. */
export interface ResultView extends ResultFacts {
  task: TaskId
  state: TaskView['state']
  commits: string[]
  text: string
}

const crashed = () => new KitchenError('KITCHEN_IO', 'this kitchen instance stopped after a simulated crash; open the kitchen again')

/** The read side both roles share: liveness, the snapshot, views, board and result. */
abstract class KitchenBase {
  readonly store: Store
  protected readonly cooks: CookMap
  /** Runs with output that a scan did not find: dead for good (a claim is never reused). */
  private readonly deadRuns = new Set<string>()
  protected lastErrors = new Set<string>()
  protected lastSnapshot = ''
  protected abstract readonly role: 'owner' | 'read-only'

  constructor(
    readonly root: string,
    protected readonly deps: KitchenDeps,
    readonly sessionId: string,
  ) {
    this.store = Store.open(root)
    this.cooks = new CookMap((p) => this.store.taskOfRunFile(p))
  }

  protected now(): Millis {
    return this.deps.now?.() ?? Date.now()
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
    const errors = [...new Set([...snap.errors, ...this.lastErrors])]
    return boardText({ now: this.now(), views, busy, cap, projects: snap.projects, broken: snap.broken, errors, ...(rulebook ? { rulebook } : {}) })
  }

  async result(id: string): Promise<ResultView> {
    const { view: v } = await this.locate(id)
    const spec = v.spec
    const project = this.store.readProject(spec.project)
    const repo = project?.path
    const ws = await git.worktreeState(this.store.checkedWorktree(spec))
    const land = repo ? await git.landing(repo, spec.branch, spec.baseBranch) : { exists: false, ahead: 0, byBase: false }
    const stat = repo ? await git.diffstat(repo, spec.branch, spec.baseBranch) : ''
    const commits = repo ? await git.commitsAhead(repo, spec.branch, spec.baseBranch) : []
    const s = v.state
    const run = s.kind === 'cooking' ? s.run : s.kind === 'idle' ? s.run : undefined
    const landed = land.byBase ? 'base' : land.byRemote ? 'remote' : false
    const out: ResultView = {
      task: v.id, title: spec.title, state: s, branch: spec.branch, baseBranch: spec.baseBranch,
      ahead: land.ahead, commits, landed, worktree: spec.worktree, worktreeExists: ws.exists, dirty: ws.dirty, diffstat: stat,
      taskDir: this.store.taskDir(v.id), text: '',
    }
    if (v.model) out.model = v.model
    if (land.byRemote) out.remoteRef = land.byRemote
    if (run !== undefined) {
      out.runFile = this.store.runFile(v.id, run)
      out.errFile = this.store.errFile(v.id, run)
    }
    out.text = resultText(out, v)
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

/** Open the kitchen at `root`: the owner when the lease is free or stale (or on takeover), else read-only. */
export async function openKitchen(root: string, deps: KitchenDeps = {}, options: { takeover?: boolean } = {}): Promise<Opened> {
  const sessionId = deps.sessionId ?? randomUUID()
  const d = { ...deps, sessionId }
  const store = Store.open(root)
  const me = deps.identity ?? (await selfIdentity())
  const mine: Lease = { pid: me.pid, pidStart: me.pidStart, sessionId, since: deps.now?.() ?? Date.now() }
  const got = await store.acquireLease(mine, deps.holderAlive ?? holderAlive, options.takeover ?? false)
  if (got.kind === 'owner') {
    const kitchen = new Kitchen(root, d, got.lease)
    await kitchen.activate()
    return { kind: 'owner', kitchen }
  }
  return { kind: 'read-only', reader: new KitchenReader(root, d, got.holder), holder: got.holder }
}

/** A session that does not hold the lease: it reads, and promotes when the holder goes away. */
export class KitchenReader extends KitchenBase {
  protected readonly role = 'read-only' as const
  private timer: NodeJS.Timeout | undefined
  private promoted: Promise<Kitchen | undefined> | undefined

  constructor(root: string, deps: KitchenDeps, public holder: Lease) {
    super(root, deps, deps.sessionId!)
    const every = deps.tickMs ?? 1000
    if (every > 0) {
      this.timer = setInterval(() => {
        this.tick().then((k) => k && this.deps.promoted?.(k), () => {})
      }, every)
      this.timer.unref()
    }
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
      if (got.kind === 'held') {
        this.holder = got.holder
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
    if (!k) throw new KitchenError('KITCHEN_LEASE_LOST', 'the takeover did not stick: another session replaced the lease at the same moment; run /chef takeover again')
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
  private restartPrefix: string | undefined
  private readonly children = new Map<string, { unref(): void }>()
  /** Sample task branches git accepted: a project's prefix is checked once per session. */
  private readonly validBranches = new Set<string>()
  /** A simulated crash, or a lost lease: the instance writes nothing more. */
  private dead = false
  private deathError: KitchenError | undefined
  lost = false

  constructor(root: string, deps: KitchenDeps, readonly lease: Lease) {
    super(root, deps, deps.sessionId!)
    if (deps.deliver) {
      const deliver = deps.deliver
      this.waker = new Waker<Notice>({
        quietMs: deps.wakeQuietMs ?? 1500,
        capMs: deps.wakeCapMs ?? 5000,
        deliver: (w) => (this.dead ? Promise.resolve(false) : deliver(w)),
        delivered: (runs) => this.markNotified(runs),
        compose: (batch) => {
          const prefix = this.restartPrefix
          this.restartPrefix = undefined
          return wakeText(batch, prefix)
        },
        onError: () => {},
      })
    }
  }

  /** Adopt the cooks of an earlier owner, then run the first tick (startup reconciliation). */
  async activate(): Promise<void> {
    await this.cooks.adoptScan()
    await this.tick()
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

  private checkLease(): void {
    if (this.dead) throw this.deathError ?? crashed()
    const cur = this.store.currentLease()
    if (sameHolder(cur, this.lease)) return
    this.lost = true
    this.dead = true
    this.dispose()
    this.emitSnapshot([], 'read-only')
    const who = cur ? `session ${cur.sessionId} (pid ${cur.pid})` : 'nobody (the lease file is gone)'
    this.deathError = new KitchenError('KITCHEN_LEASE_LOST', `the kitchen lease is now held by ${who}; this session is read-only: open the kitchen again, or take it over`)
    throw this.deathError
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
    this.waker?.dispose()
    for (const c of this.children.values()) c.unref()
  }

  /** Give the lease up and stop (the session leaves the kitchen; cooks keep running). */
  async shutdown(): Promise<void> {
    await this.serial(async () => {
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

  // ---------------------------------------------------------------- tick body

  private async tickBody(): Promise<TickResult> {
    const { snap, live } = await this.readState()
    this.fault('tick:read')
    const now = this.now()
    const config = snap.config
    const p = plan(snap.tasks, live, now, config)
    this.fault('tick:planned')
    const byId = new Map(snap.tasks.map((t) => [t.id as string, t]))
    const errors: string[] = [...snap.errors, ...snap.broken.map((b) => `task ${b.id} is broken: ${b.reason}`)]
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
            if (c && c.pid === a.pid && c.run === a.run) await signalCook(this.cooks, c, a.signal)
            break
          }
          case 'remove-worktree': {
            const rec = byId.get(a.task)
            const project = rec && this.store.readProject(rec.spec.project)
            if (project && rec) await git.removeWorktree(project.path, this.store.checkedWorktree(rec.spec))
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
    if (this.restartPending) {
      this.restartPending = false
      if (notices.length > 0) this.restartPrefix = restartText(live.size, notices.length)
    }
    this.waker?.offer(notices)
    this.emitSnapshot(views, 'owner')
    return { views, busy, cap: p.cap, errors }
  }

  // ---------------------------------------------------------------- launch

  /**
   * Launch order, each step safe if a crash stops it halfway: worktree, prompt file, messages moved
   * to handled/, the O_EXCL claim (after one more scan), spawn.
   */
  private async launch(a: Extract<Action, { kind: 'launch' }>, rec: TaskRecord, config: KitchenConfig, reclaim: boolean): Promise<void> {
    const id = a.task
    const run = a.run
    const spec = rec.spec
    // A cook no scan has seen yet must never get a sibling on its session.
    await this.cooks.adoptScan()
    if (this.cooks.get(id) && (await this.cooks.confirm(this.cooks.get(id)!))) return
    if (reclaim && !this.store.reclaimRun(id, run)) return
    const failed = (reason: string) => {
      this.checkLease()
      this.store.appendLog(id, { type: 'launch_failed', at: this.now(), run, reason })
    }
    const project = this.store.readProject(spec.project)
    try {
      if (!project) throw new Error(`project ${spec.project} is not registered (projects/${spec.project}.json is missing or broken)`)
      await git.ensureWorktree(project.path, this.store.checkedWorktree(spec), spec.branch, spec.baseBranch)
    } catch (error) {
      failed(`the worktree ${spec.worktree} could not be made: ${(error as Error).message}`)
      return
    }
    this.fault('launch:worktree')

    const messages = this.store.readInbox(id)
    const prompt = launchPrompt(a.prompt, spec, messages.map((m) => m.text), this.store.readPrompt(id, run), a.fallback)
    this.checkLease()
    this.store.writePrompt(id, run, prompt)
    this.fault('launch:prompt')
    for (const m of messages) this.store.handleMessage(id, m.name)
    this.fault('launch:handled')

    await this.cooks.adoptScan()
    if (this.cooks.get(id) && (await this.cooks.confirm(this.cooks.get(id)!))) return
    this.checkLease()
    let out: number
    try {
      out = this.store.claimRun(id, run)
    } catch (error) {
      if (error instanceof KitchenError && error.code === 'KITCHEN_CLAIM_TAKEN') return
      throw error
    }
    const err = this.store.openErr(id, run)
    let spawned
    try {
      this.fault('launch:claimed')
      const template = config.cookCommand ?? this.deps.cookCommand ?? DEFAULT_COOK_COMMAND
      const values = {
        promptFile: resolve(this.store.promptFile(id, run)),
        sessionDir: resolve(this.store.sessionDir(id)),
        sessionId: spec.sessionId,
        worktree: spec.worktree,
        taskDir: resolve(this.store.taskDir(id)),
        run,
        ...(a.candidate ? { model: a.candidate.model } : {}),
        ...(a.candidate?.thinking ? { thinking: a.candidate.thinking } : {}),
      }
      let argv: string[]
      try {
        argv = cookArgv(template, values, config.cookArgs)
      } catch (error) {
        failed((error as Error).message)
        return
      }
      spawned = await spawnCook({
        argv, cwd: spec.worktree, stdoutFd: out, stderrFd: err,
        env: { ...this.deps.cookEnv, KITCHEN_ROLE: 'cook', KITCHEN_TASK_DIR: values.taskDir, KITCHEN_RUN: String(run) },
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
      this.onCookExit(id, run, exit)
    })
    this.fault('launch:spawned')
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
      const name = input.name ?? basename(path)
      if (!isProjectName(name)) throw new KitchenError('KITCHEN_BAD_INPUT', `"${name}" is not a project name: use letters, digits, ".", "_" and "-", starting with a letter or digit; pass name`)
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
      const spec: ProjectSpec = { name, path, baseBranch: base, branchPrefix: prefix, createdAt: this.now(), ...(input.note ? { note: input.note } : {}), ...(input.testCommand?.trim() ? { testCommand: input.testCommand.trim() } : {}) }
      this.store.addProject(spec)
      await this.tickBody()
      return { project: spec, text: projectText(spec) }
    })
  }

  /** One task, or `tasks: [...]` whose items inherit project, rule and model. Validated as a whole first. */
  dispatch(input: unknown): Promise<DispatchResult> {
    return this.serial(async () => {
      this.checkLease()
      const norm = normalizeDispatch(input)
      if (!norm.ok) throw norm.error
      const items: DispatchItem[] = norm.items
      const config = this.store.loadConfig().config
      const prepared: { item: (typeof items)[number]; project: ProjectSpec; models: ReturnType<typeof selectModels> }[] = []
      for (const [i, item] of items.entries()) {
        const where = norm.batch ? `tasks[${i}]: ` : ''
        const project = this.store.readProject(item.project)
        if (!project) {
          const names = this.store.snapshot(this.now()).projects.map((p) => p.name)
          throw new KitchenError('KITCHEN_UNKNOWN_PROJECT', `${where}unknown project "${item.project}"; ${names.length ? `the projects are ${names.join(', ')}` : 'register one with add project first'}`)
        }
        const sample = `${project.branchPrefix}${project.name}-1`
        if (!this.validBranches.has(sample) && (await git.checkBranchName(project.path, sample)) !== sample) {
          throw new KitchenError('KITCHEN_BAD_BRANCH', `${where}project ${project.name} has the branch prefix "${project.branchPrefix}", which gives the invalid branch "${sample}"; fix branchPrefix in projects/${project.name}.json`)
        }
        let models
        try {
          models = selectModels({ ...(item.model !== undefined ? { model: item.model } : {}), ...(item.rule !== undefined ? { rule: item.rule } : {}) }, config.models, this.deps.modelCheck)
        } catch (error) {
          if (error instanceof KitchenError) throw new KitchenError(error.code, `${where}${error.message}`, { cause: error })
          throw error
        }
        this.validBranches.add(sample)
        prepared.push({ item, project, models })
      }
      const created: { spec: TaskSpec; skipped: { model: string; reason: string }[] }[] = []
      for (const { item, project, models } of prepared) {
        this.checkLease()
        const spec = this.store.createTask(project.name, (id) => ({
          id, project: project.name, title: item.title, brief: item.brief, branch: `${project.branchPrefix}${id}`,
          worktree: resolve(this.store.worktree(id)), baseBranch: project.baseBranch, sessionId: randomUUID(),
          models: models.models, ...(models.rule ? { rule: models.rule } : {}), createdAt: this.now(),
        }))
        created.push({ spec, skipped: models.skipped })
        this.fault('dispatch:created')
      }
      const t = await this.tickBody()
      const tasks = created.map(({ spec, skipped }) => ({ ...dispatched(spec, t.views.find((v) => v.id === spec.id)), skipped }))
      return { tasks, busy: t.busy, cap: t.cap, text: dispatchText(tasks, t.busy, t.cap) }
    })
  }

  /** Steer a cooking cook, relaunch an idle task, or wait (bounded) for a reported cook to exit. */
  send(id: string, message: string): Promise<SendResult> {
    return this.serial(async () => {
      this.checkLease()
      if (message.trim() === '') throw new KitchenError('KITCHEN_BAD_INPUT', 'message is empty; write what the cook should do')
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

  /** Stop a cooking cook (group SIGTERM, SIGKILL after the grace), or hold a queued task. */
  stop(id: string): Promise<StopResult> {
    return this.serial(async () => {
      this.checkLease()
      const { rec, view: v } = await this.locate(id)
      const s = v.state
      let result: StopResult
      if (s.kind === 'closed') throw new KitchenError('KITCHEN_TASK_CLOSED', `${id} is closed`)
      if (s.kind === 'cooking') {
        this.store.appendLog(rec.id, { type: 'stop', at: this.now(), run: s.run })
        this.fault('stop:logged')
        const c = this.cooks.get(rec.id)
        if (c) await signalCook(this.cooks, c, 'SIGTERM')
        this.fault('stop:signalled')
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
      } else result = { kind: 'not-cooking' }
      await this.tickBody()
      return result
    })
  }

  /** Close: refuse unsafe closes unless discard, append `closed`, remove the worktree, delete a landed branch. */
  close(id: string, options: { discard?: boolean } = {}): Promise<CloseResult> {
    return this.serial(async () => {
      this.checkLease()
      const discard = options.discard ?? false
      const { rec, view: v } = await this.locate(id)
      const spec = rec.spec
      const worktreePath = this.store.checkedWorktree(spec)
      const project = this.store.readProject(spec.project)
      const repo = project?.path
      const ws = await git.worktreeState(worktreePath)
      const land = repo ? await git.landing(repo, spec.branch, spec.baseBranch) : { exists: false, ahead: 0, byBase: false, byRemote: undefined }
      const onBranch = !ws.exists || (ws.head === spec.branch && !ws.rebasing)
      const head = ws.rebasing ? 'a rebase in progress' : ws.head ? `branch ${ws.head}` : 'detached'
      // A branch that is gone has nothing left to lose.
      const landed = !land.exists || land.byBase ? 'base' : land.byRemote ? 'remote' : false
      const verdict = closeVerdict(v, { worktreeExists: ws.exists, dirty: ws.dirty, ahead: land.ahead, landed, onBranch, head }, discard)
      if (!verdict.ok) throw new KitchenError(verdict.code, verdict.message)
      this.checkLease()
      this.store.appendLog(rec.id, { type: 'closed', at: this.now(), discarded: discard })
      this.fault('close:logged')
      let worktree: CloseResult['worktree']
      let branch: CloseResult['branch']
      if (!repo) {
        worktree = { error: `project ${spec.project} is not registered, so git was not asked` }
        branch = { error: 'not asked' }
      } else {
        try {
          worktree = await git.removeWorktree(repo, worktreePath)
        } catch (error) {
          worktree = { error: (error as Error).message }
        }
        this.fault('close:removed')
        try {
          branch = await git.deleteBranch(repo, spec.branch, spec.baseBranch, discard)
        } catch (error) {
          branch = { error: (error as Error).message }
        }
      }
      await this.tickBody()
      const text = closeText({ task: rec.id, discarded: discard, branch: spec.branch, baseBranch: spec.baseBranch }, worktree, branch)
      return { task: rec.id, worktree, branch, text }
    })
  }
}

export interface TickResult {
  views: TaskView[]
  busy: number
  cap: number
  errors: string[]
}
