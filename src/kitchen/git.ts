/**
 * Git facts and worktree changes for the kitchen. Every call is async (execa), every ref the
 * kitchen passes goes after `--end-of-options` or as a resolved object id, and nothing here runs
 * on the tick: only dispatch, launch, result and close ask git.
 */
import { existsSync, lstatSync, statSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { realpath } from 'node:fs/promises'
import { execa } from 'execa'

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

const GIT_ENV = { GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' }

async function git(cwd: string, args: readonly string[]): Promise<GitRun> {
  const r = await execa('git', args, { cwd, reject: false, env: GIT_ENV, stdin: 'ignore', timeout: 60_000 })
  if (r.exitCode === undefined && r.failed) {
    throw new GitError(`git ${args.join(' ')} could not run in ${cwd}: ${r.shortMessage}`, args, { cause: r })
  }
  return { ok: r.exitCode === 0, exitCode: r.exitCode ?? -1, stdout: String(r.stdout), stderr: String(r.stderr) }
}

async function gitOk(cwd: string, args: readonly string[]): Promise<string> {
  const r = await git(cwd, args)
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

export type EnsureResult = 'created' | 'attached' | 'present'

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

/**
 * Ensure `path` is a worktree of `repo` on `branch`: create the branch from `base` when it does not
 * exist, re-attach it when the directory went away. A second call is a no-op (`present`).
 */
export async function ensureWorktree(repo: string, path: string, branch: string, base: string): Promise<EnsureResult> {
  if (existsSync(path)) {
    if (!isDir(path)) throw new GitError(`cannot create the worktree: ${path} exists and is not a worktree of ${repo}; move it away`, [])
    // one call: the top of the worktree and the full name of HEAD (`HEAD` itself when detached)
    const r = await git(path, ['rev-parse', '--show-toplevel', '--symbolic-full-name', 'HEAD'])
    const [top, head] = r.stdout.split('\n')
    if (r.ok && top !== undefined && (await real(top)) === (await real(path))) {
      if (head === `refs/heads/${branch}`) return 'present'
      const what = head?.startsWith('refs/heads/') ? `branch ${head.slice('refs/heads/'.length)}` : 'a detached HEAD'
      throw new GitError(`worktree ${path} is on ${what}, not on ${branch}; check out ${branch} there, or close the task with discard`, [])
    }
    throw new GitError(`cannot create the worktree: ${path} exists and is not a worktree of ${repo}; move it away`, [])
  }
  const tips = await branchTips(repo, [branch, base])
  const add = async (args: string[]) => {
    const r = await git(repo, args)
    if (r.ok) return
    // a worktree directory deleted by hand stays registered until pruned
    if (/already registered|already checked out|is a missing but/.test(r.stderr)) {
      await git(repo, ['worktree', 'prune'])
      await gitOk(repo, args)
      return
    }
    throw new GitError(`git ${args.join(' ')} failed in ${repo}: ${r.stderr.trim() || `exit ${r.exitCode}`}`, args)
  }
  if (tips.has(branch)) {
    await add(['worktree', 'add', '--end-of-options', path, branch])
    return 'attached'
  }
  const baseCommit = tips.get(base)
  if (!baseCommit) throw new GitError(`base branch ${base} does not exist in ${repo}; create it or register the project with another base`, [])
  await add(['worktree', 'add', '-b', branch, '--end-of-options', path, baseCommit])
  return 'created'
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
