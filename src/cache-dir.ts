/**
 * command-scout's cache directory: COMMAND_SCOUT_CACHE_DIR, else $XDG_CACHE_HOME/command-scout or
 * ~/.cache/command-scout, with a folder per kind (`code` for V8's code cache, `scans` for results
 * and remembered scans); none when COMMAND_SCOUT_CACHE=off. Each folder is used only when it is
 * this user's alone. The launcher (through src/launcher.ts) and the scan cache share this one rule.
 */
import { chmodSync, lstatSync, mkdirSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'

/** The path of a cache folder, undefined when caching is off. Nothing is made. */
export function cacheFolderPath(folder: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.COMMAND_SCOUT_CACHE === 'off' || env.COMMAND_SCOUT_CACHE === '0') return undefined
  const base = env.COMMAND_SCOUT_CACHE_DIR || join(env.XDG_CACHE_HOME || join(env.HOME || homedir(), '.cache'), 'command-scout')
  return join(base, folder)
}

/** `dir` as a directory only this user can write, made when missing; undefined when that can't be had. */
export function privateDir(dir: string): string | undefined {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    const st = lstatSync(dir)
    const uid = process.getuid?.()
    if (!st.isDirectory() || (uid !== undefined && st.uid !== uid)) return undefined
    if ((st.mode & 0o077) !== 0) chmodSync(dir, 0o700)
    return dir
  } catch {
    return undefined
  }
}

/** A cache folder made private and ready, or undefined (caching off, or the folder isn't safe to use). */
export function cacheFolder(folder: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const path = cacheFolderPath(folder, env)
  return path === undefined ? undefined : privateDir(path)
}
