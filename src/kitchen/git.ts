/**
 * Git facts and worktree changes for the kitchen. Every call is async (execa), every ref the
 * kitchen passes goes after `--end-of-options` or as a resolved object id, and nothing here runs
 * on the tick: only dispatch, launch, result and close ask git.
 */
import { existsSync } from 'node:fs'
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

async function worktrees(repo: string): Promise<WorktreeEntry[]> {
  return parseWorktreeList(await gitOk(repo, ['worktree', 'list', '--porcelain', '-z']))
}

async function real(path: string): Promise<string> {
  try {
    return await realpath(path)
  } catch {
    return path
  }
}

export type EnsureResult = 'created' | 'attached' | 'present'

/**
 * Ensure `path` is a worktree of `repo` on `branch`: create the branch from `base` when it does not
 * exist, re-attach it when the directory went away. A second call is a no-op (`present`).
 */
export async function ensureWorktree(repo: string, path: string, branch: string, base: string): Promise<EnsureResult> {
  const want = await real(path)
  const list = await worktrees(repo)
  for (const w of list) {
    if ((await real(w.path)) !== want) continue
    if (!w.prunable && existsSync(path)) {
      if (w.branch === branch) return 'present'
      throw new GitError(`worktree ${path} is on ${w.branch ?? 'a detached HEAD'}, not on ${branch}; remove it or close the task with discard`, [])
    }
  }
  await git(repo, ['worktree', 'prune'])
  if (existsSync(path)) {
    throw new GitError(`cannot create the worktree: ${path} exists and is not a worktree of ${repo}; move it away`, [])
  }
  if (await branchCommit(repo, branch)) {
    await gitOk(repo, ['worktree', 'add', '--end-of-options', path, branch])
    return 'attached'
  }
  const baseCommit = await branchCommit(repo, base)
  if (!baseCommit) throw new GitError(`base branch ${base} does not exist in ${repo}; create it or register the project with another base`, [])
  await gitOk(repo, ['worktree', 'add', '-b', branch, '--end-of-options', path, baseCommit])
  return 'created'
}

export type RemoveResult = 'removed' | 'already-gone'

/** Remove the worktree at `path`; a missing path is fine (the registration is pruned). */
export async function removeWorktree(repo: string, path: string): Promise<RemoveResult> {
  if (!existsSync(path)) {
    await git(repo, ['worktree', 'prune'])
    return 'already-gone'
  }
  await gitOk(repo, ['worktree', 'remove', '--force', '--force', '--end-of-options', path])
  return 'removed'
}

export interface WorktreeState {
  exists: boolean
  dirty: boolean
  /** The branch of HEAD; undefined when detached. */
  head?: string
  rebasing: boolean
}

export async function worktreeState(path: string): Promise<WorktreeState> {
  if (!(await isRepo(path))) return { exists: false, dirty: false, rebasing: false }
  const status = await gitOk(path, ['status', '--porcelain', '-z', '--untracked-files=normal'])
  const head = await currentBranch(path)
  let rebasing = false
  for (const p of ['rebase-merge', 'rebase-apply']) {
    const r = await git(path, ['rev-parse', '--git-path', p])
    if (r.ok) {
      const rel = r.stdout.trim()
      const abs = rel.startsWith('/') ? rel : `${path}/${rel}`
      if (existsSync(abs)) rebasing = true
    }
  }
  return { exists: true, dirty: status.length > 0, head, rebasing }
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
  const tip = await branchCommit(repo, branch)
  if (!tip) return { exists: false, ahead: 0, byBase: false }
  const baseTip = await branchCommit(repo, base)
  let byBase = false
  let ahead = 0
  if (baseTip) {
    byBase = (await git(repo, ['merge-base', '--is-ancestor', '--end-of-options', tip, baseTip])).ok
    ahead = Number((await gitOk(repo, ['rev-list', '--count', '--end-of-options', `${baseTip}..${tip}`])).trim())
  }
  const remotes = await gitOk(repo, ['for-each-ref', `--contains=${tip}`, '--format=%(refname:short)', 'refs/remotes'])
  const byRemote = remotes.split('\n').find((l) => l.length > 0 && !l.endsWith('/HEAD'))
  return { exists: true, ahead, byBase, byRemote }
}

/** `git diff --stat base...branch`, trimmed; empty when either is missing. */
export async function diffstat(repo: string, branch: string, base: string): Promise<string> {
  const tip = await branchCommit(repo, branch)
  const baseTip = await branchCommit(repo, base)
  if (!tip || !baseTip) return ''
  return (await gitOk(repo, ['diff', '--stat', '--end-of-options', `${baseTip}...${tip}`])).trimEnd()
}

export type BranchDeletion = 'deleted' | 'kept' | 'already-gone'

/**
 * Delete `branch` only when it is an ancestor of `base`, or when discarding. Never `git branch -d`:
 * it also deletes a branch that a possibly stale upstream contains.
 */
export async function deleteBranch(repo: string, branch: string, base: string, discard: boolean): Promise<BranchDeletion> {
  const tip = await branchCommit(repo, branch)
  if (!tip) return 'already-gone'
  if (!discard) {
    const baseTip = await branchCommit(repo, base)
    if (!baseTip) return 'kept'
    if (!(await git(repo, ['merge-base', '--is-ancestor', '--end-of-options', tip, baseTip])).ok) return 'kept'
  }
  // update-ref with the expected old value: a branch moved since the check is not deleted.
  await gitOk(repo, ['update-ref', '-d', '--end-of-options', `refs/heads/${branch}`, tip])
  return 'deleted'
}
