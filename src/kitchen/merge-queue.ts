/**
 * The merge queue: lands tasks on their base branch one at a time, each only once the project's own
 * test command passed on it, and stops at the first conflict or failure. Its own owner: the state
 * is on disk (one entry per task in `merge/<id>.jsonl`, written through the store: created
 * exclusively, appended), each step recorded when it starts and when it is done, so a chef killed
 * anywhere comes back to the step it was in (the next owner resumes the queue, or says where it
 * stands). Nothing here touches git, files or the clock itself: kitchen.ts wires the steps in
 * (`MergePort`: the store's entry files, the lease check, the review of a task, the git steps of
 * land.ts, the host's confined test runner, close) and composes the texts.
 *
 * Per entry, in order (each step redone from its start after a crash; none of them moves anything a
 * later step relies on until it is recorded done):
 *   review  bring the branch back and check it can land and be closed (not cooking, a clean clone on
 *           its branch, commits of its own, the base not checked out with local changes); the branch's
 *           tip is recorded, and how it is brought onto the base (rebase unless the project prefers merge)
 *   bring   in a work clone of the kitchen's: rebase the tip onto the base's current tip (or merge it);
 *           a conflict is aborted, its files named, and the queue stops; the result's objects are
 *           fetched into the project before the step is recorded done
 *   test    the project's test command on the result, in a fresh work clone, through the host's
 *           confined and gated runner; a failure stops the queue with its output
 *   land    fast-forward the base from the recorded tip to the tested result (never if it moved since:
 *           then the entry goes back to bring; never under a checkout with local changes)
 *   close   close the task as landed (its clone removed, its branch deleted)
 * The task branch in the project is never moved by the queue: a stopped entry leaves it as it was.
 */
import { arr, bool, check, int, nonEmpty, obj, oneOf, pattern, str, tagged, type Parser } from './check.js'
import { KitchenError, type Millis } from './domain.js'
import type { BaseCheckout, Brought, Landed } from './land.js'

export type MergeHow = 'rebase' | 'merge'
export const MERGE_STEPS = ['review', 'bring', 'test', 'land', 'close'] as const
export type MergeStep = (typeof MERGE_STEPS)[number]

/** Named points where a test may stop the owner as if it crashed: right after a step was recorded done. */
export type MergeFault = 'merge:queued' | 'merge:reviewed' | 'merge:brought' | 'merge:tested' | 'merge:landed' | 'merge:closed'

/** The most tasks one call queues. */
export const MAX_MERGE_TASKS = 20
/** How often a base that moved under an entry sends it back to bring before the entry gives up. */
const MAX_MOVES = 3
/** The test's lines an entry keeps (each cut). */
const KEPT_LINES = 40
const KEPT_LINE_CHARS = 400
/** The conflicting files an entry keeps, and the longest reason it keeps. */
const KEPT_FILES = 50
const KEPT_REASON_CHARS = 2000

function cut(text: string, max = KEPT_REASON_CHARS): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text
}

// ---------------------------------------------------------------- what an entry ends with

export type MergeEnd =
  | { kind: 'landed'; how: MergeHow; onto: string; tip: string; already: boolean; tested: string[]; closed?: string; notClosed?: string }
  /** `more`: conflicting files beyond the ones kept. */
  | { kind: 'conflict'; how: MergeHow; onto: string; files: string[]; more?: number }
  | { kind: 'failed'; ran: boolean; lines: string[] }
  | { kind: 'refused'; reason: string }
  | { kind: 'checkout'; path: string; changes: string[] }
  | { kind: 'nothing' }
  | { kind: 'error'; reason: string }
  | { kind: 'moved' }
  | { kind: 'not-tried'; after: string }

/** An entry's outcome stops the rest of its queue unless it landed (or had nothing to land). */
function stops(end: MergeEnd): boolean {
  return end.kind !== 'landed' && end.kind !== 'nothing' && end.kind !== 'not-tried'
}

// ---------------------------------------------------------------- the entry's lines

const at = int()
const oid = pattern(/^[0-9a-f]{40}(?:[0-9a-f]{24})?$/, 'a commit id')
const how = oneOf(['rebase', 'merge'] as const)
const lineList = arr(str)

export type MergeEvent =
  | { type: 'queued'; at: Millis; task: string; queue: string; order: number }
  | { type: 'start'; at: Millis; step: MergeStep }
  | { type: 'reviewed'; at: Millis; tip: string; how: MergeHow }
  | { type: 'brought'; at: Millis; onto: string; tip: string }
  | { type: 'tested'; at: Millis; tip: string; ok: boolean; ran: boolean; lines: string[] }
  | { type: 'landed'; at: Millis; tip: string; result: 'landed' | 'already' | 'moved' }
  | { type: 'closed'; at: Millis; text: string; ok: boolean }
  | { type: 'ended'; at: Millis; end: MergeEnd }
  | { type: 'reported'; at: Millis }

const endParser: Parser<MergeEnd> = tagged<MergeEnd>('kind', {
  landed: obj({ kind: oneOf(['landed']), how, onto: oid, tip: oid, already: bool, tested: lineList }, { closed: str, notClosed: str }),
  conflict: obj({ kind: oneOf(['conflict']), how, onto: oid, files: lineList }, { more: int(1) }),
  failed: obj({ kind: oneOf(['failed']), ran: bool, lines: lineList }),
  refused: obj({ kind: oneOf(['refused']), reason: str }),
  checkout: obj({ kind: oneOf(['checkout']), path: str, changes: lineList }),
  nothing: obj({ kind: oneOf(['nothing']) }),
  error: obj({ kind: oneOf(['error']), reason: str }),
  moved: obj({ kind: oneOf(['moved']) }),
  'not-tried': obj({ kind: oneOf(['not-tried']), after: str }),
})

const eventParser: Parser<MergeEvent> = tagged<MergeEvent>('type', {
  queued: obj({ type: oneOf(['queued']), at, task: nonEmpty, queue: nonEmpty, order: int() }),
  start: obj({ type: oneOf(['start']), at, step: oneOf(MERGE_STEPS) }),
  reviewed: obj({ type: oneOf(['reviewed']), at, tip: oid, how }),
  brought: obj({ type: oneOf(['brought']), at, onto: oid, tip: oid }),
  tested: obj({ type: oneOf(['tested']), at, tip: oid, ok: bool, ran: bool, lines: lineList }),
  landed: obj({ type: oneOf(['landed']), at, tip: oid, result: oneOf(['landed', 'already', 'moved'] as const) }),
  closed: obj({ type: oneOf(['closed']), at, text: str, ok: bool }),
  ended: obj({ type: oneOf(['ended']), at, end: endParser }),
  reported: obj({ type: oneOf(['reported']), at }),
})

export function parseMergeEvent(line: string): MergeEvent | undefined {
  let value: unknown
  try {
    value = JSON.parse(line)
  } catch {
    return undefined
  }
  const c = check(eventParser, value)
  return c.ok ? c.value : undefined
}

/** One entry folded from its lines: where it stands. */
export interface MergeEntry {
  task: string
  queue: string
  order: number
  queuedAt: Millis
  how?: MergeHow
  /** The task branch's tip the entry lands (recorded by review). */
  branchTip?: string
  /** The base's tip the branch was brought onto, and the result (in the project's objects). */
  onto?: string
  tip?: string
  tested?: { tip: string; ok: boolean; ran: boolean; lines: string[] }
  landed?: 'landed' | 'already'
  closed?: { text: string; ok: boolean }
  ended?: MergeEnd
  reported: boolean
  /** The step started last and not recorded done: where a crash stopped it. */
  open?: MergeStep
  moves: number
  /** Lines that did not parse (skipped). */
  bad: number
}

/** Folds an entry's lines; undefined when it does not start with `queued` for `task`. */
export function foldEntry(task: string, raw: readonly string[]): MergeEntry | undefined {
  const events = raw.map(parseMergeEvent)
  const first = events[0]
  if (first?.type !== 'queued' || first.task !== task) return undefined
  const e: MergeEntry = { task, queue: first.queue, order: first.order, queuedAt: first.at, reported: false, moves: 0, bad: 0 }
  for (const ev of events.slice(1)) {
    if (!ev) {
      e.bad++
      continue
    }
    applyEvent(e, ev)
  }
  return e
}

function applyEvent(e: MergeEntry, ev: MergeEvent): void {
  switch (ev.type) {
    case 'queued': break
    case 'start': e.open = ev.step; break
    case 'reviewed': e.branchTip = ev.tip; e.how = ev.how; e.open = undefined; break
    case 'brought': e.onto = ev.onto; e.tip = ev.tip; e.tested = undefined; e.open = undefined; break
    case 'tested': e.tested = { tip: ev.tip, ok: ev.ok, ran: ev.ran, lines: ev.lines }; e.open = undefined; break
    case 'landed':
      e.open = undefined
      if (ev.result === 'moved') {
        // the base moved under it: bring it onto the new tip, test again
        e.moves++
        e.onto = undefined
        e.tip = undefined
        e.tested = undefined
      } else e.landed = ev.result
      break
    case 'closed': e.closed = { text: ev.text, ok: ev.ok }; e.open = undefined; break
    case 'ended': e.ended = ev.end; e.open = undefined; break
    case 'reported': e.reported = true; break
  }
}

/** What an entry does next. */
export type NextStep = MergeStep | 'end' | 'report' | 'none'

/** Pure: the next step of an entry, from what is recorded done (a step started and not done is redone). */
export function nextStep(e: MergeEntry): NextStep {
  if (e.ended) return e.reported ? 'none' : 'report'
  if (e.closed) return 'end'
  if (e.landed) return 'close'
  if (e.tested && e.tested.tip === e.tip) return e.tested.ok ? 'land' : 'end'
  if (e.tip && e.onto) return 'test'
  if (e.branchTip) return 'bring'
  return 'review'
}

/** The order entries are worked in: by the time they were queued, then by queue and place. */
export function queueOrder(a: MergeEntry, b: MergeEntry): number {
  return a.queuedAt - b.queuedAt || a.queue.localeCompare(b.queue) || a.order - b.order
}

// ---------------------------------------------------------------- overlapping changes

export interface TaskChanges {
  task: string
  files: readonly string[]
}

export interface Overlap {
  a: string
  b: string
  files: string[]
}

/** Pure: every pair of tasks that changed a file in common, in task order, with the files they share. */
export function overlaps(changes: readonly TaskChanges[], maxPairs = 10): { pairs: Overlap[]; more: number } {
  const pairs: Overlap[] = []
  let more = 0
  for (let i = 0; i < changes.length; i++) {
    const mine = new Set(changes[i]!.files)
    if (mine.size === 0) continue
    for (let j = i + 1; j < changes.length; j++) {
      const files = changes[j]!.files.filter((f) => mine.has(f))
      if (files.length === 0) continue
      if (pairs.length < maxPairs) pairs.push({ a: changes[i]!.task, b: changes[j]!.task, files: [...new Set(files)].sort() })
      else more++
    }
  }
  return { pairs, more }
}

// ---------------------------------------------------------------- the port

/** The store's entry files (store/index.ts): one per task, exclusive create, append, list, set aside. */
export interface MergeEntries {
  /** Creates `merge/<task>.jsonl` with its first line; false when the task has an entry already. */
  createMergeEntry(task: string, line: string): boolean
  appendMergeEntry(task: string, line: string): void
  /** Every entry file with its lines (complete lines only), by task. */
  readMergeEntries(): { task: string; lines: string[] }[]
  /** An entry that was reported goes aside (kept under merge/ended/); the task may be queued again. */
  endMergeEntry(task: string): void
}

/** What a landing needs to know of a task (kitchen.ts reads it). */
export interface MergeTarget {
  task: string
  repo: string
  project: string
  branch: string
  baseBranch: string
  /** The project's named test command, when it has one. */
  testCommand?: string
}

/** The task brought back and checked: what can't land (`problem`), else its branch's tip and commits ahead. */
export interface MergeReview extends MergeTarget {
  problem?: string
  tip?: string
  ahead: number
}

export interface MergeTestRun {
  task: string
  project: string
  baseBranch: string
  branch: string
  /** The base branch's tree at the commit the branch was brought onto: where the test command is found. */
  baseDir: string
  /** A work clone with the result checked out: where the test runs (its whole writable world). */
  workDir: string
  testCommand?: string
  /** The result's commit (what the test runs on). */
  tip?: string
  signal?: AbortSignal
}

export interface MergeTestVerdict {
  /** False when the test could not run (no test command, it needs a person, no sandbox): nothing lands. */
  ran: boolean
  ok: boolean
  /** The kitchen's lines about the run (command, where, how it ended, the output's tail), escaped. */
  lines: string[]
  /** What ran and how it exited, when it ran (the kitchen records it as a `verified` event). */
  command?: string
  exitCode?: number | null
}

/** The host's test runner: the project's test command, confined to the work clone and gated as verify runs it. */
export type MergeTest = (run: MergeTestRun) => Promise<MergeTestVerdict>

export interface MergeGit {
  projectTips(repo: string, branches: readonly string[]): Promise<Map<string, string>>
  mergePreference(repo: string, base: string): Promise<MergeHow>
  makeWorkClone(repo: string, dir: string, start: string): Promise<void>
  rebaseOnto(dir: string, onto: string): Promise<Brought>
  mergeInto(dir: string, tip: string, message: string): Promise<Brought>
  fetchLanded(repo: string, dir: string, tip: string): Promise<void>
  hasCommit(repo: string, oid: string): Promise<boolean>
  baseCheckouts(repo: string, base: string): Promise<BaseCheckout[]>
  landBase(repo: string, base: string, from: string, to: string): Promise<Landed>
}

export interface MergePort {
  entries: MergeEntries
  git: MergeGit
  /** Throws when this session no longer owns the kitchen: called before every write. */
  checkLease(): void
  fault(point: MergeFault): void
  now(): Millis
  /** False once the owner stopped (a crash, a lost lease, shutdown). */
  alive(): boolean
  /** Where a task lands; throws for an unknown or broken task. */
  target(task: string): Promise<MergeTarget>
  /** Brings the branch back and checks it can land and be closed afterwards. */
  review(task: string): Promise<MergeReview>
  /** A fresh scratch directory of the kitchen's; `done()` removes it. */
  scratch(): { dir: string; done(): void }
  /** A commit's tree checked out into `dir`, a new directory. */
  checkoutTree(repo: string, commit: string, dir: string): Promise<void>
  test?: MergeTest
  /** Close a task the queue landed: `tip` is the branch's tip it took, `as` what the base holds of it. */
  close(task: string, landed: { tip: string; as: string }): Promise<string>
  /** Hand a report of entries that ended while no call waited (after a restart) to the chef: true once delivered. */
  report?(entries: readonly MergeEntry[]): Promise<boolean>
}

/** An entry interrupted by a lost lease or a crash: the error that stopped it is the caller's. */
class Stopped extends Error {}

// ---------------------------------------------------------------- the queue

export class MergeQueue {
  private draining: Promise<void> | undefined
  private reportTimer: NodeJS.Timeout | undefined
  private seq = 0

  constructor(private readonly port: MergePort) {}

  /** Every entry on disk, folded, in queue order (entries that do not parse are left out). */
  entries(): MergeEntry[] {
    const out: MergeEntry[] = []
    for (const f of this.port.entries.readMergeEntries()) {
      const e = foldEntry(f.task, f.lines)
      if (e) out.push(e)
    }
    return out.sort(queueOrder)
  }

  /**
   * Queue `tasks` (in this order) behind what is queued already, work the queue until it is empty or
   * stopped, and return what the chef has not been told yet: the entries that ended since the last
   * report (these tasks', and any a restart went on with), and the ones still waiting.
   */
  async run(tasks: readonly string[], signal?: AbortSignal): Promise<MergeEntry[]> {
    if (!this.port.test) {
      throw new KitchenError('KITCHEN_BAD_INPUT', 'this kitchen has no test runner, and it lands only what the project\'s tests passed on; merge the branches yourself')
    }
    this.tidy()
    await this.enqueue(tasks)
    await this.drain(signal)
    return this.settle(tasks)
  }

  /** After a restart: go on with a queue a crashed owner left, then report what ended; or say where it stands. */
  resume(): void {
    try {
      this.tidy()
    } catch {
      return // the lease went meanwhile: the next owner resumes
    }
    const open = this.entries().filter((e) => nextStep(e) !== 'none')
    if (open.length === 0) return
    const waiting = open.some((e) => !e.ended && nextStep(e) !== 'report')
    const work = waiting && this.port.test ? this.drain().catch(() => {}) : Promise.resolve()
    void work.then(() => this.reportLater(0))
  }

  /** Entries reported before a crash stopped their setting aside: set aside now, so their tasks can be queued again. */
  private tidy(): void {
    const done = this.entries().filter((e) => nextStep(e) === 'none')
    if (done.length > 0) this.port.checkLease()
    for (const e of done) this.port.entries.endMergeEntry(e.task)
  }

  dispose(): void {
    if (this.reportTimer) clearTimeout(this.reportTimer)
    this.reportTimer = undefined
  }

  private async enqueue(tasks: readonly string[]): Promise<void> {
    const unique = [...new Set(tasks.map((t) => t.trim()))].filter((t) => t !== '')
    if (unique.length === 0) throw new KitchenError('KITCHEN_BAD_INPUT', 'name the tasks to merge: tasks: ["api-1", "api-2"]')
    if (unique.length > MAX_MERGE_TASKS) {
      throw new KitchenError('KITCHEN_BAD_INPUT', `${unique.length} tasks at once; the merge queue takes at most ${MAX_MERGE_TASKS} per call`)
    }
    // Every task is checked before anything is written: an unknown one refuses the whole call.
    for (const t of unique) await this.port.target(t)
    const queue = `${this.port.now().toString(36)}-${process.pid.toString(36)}-${(++this.seq).toString(36)}`
    const known = new Set(this.entries().map((e) => e.task))
    this.port.checkLease()
    for (const [order, task] of unique.entries()) {
      const line = JSON.stringify({ type: 'queued', at: this.port.now(), task, queue, order })
      // A task with an entry already keeps its place: one entry per task. A file in its place that is
      // no entry of the queue's (it does not parse) is set aside, so the task is queued all the same.
      if (this.port.entries.createMergeEntry(task, line) || known.has(task)) continue
      this.port.entries.endMergeEntry(task)
      this.port.entries.createMergeEntry(task, line)
    }
    this.port.fault('merge:queued')
  }

  /** Works the queue, one entry at a time; a second caller waits for the same work. */
  private drain(signal?: AbortSignal): Promise<void> {
    this.draining ??= this.work(signal).finally(() => {
      this.draining = undefined
    })
    return this.draining
  }

  private async work(signal?: AbortSignal): Promise<void> {
    for (;;) {
      if (!this.port.alive()) throw new Stopped('the kitchen stopped')
      if (signal?.aborted) return
      const next = this.entries().find((e) => !e.ended)
      if (!next) return
      await this.advance(next, signal)
    }
  }

  /** One step of an entry. */
  private async advance(e: MergeEntry, signal?: AbortSignal): Promise<void> {
    const step = nextStep(e)
    try {
      switch (step) {
        case 'review': return await this.review(e)
        case 'bring': return await this.bring(e)
        case 'test': return await this.test(e, signal)
        case 'land': return await this.land(e)
        case 'close': return await this.close(e)
        case 'end': return this.endEntry(e, this.endOf(e))
        default: return
      }
    } catch (error) {
      if (error instanceof KitchenError && error.code === 'KITCHEN_LEASE_LOST') throw error
      if (!this.port.alive() || signal?.aborted || error instanceof Stopped) throw error
      // git or the disk failed at this step: the entry ends here, said in its words.
      this.endEntry(e, { kind: 'error', reason: cut((error as Error)?.message ?? String(error)) })
    }
  }

  private write(task: string, event: Record<string, unknown>): void {
    this.port.checkLease()
    this.port.entries.appendMergeEntry(task, JSON.stringify({ ...event, at: this.port.now() }))
  }

  private start(e: MergeEntry, step: MergeStep): void {
    this.write(e.task, { type: 'start', step })
  }

  private async review(e: MergeEntry): Promise<void> {
    this.start(e, 'review')
    const r = await this.port.review(e.task)
    if (r.problem) return this.endEntry(e, { kind: 'refused', reason: cut(r.problem) })
    if (!r.tip || r.ahead === 0) return this.endEntry(e, { kind: 'nothing' })
    const dirty = (await this.port.git.baseCheckouts(r.repo, r.baseBranch)).find((c) => c.changes.length > 0)
    if (dirty) return this.endEntry(e, { kind: 'checkout', path: dirty.path, changes: dirty.changes })
    const how = await this.port.git.mergePreference(r.repo, r.baseBranch)
    this.write(e.task, { type: 'reviewed', tip: r.tip, how })
    this.port.fault('merge:reviewed')
  }

  /** Rebase (or merge) in a work clone; the result's objects go into the project before it is recorded. */
  private async bring(e: MergeEntry): Promise<void> {
    if (e.moves >= MAX_MOVES) return this.endEntry(e, { kind: 'moved' })
    this.start(e, 'bring')
    const t = await this.port.target(e.task)
    const onto = (await this.port.git.projectTips(t.repo, [t.baseBranch])).get(t.baseBranch)
    if (!onto) return this.endEntry(e, { kind: 'error', reason: `the base branch ${t.baseBranch} is not in ${t.repo}` })
    const how = e.how ?? 'rebase'
    const s = this.port.scratch()
    try {
      const dir = `${s.dir}/work`
      await this.port.git.makeWorkClone(t.repo, dir, how === 'rebase' ? e.branchTip! : onto)
      const r = how === 'rebase'
        ? await this.port.git.rebaseOnto(dir, onto)
        : await this.port.git.mergeInto(dir, e.branchTip!, `Merge ${t.branch} (${e.task})`)
      if (r.kind === 'conflict') {
        const files = r.files.slice(0, KEPT_FILES).map((f) => cut(f, KEPT_LINE_CHARS))
        return this.endEntry(e, { kind: 'conflict', how, onto, files, ...(r.files.length > files.length ? { more: r.files.length - files.length } : {}) })
      }
      if (r.kind === 'failed') return this.endEntry(e, { kind: 'error', reason: r.reason })
      await this.port.git.fetchLanded(t.repo, dir, r.tip)
      this.write(e.task, { type: 'brought', onto, tip: r.tip })
    } finally {
      s.done()
    }
    this.port.fault('merge:brought')
  }

  /** The project's test command on the result, in a fresh work clone; git never runs in it afterwards. */
  private async test(e: MergeEntry, signal?: AbortSignal): Promise<void> {
    const runner = this.port.test
    if (!runner) throw new Stopped('no test runner')
    this.start(e, 'test')
    const t = await this.port.target(e.task)
    if (!(await this.port.git.hasCommit(t.repo, e.tip!))) {
      // the result's objects are gone from the project (a gc?): bring it again
      this.write(e.task, { type: 'landed', tip: e.tip, result: 'moved' })
      return
    }
    const s = this.port.scratch()
    let verdict: MergeTestVerdict
    try {
      const workDir = `${s.dir}/work`
      const baseDir = `${s.dir}/base`
      await this.port.git.makeWorkClone(t.repo, workDir, e.tip!)
      await this.port.checkoutTree(t.repo, e.onto!, baseDir)
      verdict = await runner({
        task: e.task, project: t.project, baseBranch: t.baseBranch, branch: t.branch, baseDir, workDir,
        ...(t.testCommand ? { testCommand: t.testCommand } : {}), ...(e.tip ? { tip: e.tip } : {}), ...(signal ? { signal } : {}),
      })
    } finally {
      s.done()
    }
    if (signal?.aborted) throw new Stopped('the call was cancelled during the test')
    const kept = verdict.lines.slice(-KEPT_LINES).map((l) => (l.length > KEPT_LINE_CHARS ? `${l.slice(0, KEPT_LINE_CHARS - 1)}…` : l))
    this.write(e.task, { type: 'tested', tip: e.tip, ok: verdict.ok && verdict.ran, ran: verdict.ran, lines: kept })
    this.port.fault('merge:tested')
    if (!(verdict.ok && verdict.ran)) this.endEntry(e, { kind: 'failed', ran: verdict.ran, lines: kept })
  }

  /** Fast-forward the base to the tested result, from exactly the tip it was brought onto. */
  private async land(e: MergeEntry): Promise<void> {
    this.start(e, 'land')
    const t = await this.port.target(e.task)
    this.port.checkLease()
    const r = await this.port.git.landBase(t.repo, t.baseBranch, e.onto!, e.tip!)
    if (r.kind === 'dirty') return this.endEntry(e, { kind: 'checkout', path: r.path, changes: r.changes })
    if (r.kind === 'failed') return this.endEntry(e, { kind: 'error', reason: r.reason })
    this.write(e.task, { type: 'landed', tip: e.tip, result: r.kind })
    if (r.kind !== 'moved') this.port.fault('merge:landed')
  }

  private async close(e: MergeEntry): Promise<void> {
    this.start(e, 'close')
    let closed: { text: string; ok: boolean }
    try {
      closed = { text: await this.port.close(e.task, { tip: e.branchTip!, as: e.tip! }), ok: true }
    } catch (error) {
      if (error instanceof KitchenError && error.code === 'KITCHEN_LEASE_LOST') throw error
      if (!this.port.alive()) throw error
      // A crash after the close was logged and before this was recorded: it is closed already.
      const already = error instanceof KitchenError && error.code === 'KITCHEN_TASK_CLOSED'
      closed = { text: already ? '' : (error as Error)?.message ?? String(error), ok: already }
    }
    this.write(e.task, { type: 'closed', ...closed })
    this.port.fault('merge:closed')
    this.endEntry(e, this.endOf({ ...e, closed }))
  }

  /** How an entry ended that has nothing left to do (its test failed, or it landed and was closed). */
  private endOf(e: MergeEntry): MergeEnd {
    if (e.tested && !e.tested.ok && !e.landed) return { kind: 'failed', ran: e.tested.ran, lines: e.tested.lines }
    const closed = e.closed
    return {
      kind: 'landed', how: e.how ?? 'rebase', onto: e.onto!, tip: e.tip!, already: e.landed === 'already', tested: e.tested?.lines ?? [],
      ...(closed?.ok && closed.text ? { closed: closed.text } : {}), ...(closed && !closed.ok ? { notClosed: closed.text } : {}),
    }
  }

  /** Records the end; one that stops the queue ends the rest of its queue as not tried. */
  private endEntry(e: MergeEntry, end: MergeEnd): void {
    this.write(e.task, { type: 'ended', end })
    if (!stops(end)) return
    for (const o of this.entries()) {
      if (o.ended || o.queue !== e.queue || o.task === e.task) continue
      this.write(o.task, { type: 'ended', end: { kind: 'not-tried', after: e.task } })
    }
  }

  /**
   * What a call reports: every ended entry not reported yet (marked reported and set aside now, as
   * the call's answer carries it), then the given tasks' entries still waiting.
   */
  private settle(tasks: readonly string[]): MergeEntry[] {
    const all = this.entries()
    const ended = all.filter((e) => e.ended && !e.reported)
    const waiting = all.filter((e) => !e.ended && tasks.includes(e.task))
    this.markReported(ended)
    return [...ended, ...waiting]
  }

  private markReported(entries: readonly MergeEntry[]): void {
    for (const e of entries) {
      this.write(e.task, { type: 'reported' })
      this.port.entries.endMergeEntry(e.task)
    }
  }

  /** Hands the chef what ended while no call waited for it, until it is delivered (or the owner stops). */
  private reportLater(ms: number, tries = 0): void {
    const report = this.port.report
    if (!report || tries > 60) return
    this.dispose()
    this.reportTimer = setTimeout(() => {
      this.reportTimer = undefined
      if (!this.port.alive() || this.draining) return
      const due = this.entries().filter((e) => nextStep(e) !== 'none')
      if (due.length === 0) return
      report.call(this.port, due).then((ok) => {
        if (!ok) return this.reportLater(2000, tries + 1)
        if (this.port.alive()) this.markReported(due.filter((e) => e.ended))
      }, () => this.reportLater(2000, tries + 1))
    }, ms)
    this.reportTimer.unref?.()
  }
}
