/**
 * The git facts of every open task (its branch tip, its base's tip, the commits ahead), kept so the
 * board never waits for git, and read again only when something can have changed: the project's
 * branches in one call per project, a clone's tip only when the clone's ref files changed (a cook's
 * commit rewrites them), the commits ahead once per pair of tips. At most CONCURRENCY git
 * processes run at once. Diffs are read on demand and the last few kept by their pair of tips.
 */
import { lstatSync } from 'node:fs'
import { join } from 'node:path'
import type { ProjectSpec, TaskRecord } from '../../kitchen/domain.js'
import type { Store } from '../../kitchen/store/index.js'
import { aheadCount, branchDiff, cloneObjects, cloneTip, projectTips, type DiffText } from './git-read.js'
import type { BranchFacts } from './rows.js'

const CONCURRENCY = 2
/** Branch names per for-each-ref call (its command line stays short). */
const TIPS_PER_CALL = 200
const KEPT_DIFFS = 8
const KEPT_COUNTS = 4_000

interface Entry {
  facts: BranchFacts
  /** The clone's ref files as last seen ('' when there is no clone). */
  stamp?: string
  cloneTip?: string
}

/** Runs jobs at most `limit` at a time. */
async function pooled<T>(items: readonly T[], limit: number, job: (item: T) => Promise<void>): Promise<void> {
  let next = 0
  const worker = async () => {
    while (next < items.length) await job(items[next++]!)
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
}

/** A cheap stamp of the clone's refs: the branch's loose ref and packed-refs, by lstat (no git). */
function cloneStamp(worktree: string | undefined, branch: string): string {
  if (!worktree) return ''
  const dotGit = join(worktree, '.git')
  const parts = [join(dotGit, 'refs', 'heads', ...branch.split('/')), join(dotGit, 'packed-refs'), dotGit].map((p) => {
    const st = lstatSync(p, { throwIfNoEntry: false })
    return st ? `${st.ino}:${st.size}:${st.mtimeMs}:${st.isDirectory() ? 'd' : st.isFile() ? 'f' : 'o'}` : '-'
  })
  return parts.join('|')
}

export class FactsReader {
  private readonly entries = new Map<string, Entry>()
  private readonly diffs = new Map<string, DiffText>()
  private readonly counts = new Map<string, number>()
  private running: Promise<string[]> | undefined

  constructor(private readonly store: () => Store | undefined, private readonly project: (name: string) => ProjectSpec | undefined) {}

  has(id: string): boolean {
    return this.entries.has(id)
  }

  get(id: string): BranchFacts {
    return this.entries.get(id)?.facts ?? {}
  }

  forget(id: string): void {
    this.entries.delete(id)
  }

  /**
   * Reads again what may have changed for these tasks; resolves with the ids whose facts changed.
   * A sweep in progress is joined rather than doubled.
   */
  sweep(records: readonly TaskRecord[]): Promise<string[]> {
    if (this.running) return this.running
    this.running = this.read(records).finally(() => (this.running = undefined))
    return this.running
  }

  private async read(records: readonly TaskRecord[]): Promise<string[]> {
    const byRepo = new Map<string, TaskRecord[]>()
    const changed: string[] = []
    for (const rec of records) {
      const repo = this.project(rec.spec.project)?.path
      if (!repo) {
        if (this.set(rec.id, { facts: { problem: `the project ${rec.spec.project} is not registered in this kitchen` } })) changed.push(rec.id)
        continue
      }
      byRepo.set(repo, [...(byRepo.get(repo) ?? []), rec])
    }
    for (const [repo, recs] of byRepo) {
      let tips: Map<string, string>
      try {
        tips = await this.tipsOf(repo, recs)
      } catch (error) {
        for (const rec of recs) if (this.set(rec.id, { facts: { problem: (error as Error).message } })) changed.push(rec.id)
        continue
      }
      await pooled(recs, CONCURRENCY, async (rec) => {
        let now: boolean
        try {
          now = await this.readOne(repo, rec, tips)
        } catch (error) {
          now = this.set(rec.id, { facts: { problem: `git could not read ${rec.spec.branch}: ${(error as Error).message}` } })
        }
        if (now) changed.push(rec.id)
      })
    }
    return changed
  }

  private async tipsOf(repo: string, recs: readonly TaskRecord[]): Promise<Map<string, string>> {
    const names = [...new Set(recs.flatMap((r) => [r.spec.branch, r.spec.baseBranch]))]
    const tips = new Map<string, string>()
    for (let i = 0; i < names.length; i += TIPS_PER_CALL) {
      for (const [k, v] of await projectTips(repo, names.slice(i, i + TIPS_PER_CALL))) tips.set(k, v)
    }
    return tips
  }

  /** One task's facts from the project's tips and its clone; true when they changed. */
  private async readOne(repo: string, rec: TaskRecord, tips: ReadonlyMap<string, string>): Promise<boolean> {
    const spec = rec.spec
    const before = this.entries.get(rec.id)
    let worktree: string | undefined
    try {
      worktree = this.store()?.checkedWorktree(spec)
    } catch {
      worktree = undefined // a symlink or a foreign path: never read
    }
    const stamp = cloneStamp(worktree && cloneObjects(worktree) ? worktree : undefined, spec.branch)
    const fromClone = before && before.stamp === stamp ? before.cloneTip : stamp && worktree ? await cloneTip(repo, worktree, spec.branch) : undefined
    const projectTip = tips.get(spec.branch)
    const baseTip = tips.get(spec.baseBranch)
    const tip = fromClone ?? projectTip
    const objects = fromClone && fromClone !== projectTip && worktree ? cloneObjects(worktree) : undefined
    const ahead = tip && baseTip ? await this.ahead(repo, baseTip, tip, objects) : undefined
    const facts: BranchFacts = {
      // the project's when it has this commit on the branch (the kitchen brought it back), else the clone's
      ...(tip ? { tip, source: tip === projectTip ? 'project' as const : 'clone' as const } : {}),
      ...(baseTip ? { baseTip } : { problem: `the base branch ${spec.baseBranch} is not in ${repo}` }),
      ...(ahead !== undefined ? { ahead } : {}),
    }
    return this.set(rec.id, { facts, stamp, ...(fromClone ? { cloneTip: fromClone } : {}) })
  }

  /** Commits ahead, counted once per pair of tips (many tasks, and every sweep, share a pair until a branch moves). */
  private async ahead(repo: string, base: string, tip: string, objects: string | undefined): Promise<number | undefined> {
    const key = `${repo}\0${base}...${tip}`
    if (this.counts.has(key)) return this.counts.get(key)
    const n = await aheadCount(repo, base, tip, objects)
    if (n !== undefined) {
      this.counts.set(key, n)
      if (this.counts.size > KEPT_COUNTS) this.counts.delete(this.counts.keys().next().value!)
    }
    return n
  }

  private set(id: string, entry: Entry): boolean {
    const same = JSON.stringify(this.entries.get(id)?.facts) === JSON.stringify(entry.facts)
    this.entries.set(id, entry)
    return !same
  }

  /**
   * The diff of a task's branch against its base, as its facts name them (sweep first), or why there
   * is none. The last KEPT_DIFFS are kept by their pair of tips.
   */
  async diff(rec: TaskRecord): Promise<{ diff: DiffText; facts: BranchFacts } | { problem: string; facts: BranchFacts }> {
    const facts = this.get(rec.id)
    const repo = this.project(rec.spec.project)?.path
    if (!repo) return { problem: `the project ${rec.spec.project} is not registered in this kitchen`, facts }
    if (!facts.tip) {
      const why = rec.log.some((e) => e.type === 'closed') ? ' (it was deleted when the task closed)' : ' yet'
      return { problem: `the branch ${rec.spec.branch} is in neither the cook's clone nor ${repo}${why}`, facts }
    }
    if (!facts.baseTip) return { problem: facts.problem ?? `the base branch ${rec.spec.baseBranch} is not in ${repo}`, facts }
    const key = `${facts.baseTip}...${facts.tip}`
    let diff = this.diffs.get(key)
    if (!diff) {
      let worktree: string | undefined
      try {
        worktree = this.store()?.checkedWorktree(rec.spec)
      } catch {
        worktree = undefined
      }
      const objects = facts.source === 'clone' && worktree ? cloneObjects(worktree) : undefined
      diff = await branchDiff(repo, facts.baseTip, facts.tip, objects)
      this.diffs.set(key, diff)
      if (this.diffs.size > KEPT_DIFFS) this.diffs.delete(this.diffs.keys().next().value!)
    }
    return { diff, facts }
  }
}
