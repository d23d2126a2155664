/**
 * Which package manager runs a project's scripts: the configured runner when it is not `auto`;
 * else the root package.json's `packageManager` field (`pnpm@9.1.0` → pnpm); else the first
 * lockfile present in `lockfilePriority` order; else npm.
 */
import { join } from 'node:path'
import { RUNNERS, type ScriptRunner, type ScriptsConfig } from '../../book/config.js'
import { isFile } from '../shared/fs.js'
import type { ManifestProblem } from './manifest.js'

/** The manager each known lockfile belongs to. */
export const LOCKFILE_RUNNERS: Readonly<Record<string, ScriptRunner>> = {
  'pnpm-lock.yaml': 'pnpm',
  'yarn.lock': 'yarn',
  'bun.lockb': 'bun',
  'bun.lock': 'bun',
  'package-lock.json': 'npm',
  'npm-shrinkwrap.json': 'npm',
}

export interface RunnerChoice {
  readonly runner: ScriptRunner
  /** Why: `config`, `packageManager`, the lockfile's name, or `default`. */
  readonly reason: string
  /** Lockfiles found at the root (probed in priority order). */
  readonly lockfiles: readonly string[]
  /** Problems about the root package.json (its packageManager field) or the config. */
  readonly problems: readonly ManifestProblem[]
}

/** `pnpm@9.1.0+sha512...` → pnpm; undefined for a manager command-scout can't run. */
export function managerOf(packageManager: string): ScriptRunner | undefined {
  const name = packageManager.trim().split('@')[0]!
  return (RUNNERS as readonly string[]).includes(name) ? (name as ScriptRunner) : undefined
}

/**
 * Resolves the runner for the project at `root`. `packageManager` is the root package.json's field,
 * `packageManagerLine` its line for diagnostics.
 */
export function resolveRunner(root: string, options: Pick<ScriptsConfig, 'runner' | 'lockfilePriority'>, packageManager?: string, packageManagerLine?: number): RunnerChoice {
  const problems: ManifestProblem[] = []
  const lockfiles: string[] = []
  for (const name of options.lockfilePriority) {
    if (!(name in LOCKFILE_RUNNERS)) {
      problems.push({ severity: 'warning', message: `collectors.scripts.lockfilePriority names "${name}", which is not a lockfile command-scout knows (${Object.keys(LOCKFILE_RUNNERS).join(', ')}); it is ignored` })
      continue
    }
    if (isFile(join(root, name))) lockfiles.push(name)
  }
  const lockRunners = [...new Set(lockfiles.map((f) => LOCKFILE_RUNNERS[f]!))]

  if (options.runner !== 'auto') return { runner: options.runner, reason: 'config', lockfiles, problems }

  if (packageManager !== undefined) {
    const runner = managerOf(packageManager)
    if (runner === undefined) {
      problems.push({
        line: packageManagerLine,
        severity: 'warning',
        message: `"packageManager": "${packageManager}" names a package manager command-scout can't run (expected npm@, yarn@, pnpm@ or bun@ and a version); the runner is taken from the lockfiles instead, or set collectors.scripts.runner`,
      })
    } else {
      const others = lockfiles.filter((f) => LOCKFILE_RUNNERS[f] !== runner)
      if (others.length > 0 && !lockRunners.includes(runner)) {
        problems.push({
          line: packageManagerLine,
          severity: 'warning',
          message: `"packageManager" says ${runner} but the lockfile is ${others.join(', ')}; scripts run with ${runner} as the field says. Delete the stale lockfile or correct the field`,
        })
      }
      return { runner, reason: 'packageManager', lockfiles, problems }
    }
  }

  const first = lockfiles[0]
  if (first === undefined) return { runner: 'npm', reason: 'default', lockfiles, problems }
  const runner = LOCKFILE_RUNNERS[first]!
  if (lockRunners.length > 1) {
    problems.push({
      severity: 'warning',
      message: `lockfiles of several package managers (${lockfiles.join(', ')}); scripts run with ${runner} (${first} comes first in collectors.scripts.lockfilePriority). Delete the lockfiles that don't match, or set "packageManager" in package.json`,
    })
  }
  return { runner, reason: first, lockfiles, problems }
}
