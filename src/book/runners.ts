/**
 * The runners recipes name: whether one is installed, and how a person installs it. Each runner's
 * install hint is in the row of the collector whose recipes start with it (src/base/collector-table.ts).
 */
import { accessSync, constants } from 'node:fs'
import { delimiter, join } from 'node:path'
import { COLLECTOR_TABLE } from '../base/collector-table.js'
import type { Recipe } from './recipe.js'

/**
 * Runner -> how a person installs it, from every collector's row. No prototype: a runner is a word
 * from a repository's file, and `constructor` must find no hint rather than Object's.
 */
export const INSTALL_HINTS: Readonly<Record<string, string>> = Object.freeze(Object.assign(
  Object.create(null) as Record<string, string>,
  ...COLLECTOR_TABLE.map((row) => row.runners as Readonly<Record<string, string>>),
))

/** Whether an executable is on PATH (no shell, no spawn). */
export function onPath(command: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const exts = process.platform === 'win32' ? (env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';') : ['']
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue
    for (const ext of exts) {
      try {
        accessSync(join(dir, command + ext), constants.X_OK)
        return true
      } catch {
        // not here
      }
    }
  }
  return false
}

/** How to install `runner`: the recipe's own way when its collector gave one (`install`), else the table's. */
export function installHint(runner: string, install?: string): string {
  return install ?? INSTALL_HINTS[runner] ?? `install ${runner}`
}

/** The sentence a tool carries when its runner is not installed: which one, and how to install it. */
export function missingRunnerNote(runner: string, install?: string): string {
  return `Warning: ${runner} is not installed here, so this fails until someone installs it (${installHint(runner, install)}).`
}

/** Why a command can't run when its runner is missing: which runner, and how to install it. */
export function missingRunnerMessage(runner: string, command: string, install?: string): string {
  return `${runner} is not installed here (not on PATH), so \`${command}\` can't run; ${installHint(runner, install)}, then try again`
}

/**
 * The runner a recipe's command line starts with when it is not installed, else undefined. The
 * command's first word decides (a third-party recipe may name a runner and run something else);
 * paths and `VAR=value` prefixes are not checked.
 */
export function missingExecutable(command: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const first = /^\s*([A-Za-z0-9_][A-Za-z0-9_.+-]*)(?:\s|$)/.exec(command)?.[1]
  return first !== undefined && !onPath(first, env) ? first : undefined
}

/**
 * Why a call of `recipe` can't run because the executable its command starts with is not installed
 * (which one, how to install it: the recipe's own way when that executable is its runner), or undefined.
 */
export function missingRunnerRefusal(recipe: Pick<Recipe, 'command' | 'runner' | 'install'>, command: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const missing = missingExecutable(recipe.command, env)
  return missing ? missingRunnerMessage(missing, command, missing === recipe.runner ? recipe.install : undefined) : undefined
}
