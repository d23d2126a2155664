/**
 * What the board asks git, reading only: a task branch's tip (in the cook's clone, else in the
 * project), the base branch's tip, the commits ahead, and the diff of the branch against its base.
 *
 * As the kitchen's own git.ts does, git never runs *in* a cook's clone: its `.git/config` is the
 * cook's. The clone's tip comes from `git ls-remote <clone>` (upload-pack, which git keeps safe on
 * an untrusted repository), and the commits only the clone has are read by the project's own git
 * with the clone's object store as an extra alternate (GIT_ALTERNATE_OBJECT_DIRECTORIES): plain
 * data, no configuration of the clone's. Every call runs without the system config, with
 * fsmonitor, hooks, external diff drivers, textconv and every transport off (so a partial clone
 * can't fetch), without optional locks (nothing is written, not even the index's stat cache), with
 * a timeout and a cap on its output. Refs go after `--end-of-options`, or as checked object ids.
 */
import { lstatSync } from 'node:fs'
import { join } from 'node:path'
import { execa } from 'execa'
import { cloneKind } from '../../kitchen/git.js'

/** The largest diff read from git; the rest is left unread and the answer says it was cut. */
export const MAX_DIFF_BYTES = 4 * 1024 * 1024
const SMALL_OUTPUT = 1024 * 1024
const TIMEOUT_MS = 20_000
const OID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/

/** The environment of every call: the person's global config stays (their name, their aliases don't matter here), nothing else. */
function gitEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [k, v] of Object.entries(process.env)) {
    // GIT_DIR, GIT_INDEX_FILE, GIT_CONFIG_* and the rest of git's own variables would redirect the call.
    if (v !== undefined && !k.startsWith('GIT_')) env[k] = v
  }
  return {
    ...env, GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', GIT_NO_LAZY_FETCH: '1',
    GIT_PAGER: 'cat', GIT_LFS_SKIP_SMUDGE: '1', LC_ALL: 'C', ...extra,
  }
}

const SAFE_CONFIG = ['-c', 'core.fsmonitor=false', '-c', 'core.hooksPath=/dev/null', '-c', 'protocol.allow=never', '-c', 'color.ui=false']

interface GitOut { ok: boolean; stdout: Buffer; cut: boolean; stderr: string }

interface GitOptions {
  /** The most of stdout kept; the call is ended there and the output marked cut. */
  max?: number
  env?: Record<string, string>
  /** More `-c` settings, before the command. */
  config?: readonly string[]
}

async function git(cwd: string, args: readonly string[], options: GitOptions = {}): Promise<GitOut> {
  const r = await execa('git', [...SAFE_CONFIG, ...(options.config ?? []), '--no-pager', ...args], {
    cwd, reject: false, stdin: 'ignore', encoding: 'buffer', stripFinalNewline: false, maxBuffer: options.max ?? SMALL_OUTPUT, timeout: TIMEOUT_MS,
    extendEnv: false, env: gitEnv(options.env ?? {}),
  })
  const stdout = Buffer.from(r.stdout as Uint8Array)
  const stderr = Buffer.from((r.stderr ?? new Uint8Array()) as Uint8Array).toString('utf8').slice(0, 2000)
  if (r.isMaxBuffer) return { ok: true, stdout, cut: true, stderr }
  if (r.timedOut) return { ok: false, stdout, cut: false, stderr: `git ${args[0]} took longer than ${TIMEOUT_MS / 1000} s` }
  return { ok: r.exitCode === 0, stdout, cut: false, stderr: stderr || (r.exitCode === undefined ? String(r.shortMessage) : '') }
}

/** The commits of local branches in the project, in one call; a missing branch is absent from the map. */
export async function projectTips(repo: string, branches: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>()
  const r = await git(repo, ['for-each-ref', '--format=%(objectname) %(refname)', '--end-of-options', ...branches.map((b) => `refs/heads/${b}`)])
  if (!r.ok) throw new Error(`git for-each-ref failed in ${repo}: ${r.stderr.trim()}`)
  for (const line of r.stdout.toString('utf8').split('\n')) {
    const sp = line.indexOf(' ')
    // for-each-ref matches a prefix too (refs/heads/a matches refs/heads/a/b): exact names only
    const hit = branches.find((b) => line.slice(sp + 1) === `refs/heads/${b}`)
    if (sp > 0 && hit !== undefined && OID.test(line.slice(0, sp))) out.set(hit, line.slice(0, sp))
  }
  return out
}

/** The clone's object store when it is a plain directory of a clone (never a link to elsewhere), else undefined. */
export function cloneObjects(worktree: string): string | undefined {
  if (cloneKind(worktree) !== 'clone') return undefined
  const objects = join(worktree, '.git', 'objects')
  return lstatSync(objects, { throwIfNoEntry: false })?.isDirectory() ? objects : undefined
}

/** The tip of `branch` in the cook's clone, through upload-pack; undefined when the clone or the branch is not there. */
export async function cloneTip(repo: string, worktree: string, branch: string): Promise<string | undefined> {
  if (!cloneObjects(worktree)) return undefined
  const ref = `refs/heads/${branch}`
  const r = await git(repo, ['ls-remote', '--end-of-options', worktree, ref], { config: ['-c', 'protocol.file.allow=always'] })
  if (!r.ok) return undefined
  for (const line of r.stdout.toString('utf8').split('\n')) {
    const [oid, name] = line.split('\t')
    if (name === ref && oid && OID.test(oid)) return oid
  }
  return undefined
}

/** The extra object store a read needs when the tip is only in the clone. */
function alternates(objects: string | undefined): Record<string, string> {
  return objects ? { GIT_ALTERNATE_OBJECT_DIRECTORIES: objects } : {}
}

/** Commits on `tip` that `base` does not have; undefined when git can't tell (an object missing). */
export async function aheadCount(repo: string, base: string, tip: string, objects?: string): Promise<number | undefined> {
  if (!OID.test(base) || !OID.test(tip)) return undefined
  const r = await git(repo, ['rev-list', '--count', '--end-of-options', `${base}..${tip}`], { env: alternates(objects) })
  const n = Number(r.stdout.toString('utf8').trim())
  return r.ok && Number.isSafeInteger(n) ? n : undefined
}

export interface DiffText {
  /** The diff as git wrote it, at most MAX_DIFF_BYTES. */
  text: Buffer
  /** git had more to say than MAX_DIFF_BYTES. */
  cut: boolean
}

/**
 * `git diff base...tip` (what the branch changed since it forked), unified, renames found, without
 * external diff drivers or textconv: the bytes the repository holds, nothing a repository's config
 * would run to make them.
 */
export async function branchDiff(repo: string, base: string, tip: string, objects?: string, max = MAX_DIFF_BYTES): Promise<DiffText> {
  if (!OID.test(base) || !OID.test(tip)) throw new Error('the diff needs two commit ids')
  const r = await git(repo, [
    '-c', 'diff.noprefix=false', '-c', 'diff.mnemonicPrefix=false', '-c', 'diff.relative=false', '-c', 'core.quotePath=true',
    'diff', '--no-ext-diff', '--no-textconv', '--no-color', '--find-renames', '--end-of-options', `${base}...${tip}`,
  ], { max, env: alternates(objects) })
  if (!r.ok) throw new Error(`git diff failed in ${repo}: ${r.stderr.trim() || 'no error text'}`)
  return { text: r.stdout, cut: r.cut }
}
