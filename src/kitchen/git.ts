/**
 * Git facts and changes for the kitchen: each cook's clone, bringing its branch back into the
 * project, what is on a branch, and removal. Every call is async (execa), every ref the kitchen
 * passes goes after `--end-of-options` or as a resolved object id, and nothing here runs on the
 * tick: only dispatch, launch, result and close ask git.
 *
 * A cook works in a clone of its own: a repository inside its writable root (`worktrees/<id>`),
 * with its own refs, index and object store, that borrows the project's objects read-only through
 * `objects/info/alternates` (git never writes to an alternate; new objects go to the clone's own
 * store). Nothing a cook writes reaches the project's refs, index or objects. What the cook wrote
 * comes back only through the kitchen: a fast-forward fetch from the clone into the project's
 * `refs/heads/<task branch>`.
 *
 * Git never runs *in* a clone once the cook has had it: its `.git/config` is the cook's, and keys
 * like `core.fsmonitor`, filter drivers or hooks would run the cook's commands outside its sandbox.
 * The kitchen reads a clone only through `git upload-pack` (which git keeps safe to run on an
 * untrusted repository: it ignores such configuration), plain files (`.git/HEAD`), and the
 * project's own git with a private index and the clone as its work tree.
 */
import { existsSync, lstatSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { basename, dirname, isAbsolute, join, resolve } from 'node:path'
import { realpath } from 'node:fs/promises'
import { randomBytes } from 'node:crypto'
import { loadExeca } from '../base/lazy.js'
import { readBounded } from './store/files.js'

export class GitError extends Error {
  readonly code = 'KITCHEN_GIT'
  constructor(
    message: string,
    readonly argv: readonly string[],
    options?: { cause?: unknown },
  ) {
    super(message, options)
    this.name = 'GitError'
  }
}

interface GitRun {
  ok: boolean
  exitCode: number
  stdout: string
  stderr: string
}

const GIT_ENV = { GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C', GIT_LFS_SKIP_SMUDGE: '1' }

async function git(cwd: string, args: readonly string[], env: Record<string, string> = {}, input?: string): Promise<GitRun> {
  const r = await (await loadExeca()).execa('git', args, {
    cwd,
    reject: false,
    env: { ...GIT_ENV, ...env },
    ...(input !== undefined ? { input } : { stdin: 'ignore' as const }),
    timeout: 60_000,
  })
  if (r.exitCode === undefined && r.failed) {
    throw new GitError(`git ${args.join(' ')} could not run in ${cwd}: ${r.shortMessage}`, args, { cause: r })
  }
  return { ok: r.exitCode === 0, exitCode: r.exitCode ?? -1, stdout: String(r.stdout), stderr: String(r.stderr) }
}

async function gitOk(cwd: string, args: readonly string[], env: Record<string, string> = {}, input?: string): Promise<string> {
  const r = await git(cwd, args, env, input)
  if (!r.ok) throw new GitError(`git ${args.join(' ')} failed in ${cwd}: ${r.stderr.trim() || `exit ${r.exitCode}`}`, args)
  return r.stdout
}

/** `git check-ref-format --branch`: the normalized name, or undefined when git refuses it. */
export async function checkBranchName(cwd: string, name: string): Promise<string | undefined> {
  if (name.length === 0 || name.startsWith('-')) return undefined
  const r = await git(cwd, ['check-ref-format', '--branch', name])
  return r.ok ? r.stdout.trim() : undefined
}

/** The branch checked out in `dir`, or undefined for a detached HEAD. */
export async function currentBranch(dir: string): Promise<string | undefined> {
  const r = await git(dir, ['symbolic-ref', '-q', '--short', 'HEAD'])
  return r.ok ? r.stdout.trim() : undefined
}

/** The commit of a local branch, or undefined when it does not exist. */
export async function branchCommit(repo: string, branch: string): Promise<string | undefined> {
  const r = await git(repo, ['rev-parse', '--verify', '--quiet', '--end-of-options', `refs/heads/${branch}^{commit}`])
  return r.ok ? r.stdout.trim() : undefined
}

export async function isRepo(dir: string): Promise<boolean> {
  if (!existsSync(dir)) return false
  const r = await git(dir, ['rev-parse', '--is-inside-work-tree'])
  return r.ok && r.stdout.trim() === 'true'
}

interface WorktreeEntry {
  path: string
  branch?: string
  detached: boolean
  prunable: boolean
}

/** `git worktree list --porcelain -z`: one attribute per NUL-ended field, records end with an empty field. */
export function parseWorktreeList(text: string): WorktreeEntry[] {
  const out: WorktreeEntry[] = []
  let cur: WorktreeEntry | undefined
  for (const field of text.split('\0')) {
    if (field === '') {
      if (cur) out.push(cur)
      cur = undefined
      continue
    }
    const sp = field.indexOf(' ')
    const key = sp < 0 ? field : field.slice(0, sp)
    const value = sp < 0 ? '' : field.slice(sp + 1)
    if (key === 'worktree') cur = { path: value, detached: false, prunable: false }
    else if (!cur) continue
    else if (key === 'branch') cur.branch = value.replace(/^refs\/heads\//, '')
    else if (key === 'detached') cur.detached = true
    else if (key === 'prunable') cur.prunable = true
  }
  if (cur) out.push(cur)
  return out
}

async function real(path: string): Promise<string> {
  try {
    return await realpath(path)
  } catch {
    return path
  }
}

function isDir(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false
}

/** The commits of local branches, in one call; a missing branch is absent from the map. */
async function branchTips(repo: string, branches: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>()
  const refs = branches.map((b) => `refs/heads/${b}`)
  const r = await gitOk(repo, ['for-each-ref', '--format=%(objectname) %(refname)', '--end-of-options', ...refs])
  for (const line of r.split('\n')) {
    const sp = line.indexOf(' ')
    if (sp < 0) continue
    const ref = line.slice(sp + 1)
    // for-each-ref matches a pattern as a prefix too (refs/heads/a matches refs/heads/a/b): exact only
    const hit = branches.find((b) => ref === `refs/heads/${b}`)
    if (hit !== undefined) out.set(hit, line.slice(0, sp))
  }
  return out
}

// ---------------------------------------------------------------- the cook's clone

/** What a task's directory under worktrees/ is: the kitchen's clone, an older kitchen's linked worktree, or something else. */
export type CloneKind = 'clone' | 'worktree' | 'other' | 'none'

export function cloneKind(dir: string): CloneKind {
  const top = lstatSync(dir, { throwIfNoEntry: false })
  if (!top) return 'none'
  if (!top.isDirectory()) return 'other'
  const dotGit = lstatSync(join(dir, '.git'), { throwIfNoEntry: false })
  if (dotGit?.isDirectory()) return 'clone'
  if (dotGit?.isFile()) return 'worktree'
  return 'other'
}

/** The project's shared git directory (objects, refs), absolute. */
async function commonDir(repo: string): Promise<string> {
  const out = (await gitOk(repo, ['rev-parse', '--git-common-dir'])).trim()
  return isAbsolute(out) ? out : resolve(repo, out)
}

/** The project's own git directory (for a linked worktree of it, that worktree's), absolute. */
async function gitDir(repo: string): Promise<string> {
  return (await gitOk(repo, ['rev-parse', '--absolute-git-dir'])).trim()
}

export type EnsureCloneResult = 'created' | 'present'

/**
 * Ensure `dir` is the task's clone on `branch`: made from the project's `branch` when the project
 * has it (a task whose clone went away, after its branch was brought back), else from `base`. A
 * clone that is there is the cook's and is left as it is (`present`): git does not run in it. The
 * clone is built beside its place and renamed into it, so a crash never leaves half a clone.
 */
export async function ensureClone(repo: string, dir: string, branch: string, base: string): Promise<EnsureCloneResult> {
  const kind = cloneKind(dir)
  if (kind === 'clone') return 'present'
  if (kind === 'worktree') throw new GitError(`${dir} is a linked worktree of an older kitchen, not a clone of its own; close the task (its commits are on ${branch} in ${repo}) and dispatch it again`, [])
  if (kind === 'other') throw new GitError(`cannot make the clone: ${dir} exists and is not a clone of ${repo}; move it away`, [])
  const tips = await branchTips(repo, [branch, base])
  const start = tips.get(branch) ?? tips.get(base)
  if (!start) throw new GitError(`base branch ${base} does not exist in ${repo}; create it or register the project with another base`, [])
  const [common, identity] = await Promise.all([commonDir(repo), git(repo, ['config', '-z', '--get-regexp', '^user\\.(name|email)$'])])
  const objects = join(common, 'objects')
  const building = join(dirname(dir), `.new-${basename(dir)}-${randomBytes(4).toString('hex')}`)
  try {
    await gitOk(dirname(dir), ['init', '-q', '-b', branch, building])
    // Borrowed read-only: the cook's git reads the project's objects and writes its own.
    writeFileSync(join(building, '.git', 'objects', 'info', 'alternates'), `${objects}\n`)
    const baseTip = tips.get(base)
    const refs = [`update refs/heads/${branch} ${start}`, ...(base !== branch && baseTip ? [`update refs/heads/${base} ${baseTip}`] : [])]
    await gitOk(building, ['update-ref', '--stdin'], {}, refs.join('\n') + '\n')
    // The cook commits as the project would: its name and email, from the person's config.
    if (identity.ok) {
      for (const entry of identity.stdout.split('\0')) {
        const nl = entry.indexOf('\n')
        if (nl > 0 && entry.slice(nl + 1).trim() !== '') await gitOk(building, ['config', entry.slice(0, nl), entry.slice(nl + 1)])
      }
    }
    await gitOk(building, ['reset', '-q', '--hard', start])
    mkdirSync(dirname(dir), { recursive: true })
    renameSync(building, dir)
  } catch (error) {
    rmSync(building, { recursive: true, force: true })
    throw error
  }
  return 'created'
}

/** How bringing a clone's branch back into the project went. `tip` is the project's branch after it. */
export type BringBack =
  | { kind: 'updated' | 'same'; tip: string }
  /** The project's branch already has everything of the clone's (the person added commits there). */
  | { kind: 'behind'; tip: string; cloneTip: string }
  /** The clone's branch no longer contains the project's: its history was rewritten. Nothing was changed. */
  | { kind: 'rewritten'; tip: string; cloneTip: string }
  /** There is no clone, or no such branch in it: the project's branch stays as it is. */
  | { kind: 'no-clone' | 'no-branch'; tip?: string }
  | { kind: 'failed'; tip?: string; reason: string }

/**
 * Fetches the clone's `refs/heads/<branch>` into the project's `refs/heads/<branch>`, fast-forward
 * only, with every object checked (`fetch.fsckObjects`) and nothing else of the project touched: no
 * FETCH_HEAD, no tags, no gc, no submodules. git refuses to fetch into a branch checked out in the
 * project, so a person's checkout and index are never moved under them.
 */
export async function bringBack(repo: string, dir: string, branch: string): Promise<BringBack> {
  const before = (await branchTips(repo, [branch])).get(branch)
  const held = (extra: object) => (before ? { ...extra, tip: before } : extra)
  if (cloneKind(dir) !== 'clone') return held({ kind: 'no-clone' }) as BringBack
  const ref = `refs/heads/${branch}`
  const r = await git(repo, [
    '-c', 'fetch.fsckObjects=true', '-c', 'gc.auto=0', '-c', 'maintenance.auto=false', '-c', 'protocol.file.allow=always',
    // not --quiet: it silences the rejection this reads
    'fetch', '--no-tags', '--no-write-fetch-head', '--no-recurse-submodules', '--end-of-options', dir, `${ref}:${ref}`,
  ])
  const after = (await branchTips(repo, [branch])).get(branch)
  if (r.ok) return { kind: after === before ? 'same' : 'updated', tip: after! }
  const err = r.stderr.trim()
  if (/couldn't find remote ref|no such ref|not our ref/i.test(err)) return held({ kind: 'no-branch' }) as BringBack
  if (/non-fast-forward|rejected/i.test(err) && before) {
    const remote = await git(repo, ['ls-remote', '--end-of-options', dir, ref])
    const cloneTip = remote.ok ? remote.stdout.split(/\s/)[0] ?? '' : ''
    if (/^[0-9a-f]{40,64}$/.test(cloneTip) && (await isAncestor(repo, cloneTip, before))) return { kind: 'behind', tip: before, cloneTip }
    return { kind: 'rewritten', tip: before, cloneTip: /^[0-9a-f]{40,64}$/.test(cloneTip) ? cloneTip : 'unknown' }
  }
  return held({ kind: 'failed', reason: err.split('\n').at(-1) || `git fetch exited ${r.exitCode}` }) as BringBack
}

/**
 * Whether the clone's task branch has commits of its own, read the safe way (`git ls-remote` of the
 * clone, which runs upload-pack there, and the project's own git): `none` when its tip is the base
 * branch's or one of its ancestors, `some` when it is not, undefined when there is no such clone or
 * branch to read. For the facts beside a cook's claim; result and close bring the branch back.
 */
export async function cloneCommits(repo: string, dir: string, branch: string, base: string): Promise<'none' | 'some' | undefined> {
  if (cloneKind(dir) !== 'clone') return undefined
  const r = await git(repo, ['ls-remote', '--end-of-options', dir, `refs/heads/${branch}`])
  const tip = r.ok ? r.stdout.split(/\s/)[0] ?? '' : ''
  if (!/^[0-9a-f]{40,64}$/.test(tip)) return undefined
  const baseTip = (await branchTips(repo, [base])).get(base)
  if (!baseTip) return undefined
  return tip === baseTip || (await isAncestor(repo, tip, baseTip)) ? 'none' : 'some'
}

/** Whether commit `a` is an ancestor of (or equal to) `b` in `repo`; false when either is unknown there. */
export async function isAncestor(repo: string, a: string, b: string): Promise<boolean> {
  return (await git(repo, ['merge-base', '--is-ancestor', '--end-of-options', a, b])).ok
}

export interface CloneState {
  /** `dir` is a clone of the kitchen's (or an older kitchen's linked worktree). */
  exists: boolean
  kind: CloneKind
  /** Uncommitted or untracked changes against the branch tip. */
  dirty: boolean
  /** Up to ten changed paths, as `git status --porcelain` names them. */
  changes: string[]
  /** The branch HEAD is on; undefined when detached. */
  head?: string
  rebasing: boolean
}

/**
 * What a clone holds compared with `tip` (the branch brought back): read with the project's git, a
 * private index (`index`) and the clone as its work tree, so the clone's own configuration is never
 * read. HEAD and a rebase in progress come from plain files of the clone's .git.
 */
export async function cloneState(repo: string, dir: string, tip: string | undefined, index: string): Promise<CloneState> {
  const kind = cloneKind(dir)
  if (kind === 'worktree') {
    const w = await worktreeState(dir)
    return { ...w, kind, changes: [] }
  }
  if (kind !== 'clone') return { exists: false, kind, dirty: false, changes: [], rebasing: false }
  const head = headBranch(dir)
  const rebasing = ['rebase-merge', 'rebase-apply'].some((d) => lstatSync(join(dir, '.git', d), { throwIfNoEntry: false }) !== undefined)
  const out: CloneState = { exists: true, kind, dirty: false, changes: [], rebasing, ...(head ? { head } : {}) }
  if (!tip) return out
  const env = { GIT_INDEX_FILE: index }
  const base = ['--git-dir', await gitDir(repo), '--work-tree', dir, '-c', 'core.fsmonitor=false', '-c', 'core.sparseCheckout=false', '-c', 'submodule.recurse=false']
  // -m keeps the stat data of entries that did not change, so a second look does not hash everything again.
  // The private index then stands for the branch tip; the work tree is compared with it alone (never
  // with the project's HEAD, which is another branch).
  await gitOk(repo, [...base, 'read-tree', '-m', '--end-of-options', tip], env)
  await git(repo, [...base, 'update-index', '-q', '--refresh', '--ignore-submodules'], env)
  const modified = (await gitOk(repo, [...base, 'diff-files', '--name-status', '-z', '--ignore-submodules=all'], env)).split('\0').filter(Boolean)
  const changes: string[] = []
  for (let i = 0; i + 1 < modified.length; i += 2) changes.push(`${modified[i]} ${modified[i + 1]}`)
  const untracked = (await gitOk(repo, [...base, 'ls-files', '-z', '--others', '--exclude-standard', '--directory', '--no-empty-directory'], env)).split('\0').filter(Boolean)
  for (const f of untracked) changes.push(`?? ${f}`)
  out.dirty = changes.length > 0
  out.changes = changes.slice(0, 10)
  return out
}

/** The branch a clone's HEAD names, from `.git/HEAD` itself (a small regular file, never followed). */
function headBranch(dir: string): string | undefined {
  try {
    const text = readBounded(join(dir, '.git', 'HEAD'), 4096).trim()
    const m = /^ref: refs\/heads\/(.+)$/.exec(text)
    return m ? m[1] : undefined
  } catch {
    return undefined
  }
}

/**
 * A branch's tree checked out into `dir` (which must exist and be empty) with the project's git and
 * a temp index beside it: the base branch's own files, to find its commands in.
 */
export async function checkoutTree(repo: string, commit: string, dir: string): Promise<void> {
  const env = { GIT_INDEX_FILE: `${dir}.index` }
  try {
    await gitOk(repo, ['-c', 'core.fsmonitor=false', 'read-tree', '--end-of-options', commit], env)
    await gitOk(repo, ['-c', 'core.fsmonitor=false', 'checkout-index', '-a', '-f', `--prefix=${dir}/`], env)
  } finally {
    rmSync(`${dir}.index`, { force: true })
  }
}

/** The commit of `ref` (a branch name) in `repo`, or undefined. */
export async function tipOf(repo: string, branch: string): Promise<string | undefined> {
  return (await branchTips(repo, [branch])).get(branch)
}

/**
 * Remove the clone at `dir` (the caller checked it is the task's own `worktrees/<id>`, no symlink).
 * A linked worktree of an older kitchen is removed through git, as before.
 */
export async function removeClone(repo: string | undefined, dir: string): Promise<RemoveResult> {
  const kind = cloneKind(dir)
  if (kind === 'none') {
    if (repo) await git(repo, ['worktree', 'prune'])
    return 'already-gone'
  }
  if (kind === 'worktree') {
    if (!repo) throw new GitError(`${dir} is a linked worktree and its project is not registered, so git was not asked`, [])
    return removeWorktree(repo, dir)
  }
  rmSync(dir, { recursive: true, force: true })
  return 'removed'
}

export type RemoveResult = 'removed' | 'already-gone'

/** The parent's realpath plus the last name: a path compared without following its last component. */
async function placeOf(path: string): Promise<string> {
  return join(await real(dirname(path)), basename(path))
}

/**
 * Remove the worktree at `path`; a missing path is fine (the registration is pruned). Only a linked
 * worktree that git itself lists at exactly this place is force-removed: never the repository's main
 * worktree, never a directory git does not know, and never, through a symlink, some other worktree.
 */
export async function removeWorktree(repo: string, path: string): Promise<RemoveResult> {
  if (!existsSync(path) && !lstatSync(path, { throwIfNoEntry: false })) {
    await git(repo, ['worktree', 'prune'])
    return 'already-gone'
  }
  const listed = parseWorktreeList(await gitOk(repo, ['worktree', 'list', '--porcelain', '-z']))
  const place = await placeOf(path)
  const at = []
  for (const [i, w] of listed.entries()) if ((await placeOf(w.path)) === place) at.push(i)
  if (at.length === 0) throw new GitError(`${path} is not a worktree that git lists for ${repo}, so it is not removed; look at it and remove it by hand if it is the task's`, [])
  if (at.includes(0)) throw new GitError(`${path} is the main worktree of ${repo}; it is never removed`, [])
  await gitOk(repo, ['worktree', 'remove', '--force', '--force', '--end-of-options', path])
  return 'removed'
}

export interface WorktreeState {
  /** `path` is the top of a git worktree (not a plain directory, nor one inside another repository). */
  exists: boolean
  dirty: boolean
  /** The branch of HEAD; undefined when detached. */
  head?: string
  rebasing: boolean
}

export async function worktreeState(path: string): Promise<WorktreeState> {
  const none: WorktreeState = { exists: false, dirty: false, rebasing: false }
  if (!isDir(path)) return none
  const top = await git(path, ['rev-parse', '--show-toplevel', '--git-path', 'rebase-merge', '--git-path', 'rebase-apply'])
  if (!top.ok) return none
  const [toplevel, ...rebase] = top.stdout.split('\n').filter((l) => l.length > 0)
  if (toplevel === undefined || (await real(toplevel)) !== (await real(path))) return none
  const rebasing = rebase.some((p) => existsSync(p.startsWith('/') ? p : `${path}/${p}`))
  // porcelain v2 with --branch: "# branch.head <name>|(detached)" headers, then one entry per change
  const status = await gitOk(path, ['status', '--porcelain=v2', '--branch', '-z', '--untracked-files=normal'])
  let head: string | undefined
  let dirty = false
  for (const field of status.split('\0')) {
    if (field.startsWith('# branch.head ')) {
      const name = field.slice('# branch.head '.length)
      head = name === '(detached)' ? undefined : name
    } else if (field.length > 0 && !field.startsWith('# ')) dirty = true
  }
  return head === undefined ? { exists: true, dirty, rebasing } : { exists: true, dirty, head, rebasing }
}

export interface Landing {
  /** The branch exists locally. */
  exists: boolean
  /** Commits on the branch that the base does not have. */
  ahead: number
  /** The branch is an ancestor of the base branch. */
  byBase: boolean
  /** A remote-tracking ref (as of the last fetch) that contains the branch. */
  byRemote?: string
}

export async function landing(repo: string, branch: string, base: string): Promise<Landing> {
  const tips = await branchTips(repo, [branch, base])
  const tip = tips.get(branch)
  if (!tip) return { exists: false, ahead: 0, byBase: false }
  const baseTip = tips.get(base)
  let ahead = 0
  let byBase = false
  if (baseTip) {
    ahead = Number((await gitOk(repo, ['rev-list', '--count', '--end-of-options', `${baseTip}..${tip}`])).trim())
    // no commit of the branch is missing from the base: the branch is an ancestor of the base
    byBase = ahead === 0
  }
  if (byBase) return { exists: true, ahead, byBase }
  const remotes = await gitOk(repo, ['for-each-ref', `--contains=${tip}`, '--format=%(refname:short)', 'refs/remotes'])
  const byRemote = remotes.split('\n').find((l) => l.length > 0 && !l.endsWith('/HEAD'))
  return byRemote ? { exists: true, ahead, byBase, byRemote } : { exists: true, ahead, byBase }
}

/** `git diff --stat base...branch`, trimmed; empty when either is missing. */
export async function diffstat(repo: string, branch: string, base: string): Promise<string> {
  const tips = await branchTips(repo, [branch, base])
  const tip = tips.get(branch)
  const baseTip = tips.get(base)
  if (!tip || !baseTip) return ''
  return (await gitOk(repo, ['diff', '--stat', '--end-of-options', `${baseTip}...${tip}`])).trimEnd()
}

/** `<short hash> <subject>` of each commit on `branch` and not on `base`, oldest first (at most `max`). */
export async function commitsAhead(repo: string, branch: string, base: string, max = 50): Promise<string[]> {
  const tips = await branchTips(repo, [branch, base])
  const tip = tips.get(branch)
  const baseTip = tips.get(base)
  if (!tip || !baseTip) return []
  const out = await gitOk(repo, ['log', '--reverse', '--format=%h %s', `--max-count=${max}`, '--end-of-options', `${baseTip}..${tip}`])
  return out.split('\n').filter((l) => l.length > 0)
}

export type BranchDeletion = 'deleted' | 'kept' | 'already-gone'

/**
 * Delete `branch` only when it is an ancestor of `base`, or when discarding; never the base branch nor
 * the branch checked out in the repository. Never `git branch -d`: it also deletes a branch that a
 * possibly stale upstream contains.
 */
export async function deleteBranch(repo: string, branch: string, base: string, discard: boolean): Promise<BranchDeletion> {
  if (branch === base) throw new GitError(`branch ${branch} is the base branch; it is never deleted`, [])
  if ((await currentBranch(repo)) === branch) throw new GitError(`branch ${branch} is checked out in ${repo}; it is not deleted`, [])
  const tips = await branchTips(repo, [branch, base])
  const tip = tips.get(branch)
  if (!tip) return 'already-gone'
  if (!discard) {
    const baseTip = tips.get(base)
    if (!baseTip) return 'kept'
    if (!(await git(repo, ['merge-base', '--is-ancestor', '--end-of-options', tip, baseTip])).ok) return 'kept'
  }
  // update-ref with the expected old value: a branch moved since the check is not deleted.
  await gitOk(repo, ['update-ref', '-d', '--end-of-options', `refs/heads/${branch}`, tip])
  return 'deleted'
}
