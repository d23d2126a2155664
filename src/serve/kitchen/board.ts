/**
 * The kitchen as the board sees it, read and never written: the chef's process stays the kitchen's
 * one writer. A read is what the owner's own read is (`KitchenBase.readState` in kitchen.ts): the
 * live cooks (by their stdout on a run file, /proc only), the store's incremental snapshot, and
 * derive's state of each task; plus what only the board wants, the tail of each open task's run
 * and its branch's git facts. Each change becomes an event (events.ts): a task added or changed,
 * run entries appended, a task gone, the kitchen appearing or going away.
 *
 * Nothing here creates the kitchen: a directory without the kitchen's folders is "no kitchen yet",
 * looked at again at the next read (the store would make them). The kitchen is read every
 * `pollMs` while an event stream is open, and otherwise when a request finds the last read older
 * than that; a read of 500 quiet tasks costs about one stat each.
 */
import { lstatSync } from 'node:fs'
import { join } from 'node:path'
import { CookMap } from '../../kitchen/cooks/index.js'
import { deriveTask } from '../../kitchen/derive/index.js'
import type { BrokenTask, KitchenSnapshot, LiveCook, LiveMap, ProjectSpec, RunNo, TaskRecord, TaskView } from '../../kitchen/domain.js'
import { Store } from '../../kitchen/store/index.js'
import { EventHub } from './events.js'
import { FactsReader } from './facts.js'
import { entryHtml, rowHtml } from './pages.js'
import { RunTail, type RunEntry } from './run-lines.js'
import { byBoardOrder, currentRun, jsonEntry, jsonRow, taskRow, type TaskRow } from './rows.js'

export interface BoardOptions {
  dir: string
  /** How often the kitchen is read while an event stream is open (ms). */
  pollMs?: number
  /** How often open tasks' git facts are read again while a stream is open (ms). */
  factsMs?: number
  maxStreams?: number
}

/** Entries of the current run a row keeps. */
export const ROW_ENTRIES = 3
/** Entries one `lines` event carries at most. */
const EVENT_ENTRIES = 200
/** An unknown unsettled run makes a scan of the process table at most this often. */
const SCAN_MS = 2_000
const FOLDERS = ['projects', 'tasks', 'worktrees', 'lease']

const sameCook = (a: LiveCook | undefined, b: LiveCook | undefined) => a?.pid === b?.pid && a?.run === b?.run

interface Known {
  rec: TaskRecord
  cook?: LiveCook
  view: TaskView
  row: TaskRow
  json: string
  tail?: RunTail
  /** The run file holds more than the last read took. */
  more: boolean
}

export class KitchenBoard {
  readonly dir: string
  readonly hub: EventHub
  private readonly pollMs: number
  private readonly factsMs: number
  private store: Store | undefined
  private cooks: CookMap | undefined
  private readonly known = new Map<string, Known>()
  private order: TaskRow[] | undefined
  private broken: readonly BrokenTask[] = []
  private errors: string[] = []
  private readonly recorded = new Map<string, ProjectSpec>()
  private readonly drifted = new Map<string, string>()
  private readonly deadRuns = new Set<string>()
  private readonly facts: FactsReader
  private lastScan = 0
  private lastRead = 0
  private lastFacts = 0
  private reading: Promise<void> | undefined
  private timer: NodeJS.Timeout | undefined
  private closed = false

  constructor(options: BoardOptions) {
    this.dir = options.dir
    this.pollMs = options.pollMs ?? 500
    this.factsMs = options.factsMs ?? 2_000
    this.hub = new EventHub(options.maxStreams, (n) => this.streams(n))
    this.facts = new FactsReader(() => this.store, (name) => this.projectOf(name))
  }

  private readCount = 0

  /** Reads of the kitchen made so far (each request or poll that found the last read old). */
  get reads(): number {
    return this.readCount
  }

  /** Whether the directory holds a kitchen (its folders are there). */
  get present(): boolean {
    return this.store !== undefined
  }

  /** Reads the kitchen when the last read is older than `maxAgeMs`; concurrent callers share one read. */
  fresh(maxAgeMs = this.pollMs): Promise<void> {
    if (this.reading) return this.reading
    if (Date.now() - this.lastRead < maxAgeMs) return Promise.resolve()
    this.reading = this.read().finally(() => {
      this.readCount++
      this.lastRead = Date.now()
      this.reading = undefined
    })
    return this.reading
  }

  /** The poll runs only while someone listens. */
  private streams(n: number): void {
    if (n > 0 && !this.timer && !this.closed) {
      this.timer = setInterval(() => void this.fresh(0).catch(() => {}), this.pollMs)
      this.timer.unref()
    } else if (n === 0 && this.timer) {
      clearInterval(this.timer)
      this.timer = undefined
    }
  }

  close(): void {
    this.closed = true
    if (this.timer) clearInterval(this.timer)
    this.timer = undefined
    this.hub.close()
  }

  /** The store, when the directory holds a kitchen; opening it then creates nothing (every folder it makes is there). */
  private openStore(): Store | undefined {
    const whole = FOLDERS.every((f) => lstatSync(join(this.dir, f), { throwIfNoEntry: false })?.isDirectory())
    if (!whole) {
      this.store = undefined
      this.cooks = undefined
      return undefined
    }
    if (!this.store) {
      const store = Store.open(this.dir)
      this.store = store
      this.cooks = new CookMap((p) => store.taskOfRunFile(p))
    }
    return this.store
  }

  private async read(): Promise<void> {
    const was = this.present
    const store = this.openStore()
    if (!store) {
      if (was) this.forgetAll()
      return
    }
    if (!was) this.hub.publish('kitchen', undefined, { present: true })
    const { snap, live } = await this.readState(store)
    const projects = this.projectsOf(snap)
    this.errors = [...new Set([...snap.errors, ...projects])]
    this.broken = snap.broken
    const seen = new Set<string>()
    for (const rec of snap.tasks) {
      seen.add(rec.id)
      this.update(store, rec, live.get(rec.id), snap)
    }
    for (const [id, k] of [...this.known]) {
      if (seen.has(id)) continue
      this.known.delete(id)
      this.facts.forget(id)
      this.order = undefined
      this.hub.publish('removed', id, { id, previous: k.row.state })
    }
    // git that can't run is each task's problem, shown with its row; never the read's
    if (Date.now() - this.lastFacts >= this.factsMs) void this.readFacts().catch(() => {})
  }

  /** The owner's read: live cooks, the files, and one process scan when an unsettled run has no known cook. */
  private async readState(store: Store): Promise<{ snap: KitchenSnapshot; live: LiveMap }> {
    const cooks = this.cooks!
    let live: LiveMap = await cooks.live()
    const snap = store.snapshot()
    const unknown = snap.tasks.filter((t) => {
      const last = t.runs.at(-1)
      if (live.has(t.id) || !last?.claimed || last.fold.settledAt !== undefined) return false
      return !t.log.some((e) => e.type === 'closed') && !this.deadRuns.has(`${t.id}#${last.n}`)
    })
    if (unknown.length > 0 && Date.now() - this.lastScan >= SCAN_MS) {
      this.lastScan = Date.now()
      await cooks.adoptScan()
      live = await cooks.live()
      for (const t of unknown) if (!live.has(t.id) && t.runs.at(-1)!.size > 0) this.deadRuns.add(`${t.id}#${t.runs.at(-1)!.n}`)
    }
    return { snap, live }
  }

  /** A project as first read: a rewritten project file is reported and not used (as the owner does). */
  private projectsOf(snap: KitchenSnapshot): string[] {
    for (const p of snap.projects) {
      const mine = this.recorded.get(p.name)
      if (!mine) this.recorded.set(p.name, p)
      else if (JSON.stringify([mine.path, mine.baseBranch, mine.branchPrefix]) !== JSON.stringify([p.path, p.baseBranch, p.branchPrefix])) {
        this.drifted.set(p.name, `projects/${p.name}.json changed since the board read it; the board keeps ${mine.path} until it is started again`)
      } else this.drifted.delete(p.name)
    }
    return [...this.drifted.values()]
  }

  projectOf(name: string): ProjectSpec | undefined {
    return this.recorded.get(name)
  }

  /** One task: derived again when its record or its cook changed, its run followed, its row sent when it changed. */
  private update(store: Store, rec: TaskRecord, cook: LiveCook | undefined, snap: KitchenSnapshot): void {
    const k = this.known.get(rec.id)
    const changed = !k || k.rec !== rec || !sameCook(k.cook, cook)
    if (!changed && !k.more) return
    const view = changed ? deriveTask(rec, cook, Date.now(), snap.config) : k.view
    const tail = this.tailOf(store, rec, view, k)
    const got = tail ? tail.read() : { entries: [], more: false }
    // The first sight of a task (the board starting, a new task): its history, which its row carries.
    const entries = k ? got.entries : []
    const row = taskRow(rec, view, tail?.recent.slice(-ROW_ENTRIES) ?? [], this.facts.get(rec.id))
    const json = JSON.stringify(row)
    this.known.set(rec.id, { rec, view, row, json, more: got.more, ...(cook ? { cook } : {}), ...(tail ? { tail } : {}) })
    if (json !== k?.json) this.publishRow(row, k?.row.state)
    if (entries.length > 0) this.publishLines(rec.id, row.run, entries)
  }

  /** The tail of the task's current run while it is open (a new run starts its own); a closed task keeps none. */
  private tailOf(store: Store, rec: TaskRecord, view: TaskView, k: Known | undefined): RunTail | undefined {
    const run = view.state.kind === 'closed' ? undefined : currentRun(rec)
    if (run === undefined) return undefined
    if (k?.tail && k.tail.run === run) return k.tail
    return new RunTail(store.runFile(rec.id, run as RunNo), run, ROW_ENTRIES * 4)
  }

  /** Entries a run appended: at most EVENT_ENTRIES in one event (a burst's newest), `skipped` saying how many were left out. */
  private publishLines(id: string, run: number | null, entries: readonly RunEntry[]): void {
    const shown = entries.slice(-EVENT_ENTRIES)
    this.hub.publish('lines', id, { id, run, lines: shown.map(jsonEntry), html: shown.map(entryHtml), skipped: entries.length - shown.length })
  }

  /** A row that changed; `previous` is its state before (undefined: the task is new to the board). */
  private publishRow(row: TaskRow, previous: TaskRow['state'] | undefined): void {
    this.order = undefined
    this.hub.publish('task', row.id, { id: row.id, added: previous === undefined, previous: previous ?? null, row: jsonRow(row), html: rowHtml(row) })
  }

  private forgetAll(): void {
    for (const id of this.known.keys()) this.facts.forget(id)
    this.known.clear()
    this.order = undefined
    this.broken = []
    this.errors = []
    this.hub.publish('kitchen', undefined, { present: false })
  }

  /** Reads the git facts of open tasks again; rows whose facts changed are sent. */
  async readFacts(only?: readonly string[]): Promise<void> {
    this.lastFacts = Date.now()
    const recs = [...this.known.values()].filter((k) => (only ? only.includes(k.rec.id) : k.row.state !== 'closed')).map((k) => k.rec)
    if (recs.length === 0) return
    const changed = await this.facts.sweep(recs)
    for (const id of changed) {
      const k = this.known.get(id)
      if (!k) continue
      const row = taskRow(k.rec, k.view, k.tail?.recent.slice(-ROW_ENTRIES) ?? [], this.facts.get(id))
      const json = JSON.stringify(row)
      if (json === k.json) continue
      this.known.set(id, { ...k, row, json })
      this.publishRow(row, k.row.state)
    }
  }

  // ---------------------------------------------------------------- what the routes read

  /** Every task's row in board order (kept until a row changes). */
  rows(): readonly TaskRow[] {
    this.order ??= [...this.known.values()].map((k) => k.row).sort(byBoardOrder)
    return this.order
  }

  brokenTasks(): readonly BrokenTask[] {
    return this.broken
  }

  problems(): readonly string[] {
    return this.errors
  }

  record(id: string): TaskRecord | undefined {
    return this.known.get(id)?.rec
  }

  row(id: string): TaskRow | undefined {
    return this.known.get(id)?.row
  }

  storeNow(): Store | undefined {
    return this.store
  }

  /** The git facts of these tasks, read now (a page about to be shown waits for them, up to `ms`). */
  async factsFor(ids: readonly string[], ms: number): Promise<void> {
    // facts read a moment ago are current enough for a page (the stream brings what changes after)
    if (Date.now() - this.lastFacts < this.pollMs && ids.every((id) => this.facts.has(id))) return
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<void>((r) => (timer = setTimeout(r, ms)))
    try {
      await Promise.race([this.readFacts(ids).catch(() => {}), late])
    } finally {
      clearTimeout(timer)
    }
  }

  diff(id: string): ReturnType<FactsReader['diff']> | undefined {
    const rec = this.record(id)
    return rec ? this.facts.diff(rec) : undefined
  }
}
