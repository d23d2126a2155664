/**
 * The git steps of landing a task and of reading what it changed: part of the git owner (beside
 * git.ts), used by the merge queue (merge-queue.ts, through kitchen.ts) and by result's diff.
 *
 * - **Reading a branch** (`branchDiff`, `changedFiles`): the diff of a task branch against its base,
 *   read with the project's git. The branch's tip is the project's branch, else the clone's (through
 *   `git ls-remote`, upload-pack, which git keeps safe on an untrusted repository); the clone's
 *   objects are added as plain data (GIT_ALTERNATE_OBJECT_DIRECTORIES), never its configuration.
 *   This is the board's reader's approach (src/serve/kitchen/git-read.ts), copied here because the
 *   kitchen core does not import a face.
 * - **Landing** (`makeWorkClone`, `rebaseOnto`, `mergeInto`, `fetchLanded`, `landBase`): the work
 *   happens in a clone of the kitchen's own (the project's objects borrowed through alternates), never
 *   in the person's checkout; the task branch in the project is never moved. The result's objects are
 *   fetched into the project before its test runs (so git never runs in the work clone after the test
 *   had it), and the base branch is moved only by a fast-forward from the exact commit it was when the
 *   branch was brought onto it: by `update-ref` with that old value, or, where the base branch is
 *   checked out and clean, by `merge --ff-only` there. A checkout with local changes is never moved.
 *
 * Every call runs without the system config and without GIT_* variables from the environment, with
 * fsmonitor, hooks, signing and automatic gc off, with a timeout and bounded output; refs go after
 * `--end-of-options` or as checked object ids.
 */
import { lstatSync, writeFileSync } from 'node:fs'
import { dirname, isAbsolute, join, resolve } from 'node:path'
import { loadExeca } from '../base/lazy.js'
import { cloneKind, parseWorktreeList } from './git.js'

const OID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/
const READ_TIMEOUT_MS = 20_000
const STEP_TIMEOUT_MS = 120_000
const SMALL_OUTPUT = 1024 * 1024
/** The most of a diff read for result; the rest is counted as cut. */
export const MAX_DIFF_BYTES = 2 * 1024 * 1024
/** The branch the work clone holds: the task's commits brought onto the base. */
const WORK_REF = 'refs/heads/land'
/** Who commits a rebase or merge when the project names nobody. */
const FALLBACK_IDENTITY = { name: 'command-scout kitchen', email: 'kitchen@command-scout.invalid' }

export function isOid(text: string | undefined): text is string {
  return text !== undefined && OID.test(text)
}

/** The environment of every call: the person's own (HOME: their global config), without git's redirecting variables. */
function gitEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('GIT_')) env[k] = v
  return {
    ...env, GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0', GIT_NO_LAZY_FETCH: '1', GIT_PAGER: 'cat', GIT_EDITOR: 'true',
    GIT_LFS_SKIP_SMUDGE: '1', LC_ALL: 'C', ...extra,
  }
}

const SAFE_CONFIG = [
  '-c', 'core.fsmonitor=false', '-c', 'core.hooksPath=/dev/null', '-c', 'protocol.allow=never', '-c', 'color.ui=false',
  '-c', 'commit.gpgSign=false', '-c', 'gc.auto=0', '-c', 'maintenance.auto=false', '-c', 'core.editor=true',
  '-c', 'submodule.recurse=false', '-c', 'rerere.enabled=false', '-c', 'rebase.updateRefs=false', '-c', 'rebase.autoStash=false', '-c', 'merge.autoStash=false',
]

interface GitOut { ok: boolean; exitCode: number; stdout: Buffer; cut: boolean; stderr: string }

interface GitOptions {
  max?: number
  env?: Record<string, string>
  config?: readonly string[]
  timeoutMs?: number
}

async function run(cwd: string, args: readonly string[], options: GitOptions = {}): Promise<GitOut> {
  const timeout = options.timeoutMs ?? READ_TIMEOUT_MS
  const r = await (await loadExeca()).execa('git', [...SAFE_CONFIG, ...(options.config ?? []), '--no-pager', ...args], {
    cwd, reject: false, stdin: 'ignore', encoding: 'buffer', stripFinalNewline: false, maxBuffer: options.max ?? SMALL_OUTPUT, timeout,
    extendEnv: false, env: gitEnv(options.env ?? {}),
  })
  const stdout = Buffer.from(r.stdout as Uint8Array)
  const stderr = Buffer.from((r.stderr ?? new Uint8Array()) as Uint8Array).toString('utf8').slice(0, 4000)
  if (r.isMaxBuffer) return { ok: true, exitCode: 0, stdout, cut: true, stderr }
  if (r.timedOut) return { ok: false, exitCode: -1, stdout, cut: false, stderr: `git ${args[0]} took longer than ${timeout / 1000} s` }
  return { ok: r.exitCode === 0, exitCode: r.exitCode ?? -1, stdout, cut: false, stderr: stderr || (r.exitCode === undefined ? String(r.shortMessage) : '') }
}

function text(out: GitOut): string {
  return out.stdout.toString('utf8')
}

/** git's last words of a failed call, one line. */
function why(out: GitOut, what: string): string {
  const lines = out.stderr.trim().split('\n').filter((l) => l.trim() !== '')
  return lines.slice(-2).join(' ').slice(0, 400) || `${what} exited ${out.exitCode}`
}

async function must(cwd: string, args: readonly string[], options: GitOptions = {}): Promise<string> {
  const out = await run(cwd, args, options)
  if (!out.ok) throw new Error(`git ${args[0]} failed in ${cwd}: ${why(out, `git ${args[0]}`)}`)
  return text(out)
}

/** The commits of local branches in the project, in one call; a missing branch is absent. */
export async function projectTips(repo: string, branches: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>()
  const r = await must(repo, ['for-each-ref', '--format=%(objectname) %(refname)', '--end-of-options', ...branches.map((b) => `refs/heads/${b}`)])
  for (const line of r.split('\n')) {
    const sp = line.indexOf(' ')
    // for-each-ref matches a prefix too (refs/heads/a matches refs/heads/a/b): exact names only
    const hit = branches.find((b) => line.slice(sp + 1) === `refs/heads/${b}`)
    if (sp > 0 && hit !== undefined && OID.test(line.slice(0, sp))) out.set(hit, line.slice(0, sp))
  }
  return out
}

/** The clone's object store when it is a plain directory of a kitchen clone (never a link), else undefined. */
function cloneObjects(clone: string): string | undefined {
  if (cloneKind(clone) !== 'clone') return undefined
  const objects = join(clone, '.git', 'objects')
  return lstatSync(objects, { throwIfNoEntry: false })?.isDirectory() ? objects : undefined
}

/** The tip of `branch` in a clone, through upload-pack; undefined when there is none. */
async function cloneTip(repo: string, clone: string, branch: string): Promise<string | undefined> {
  if (!cloneObjects(clone)) return undefined
  const ref = `refs/heads/${branch}`
  const r = await run(repo, ['ls-remote', '--end-of-options', clone, ref], { config: ['-c', 'protocol.file.allow=always'] })
  if (!r.ok) return undefined
  for (const line of text(r).split('\n')) {
    const [oid, name] = line.split('\t')
    if (name === ref && isOid(oid)) return oid
  }
  return undefined
}

function alternates(objects: string | undefined): Record<string, string> {
  return objects ? { GIT_ALTERNATE_OBJECT_DIRECTORIES: objects } : {}
}

/** A task branch as the readers see it: its tip, where it came from, and the base's tip. */
export interface BranchTips {
  tip?: string
  /** `project`: the project's branch; `clone`: only the cook's clone has it so far. */
  from?: 'project' | 'clone'
  baseTip?: string
  objects?: string
}

/** The project's branch when it has one, else the clone's; `preferClone` reads the clone first (its newest work). */
export async function branchTips(repo: string, clone: string, branch: string, base: string, preferClone = false): Promise<BranchTips> {
  const tips = await projectTips(repo, [branch, base])
  const objects = cloneObjects(clone)
  const inClone = preferClone || !tips.get(branch) ? await cloneTip(repo, clone, branch) : undefined
  const out: BranchTips = { ...(tips.get(base) ? { baseTip: tips.get(base)! } : {}), ...(objects ? { objects } : {}) }
  if (inClone) return { ...out, tip: inClone, from: 'clone' }
  if (tips.get(branch)) return { ...out, tip: tips.get(branch)!, from: 'project' }
  return out
}

export interface BranchDiff extends BranchTips {
  /** The diff as git wrote it (at most MAX_DIFF_BYTES), split into lines; empty when there is no change. */
  lines: string[]
  /** git had more to say than was read. */
  cut: boolean
  /** Why there is no diff (no such branch, git failed); undefined when there is one. */
  problem?: string
}

/**
 * `git diff base...tip` (what the branch changed since it forked), unified, renames found, without
 * external diff drivers or textconv: the bytes the repository holds, nothing its config would run.
 */
export async function branchDiff(repo: string, clone: string, branch: string, base: string, max = MAX_DIFF_BYTES): Promise<BranchDiff> {
  const tips = await branchTips(repo, clone, branch, base)
  if (!tips.baseTip) return { ...tips, lines: [], cut: false, problem: `the base branch ${base} is not in ${repo}` }
  if (!tips.tip) return { ...tips, lines: [], cut: false, problem: `${branch} is neither in ${repo} nor in the clone` }
  const r = await run(repo, [
    '-c', 'diff.noprefix=false', '-c', 'diff.mnemonicPrefix=false', '-c', 'diff.relative=false', '-c', 'core.quotePath=true',
    'diff', '--no-ext-diff', '--no-textconv', '--no-color', '--find-renames', '--end-of-options', `${tips.baseTip}...${tips.tip}`,
  ], { max, env: alternates(tips.objects) })
  if (!r.ok) return { ...tips, lines: [], cut: false, problem: `git diff failed: ${why(r, 'git diff')}` }
  const all = text(r)
  const lines = all === '' ? [] : all.replace(/\n$/, '').split('\n')
  // a cut diff ends inside a line: that part line is dropped
  if (r.cut) lines.pop()
  return { ...tips, lines, cut: r.cut }
}

/** The files a branch changed since it forked from its base (`git diff --name-only base...tip`); undefined when it can't be told. */
export async function changedFiles(
  repo: string, clone: string, branch: string, base: string, known?: BranchTips,
): Promise<{ files: string[]; tips: BranchTips } | undefined> {
  const tips = known ?? (await branchTips(repo, clone, branch, base, true))
  if (!tips.tip || !tips.baseTip) return undefined
  if (tips.tip === tips.baseTip) return { files: [], tips }
  const range = `${tips.baseTip}...${tips.tip}`
  const r = await run(repo, ['diff', '--no-ext-diff', '--no-textconv', '--name-only', '-z', '--end-of-options', range], { env: alternates(tips.objects) })
  if (!r.ok) return undefined
  return { files: text(r).split('\0').filter((f) => f.length > 0), tips }
}

// ---------------------------------------------------------------- landing

/** How the project prefers to bring a branch onto its base: its git config (`branch.<base>.rebase`, `pull.rebase`), else rebase. */
export async function mergePreference(repo: string, base: string): Promise<'rebase' | 'merge'> {
  for (const key of [`branch.${base}.rebase`, 'pull.rebase']) {
    const r = await run(repo, ['config', '--get', key])
    const value = text(r).trim().toLowerCase()
    if (!r.ok || value === '') continue
    return ['false', 'no', 'off', '0'].includes(value) ? 'merge' : 'rebase'
  }
  return 'rebase'
}

/** The project's shared object store, absolute. */
async function objectsOf(repo: string): Promise<string> {
  const out = (await must(repo, ['rev-parse', '--git-common-dir'])).trim()
  return join(isAbsolute(out) ? out : resolve(repo, out), 'objects')
}

/** Who commits in the work clone: the project's user (its config, with the person's global one), else the kitchen. */
async function identityOf(repo: string): Promise<{ name: string; email: string }> {
  const get = async (key: string) => text(await run(repo, ['config', '--get', key])).trim()
  const [name, email] = await Promise.all([get('user.name'), get('user.email')])
  return { name: name || FALLBACK_IDENTITY.name, email: email || FALLBACK_IDENTITY.email }
}

/**
 * A work clone of the kitchen's own at `dir` (which must not exist or be empty): the project's
 * objects borrowed through alternates, `land` checked out at `start`, committing as the project's
 * user. Git runs in it only until its test had it.
 */
export async function makeWorkClone(repo: string, dir: string, start: string): Promise<void> {
  if (!isOid(start)) throw new Error(`the work clone needs a commit id, not ${JSON.stringify(start)}`)
  const [objects, who] = await Promise.all([objectsOf(repo), identityOf(repo)])
  await must(dirname(dir), ['init', '-q', '-b', 'land', dir])
  writeFileSync(join(dir, '.git', 'objects', 'info', 'alternates'), `${objects}\n`)
  await must(dir, ['config', 'user.name', who.name])
  await must(dir, ['config', 'user.email', who.email])
  await must(dir, ['update-ref', WORK_REF, start])
  await must(dir, ['reset', '-q', '--hard', start], { timeoutMs: STEP_TIMEOUT_MS })
}

export type Brought =
  | { kind: 'done'; tip: string }
  | { kind: 'conflict'; files: string[] }
  | { kind: 'failed'; reason: string }

/** The files git left unmerged in the work clone. */
async function unmerged(dir: string): Promise<string[]> {
  const r = await run(dir, ['diff', '--name-only', '-z', '--diff-filter=U'])
  return text(r).split('\0').filter((f) => f.length > 0)
}

async function headOf(dir: string): Promise<string> {
  const tip = (await must(dir, ['rev-parse', '--verify', 'HEAD^{commit}'])).trim()
  if (!isOid(tip)) throw new Error(`the work clone's HEAD is ${tip}, not a commit`)
  return tip
}

/** Rebase the work clone's `land` (the task branch's tip) onto `onto`; a conflict is aborted and its files named. */
export async function rebaseOnto(dir: string, onto: string): Promise<Brought> {
  if (!isOid(onto)) return { kind: 'failed', reason: 'the base is not a commit id' }
  const r = await run(dir, ['rebase', '--no-autostash', '--no-autosquash', '--no-verify', '--end-of-options', onto], { timeoutMs: STEP_TIMEOUT_MS })
  if (r.ok) return { kind: 'done', tip: await headOf(dir) }
  const files = await unmerged(dir)
  await run(dir, ['rebase', '--abort'], { timeoutMs: STEP_TIMEOUT_MS })
  return files.length > 0 ? { kind: 'conflict', files } : { kind: 'failed', reason: why(r, 'git rebase') }
}

/** Merge `tip` into the work clone's `land` (the base's tip), always with a merge commit; a conflict is aborted and its files named. */
export async function mergeInto(dir: string, tip: string, message: string): Promise<Brought> {
  if (!isOid(tip)) return { kind: 'failed', reason: 'the branch is not a commit id' }
  const r = await run(dir, ['merge', '--no-ff', '--no-edit', '--no-verify', '-m', message, '--end-of-options', tip], { timeoutMs: STEP_TIMEOUT_MS })
  if (r.ok) return { kind: 'done', tip: await headOf(dir) }
  const files = await unmerged(dir)
  await run(dir, ['merge', '--abort'], { timeoutMs: STEP_TIMEOUT_MS })
  return files.length > 0 ? { kind: 'conflict', files } : { kind: 'failed', reason: why(r, 'git merge') }
}

/**
 * The work clone's `land` fetched into the project as objects only (no ref, no FETCH_HEAD, every
 * object checked): afterwards the project holds `tip` whatever happens to the work clone.
 */
export async function fetchLanded(repo: string, dir: string, tip: string): Promise<void> {
  const r = await run(repo, [
    '-c', 'fetch.fsckObjects=true', '-c', 'protocol.file.allow=always',
    'fetch', '--no-tags', '--no-write-fetch-head', '--no-recurse-submodules', '--end-of-options', dir, WORK_REF,
  ], { timeoutMs: STEP_TIMEOUT_MS })
  if (!r.ok) throw new Error(`the project could not fetch the result from the work clone: ${why(r, 'git fetch')}`)
  if (!(await hasCommit(repo, tip))) throw new Error(`the project does not hold ${tip.slice(0, 10)} after the fetch`)
}

/** Whether the project holds commit `oid` (its own objects: no clone's alternates). */
export async function hasCommit(repo: string, oid: string): Promise<boolean> {
  return isOid(oid) && (await run(repo, ['cat-file', '-e', `${oid}^{commit}`])).ok
}

/** Whether `a` is an ancestor of (or equal to) `b` in the project. */
export async function contains(repo: string, b: string, a: string): Promise<boolean> {
  return isOid(a) && isOid(b) && (await run(repo, ['merge-base', '--is-ancestor', '--end-of-options', a, b])).ok
}

/** Where the base branch is checked out, and what is changed there (tracked files only). */
export interface BaseCheckout {
  path: string
  /** Up to ten changed tracked paths, as `git status --porcelain` names them. */
  changes: string[]
}

/** The worktrees of the project that have `base` checked out, each with its local changes. */
export async function baseCheckouts(repo: string, base: string): Promise<BaseCheckout[]> {
  const listed = parseWorktreeList(await must(repo, ['worktree', 'list', '--porcelain', '-z']))
  const out: BaseCheckout[] = []
  for (const w of listed) {
    if (w.branch !== base || w.prunable) continue
    const st = await run(w.path, ['status', '--porcelain=v1', '-z', '--untracked-files=no', '--ignore-submodules=dirty'], { env: { GIT_OPTIONAL_LOCKS: '0' } })
    if (!st.ok) {
      out.push({ path: w.path, changes: [`(git status failed: ${why(st, 'git status')})`] })
      continue
    }
    const changes = text(st).split('\0').filter((f) => f.length > 0)
    out.push({ path: w.path, changes: changes.slice(0, 10) })
  }
  return out
}

export type Landed =
  | { kind: 'landed' | 'already' }
  /** The base is no longer the commit the branch was brought onto (someone landed meanwhile). */
  | { kind: 'moved'; now?: string }
  /** The base is checked out with local changes: nothing was moved. */
  | { kind: 'dirty'; path: string; changes: string[] }
  | { kind: 'failed'; reason: string }

/**
 * Fast-forward `base` from `from` to `to` (which contains it). Checked out and clean: `merge
 * --ff-only` in that checkout, so its files follow; checked out with local changes: refused;
 * elsewhere: `update-ref` with `from` as the expected old value, so a base that moved is never
 * overwritten.
 */
export async function landBase(repo: string, base: string, from: string, to: string): Promise<Landed> {
  if (!isOid(from) || !isOid(to)) return { kind: 'failed', reason: 'landing needs two commit ids' }
  const now = (await projectTips(repo, [base])).get(base)
  if (now === to) return { kind: 'already' }
  if (now !== from) return { kind: 'moved', ...(now ? { now } : {}) }
  if (!(await contains(repo, to, from))) return { kind: 'failed', reason: `${to.slice(0, 10)} does not contain ${from.slice(0, 10)}: not a fast-forward` }
  const checkouts = await baseCheckouts(repo, base)
  const dirty = checkouts.find((c) => c.changes.length > 0)
  if (dirty) return { kind: 'dirty', path: dirty.path, changes: dirty.changes }
  if (checkouts.length > 1) {
    return { kind: 'failed', reason: `${base} is checked out in ${checkouts.length} places (${checkouts.map((c) => c.path).join(', ')})` }
  }
  const at = checkouts[0]
  const r = at
    ? await run(at.path, ['merge', '--ff-only', '-q', '--no-verify', '--end-of-options', to], { timeoutMs: STEP_TIMEOUT_MS })
    : await run(repo, ['update-ref', '-m', 'command-scout kitchen: land', '--end-of-options', `refs/heads/${base}`, to, from])
  if (r.ok) return { kind: 'landed' }
  const after = (await projectTips(repo, [base])).get(base)
  if (after === to) return { kind: 'landed' }
  if (after !== from) return { kind: 'moved', ...(after ? { now: after } : {}) }
  return { kind: 'failed', reason: why(r, at ? 'git merge --ff-only' : 'git update-ref') }
}
